package corpus

import (
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// Triple is one (type, path, value template) of a live value.
type Triple struct {
	Type, Path, Value string
}

// Ranked is a triple with the number of cases it was seen in.
type Ranked struct {
	Triple
	Cases int
	// Constant is true when every case of the type that has the path
	// shows this same value template.
	Constant bool
}

// RankUndeclared ranks the undeclared top-level live values of the cases as
// (type, path, value template) triples, constant ones first, then by the
// number of cases.
func RankUndeclared(cases []*Case) []Ranked {
	seen := map[Triple]int{}
	perPath := map[[2]string]map[string]bool{}
	for _, c := range cases {
		ctx := classify.ContextFor(subject(c), c.LiveRaw, c.Options())
		for k, v := range c.LiveRaw {
			if _, declared := c.Resource.Declared[k]; declared {
				continue
			}
			t := Triple{c.Resource.ResourceType, k, classify.Template(v, ctx)}
			seen[t]++
			pp := [2]string{t.Type, t.Path}
			if perPath[pp] == nil {
				perPath[pp] = map[string]bool{}
			}
			perPath[pp][t.Value] = true
		}
	}
	out := make([]Ranked, 0, len(seen))
	for t, n := range seen {
		out = append(out, Ranked{Triple: t, Cases: n, Constant: len(perPath[[2]string{t.Type, t.Path}]) == 1})
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Constant != b.Constant {
			return a.Constant
		}
		if a.Cases != b.Cases {
			return a.Cases > b.Cases
		}
		return a.Type+a.Path+a.Value < b.Type+b.Path+b.Value
	})
	return out
}

// MinCrossTypes is the number of distinct types that must fold a top-level
// (path, value) before it holds for every type (cross-validated with
// mine-defaults -loo -min-types).
const MinCrossTypes = 2

// MineKnown derives the known-values table from the cases' labels: every
// (type, path, value template) the corpus labels atDefault or generated,
// minus any triple it also labels undeclared anywhere (a value that is real
// drift somewhere is never folded), minus the minted values the
// classifier's general rules already derive for their own resource. Rows
// are sorted.
func MineKnown(cases []*Case) []classify.KnownValue {
	return MineKnownWith(cases, MinCrossTypes)
}

// MineKnownWith is MineKnown with another cross-type threshold.
func MineKnownWith(cases []*Case, minCrossTypes int) []classify.KnownValue {
	empty := &classify.KnownTable{}
	labels := map[Triple]map[drift.Tier]int{}    // unexplained: per-type rows
	allLabels := map[Triple]map[drift.Tier]int{} // all: cross-type evidence
	// reachedBy[i] holds the top-level paths case i reports without a
	// table: a path it never reports is dropped by a rule that runs
	// before the table is consulted, so it is no evidence either way.
	reachedBy := make([]map[string]bool, len(cases))
	for i, c := range cases {
		ctx := classify.ContextFor(subject(c), c.LiveRaw, c.Options())
		explained := map[string]string{}
		reachedBy[i] = map[string]bool{}
		for _, f := range ReplayWith(c, empty) {
			explained[f.Key()] = Canonical(f)
			reachedBy[i][topKey(f.Path)] = true
		}
		for _, f := range c.Expected {
			switch f.Tier {
			case drift.AtDefault, drift.Generated, drift.Undeclared:
			default:
				continue
			}
			t := Triple{c.Resource.ResourceType, classify.KeyPath(f.Path), classify.Template(f.Actual, ctx)}
			if allLabels[t] == nil {
				allLabels[t] = map[drift.Tier]int{}
			}
			allLabels[t][f.Tier]++
			// A minted value the general rules already derive (a name
			// segment of this resource's physical id, an auto-name) is this
			// resource's own: a row for it could never match another one.
			// Defaults stay even when this case's schema explains them:
			// schema versions differ between cases.
			if f.Tier == drift.Generated && explained[f.Key()] == Canonical(f) {
				continue
			}
			if labels[t] == nil {
				labels[t] = map[drift.Tier]int{}
			}
			labels[t][f.Tier]++
		}
	}
	// Cross-type rows: a top-level (path, value) folded on two or more
	// types, and never left unfolded where it appears undeclared.
	crossTypes := map[[2]string]map[string]bool{}
	for t, tiers := range allLabels {
		// Only literal values: a placeholder template ("any AZ", "any
		// key") is evidence about the types it was seen on, not all.
		if tiers[drift.AtDefault] == 0 || tiers[drift.Undeclared] > 0 || strings.ContainsAny(t.Path, ".[") || strings.Contains(t.Value, "⟨") {
			continue
		}
		k := [2]string{t.Path, t.Value}
		if crossTypes[k] == nil {
			crossTypes[k] = map[string]bool{}
		}
		crossTypes[k][t.Type] = true
	}
	// Evidence per (path, value) across all types and per service: every
	// occurrence the table would reach must be labelled atDefault.
	occurrences := map[[2]string]int{}
	folded := map[[2]string]int{}
	svcOcc := map[[3]string]int{}
	svcFolded := map[[3]string]int{}
	for i, c := range cases {
		ctx := classify.ContextFor(subject(c), c.LiveRaw, c.Options())
		labelled := map[string]drift.Tier{}
		for _, f := range c.Expected {
			labelled[f.Path] = f.Tier
		}
		svc := classify.ServiceOf(c.Resource.ResourceType)
		for k, v := range c.LiveRaw {
			if _, declared := c.Resource.Declared[k]; declared {
				continue
			}
			key := [2]string{k, classify.Template(v, ctx)}
			if crossTypes[key] == nil {
				continue
			}
			if _, ok := labelled[k]; !ok && !reachedBy[i][k] && !normalize.TriviallyEmpty(v) {
				// Silent both with and without a table: another rule
				// (a sibling's echo, a cluster member's) owns it.
				continue
			}
			sk := [3]string{svc, k, key[1]}
			occurrences[key]++
			svcOcc[sk]++
			if labelled[k] == drift.AtDefault {
				folded[key]++
				svcFolded[sk]++
			}
		}
	}
	var rows []classify.KnownValue
	// Silent rows: a false the corpus leaves unreported at a top-level
	// path (a legitimate "off" there), so a default switch that reads
	// false on another resource is not taken for a switch-off.
	silent := map[Triple]bool{}
	for _, c := range cases {
		reported := map[string]bool{}
		for _, f := range c.Expected {
			reported[f.Path] = true
		}
		for k, v := range c.LiveRaw {
			if _, declared := c.Resource.Declared[k]; declared || reported[k] || v != false {
				continue
			}
			silent[Triple{c.Resource.ResourceType, k, "false"}] = true
		}
	}
	for t := range silent {
		rows = append(rows, classify.KnownValue{Type: t.Type, Path: t.Path, Tier: "silent", Value: t.Value, Cases: 1})
	}
	for k, types := range crossTypes {
		if len(types) >= minCrossTypes && folded[k] == occurrences[k] {
			rows = append(rows, classify.KnownValue{Type: "*", Path: k[0], Tier: drift.AtDefault.String(), Value: k[1], Cases: folded[k]})
			continue
		}
		// Service rows: a (path, value) one type of a service folds holds
		// for the service's other types, unless some type of the service
		// leaves it unfolded.
		bySvc := map[string]bool{}
		for t := range types {
			bySvc[classify.ServiceOf(t)] = true
		}
		for svc := range bySvc {
			sk := [3]string{svc, k[0], k[1]}
			if svcFolded[sk] > 0 && svcFolded[sk] == svcOcc[sk] {
				rows = append(rows, classify.KnownValue{Type: svc, Path: k[0], Tier: drift.AtDefault.String(), Value: k[1], Cases: svcFolded[sk]})
			}
		}
	}
	rows = append(rows, nestedServiceRows(cases, allLabels)...)
	rows = append(rows, declaredSiblingRows(cases)...)
	for t, tiers := range labels {
		if tiers[drift.Undeclared] > 0 {
			continue
		}
		tier, n := drift.AtDefault, tiers[drift.AtDefault]
		if tiers[drift.Generated] > n {
			tier, n = drift.Generated, tiers[drift.Generated]
		}
		rows = append(rows, classify.KnownValue{Type: t.Type, Path: t.Path, Tier: tier.String(), Value: t.Value, Cases: n})
	}
	sort.Slice(rows, func(i, j int) bool {
		a, b := rows[i], rows[j]
		if a.Type != b.Type {
			return a.Type < b.Type
		}
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Value != b.Value {
			return a.Value < b.Value
		}
		return a.Tier < b.Tier
	})
	return rows
}

// nestedServiceRows mines service rows for dotted paths (sub-keys of an
// object, no identity-keyed element): a literal a type of the service
// folds there, where no case of the service shows the same value at the
// same path without an atDefault label.
func nestedServiceRows(cases []*Case, allLabels map[Triple]map[drift.Tier]int) []classify.KnownValue {
	folded := map[[3]string]int{}
	bySvc := map[string][][3]string{}
	for t, tiers := range allLabels {
		if tiers[drift.AtDefault] == 0 || !strings.Contains(t.Path, ".") || strings.Contains(t.Path, "[") || strings.Contains(t.Value, "⟨") {
			continue
		}
		k := [3]string{classify.ServiceOf(t.Type), t.Path, t.Value}
		if folded[k] == 0 {
			bySvc[k[0]] = append(bySvc[k[0]], k)
		}
		folded[k] += tiers[drift.AtDefault]
	}
	blocked := map[[3]string]bool{}
	for _, c := range cases {
		keys := bySvc[classify.ServiceOf(c.Resource.ResourceType)]
		if len(keys) == 0 {
			continue
		}
		ctx := classify.ContextFor(subject(c), c.LiveRaw, c.Options())
		labelled := map[string]drift.Tier{}
		for _, f := range c.Expected {
			labelled[f.Path] = f.Tier
		}
		for _, k := range keys {
			v, ok := atPath(c.LiveRaw, k[1])
			if !ok || classify.Template(v, ctx) != k[2] {
				continue
			}
			if labelled[k[1]] != drift.AtDefault {
				blocked[k] = true
			}
		}
	}
	var rows []classify.KnownValue
	for k, n := range folded {
		if !blocked[k] {
			rows = append(rows, classify.KnownValue{Type: k[0], Path: k[1], Tier: drift.AtDefault.String(), Value: k[2], Cases: n})
		}
	}
	return rows
}

// atPath returns the value at a dotted path of objects.
func atPath(m map[string]any, path string) (any, bool) {
	var cur any = m
	for _, p := range strings.Split(path, ".") {
		o, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = o[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// topKey returns the top-level property of a report path.
func topKey(rp string) string {
	if i := strings.IndexAny(rp, ".["); i >= 0 {
		return rp[:i]
	}
	return rp
}

func subject(c *Case) classify.Subject {
	return classify.Subject{
		Ref: drift.ResourceRef{
			LogicalID:     c.Resource.LogicalID,
			Type:          c.Resource.ResourceType,
			PhysicalID:    c.Resource.PhysicalID,
			ConstructPath: c.Resource.ConstructPath,
		},
		Declared:           c.Resource.Declared,
		SiblingPolicyNames: c.Resource.SiblingPolicyNames,
	}
}
