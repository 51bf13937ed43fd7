package corpus

import (
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// Mutation is one out-of-band change applied to a case's live model: the
// value at a top-level or dotted path replaced by a different value of the
// same kind and, where it can be, the same shape (a key ARN with one
// character changed is still a key ARN). It stands in for the changes a
// person makes in the console: a toggle flipped, a number raised, a key or a
// name swapped.
type Mutation struct {
	File string
	Path string
	From any
	To   any
	// Surfaced is true when replaying the mutated case produced a drift-tier
	// finding at Path, at one of its parents or inside it.
	Surfaced bool
	// Tier is the tier the expected finding at Path had before the change.
	Tier drift.Tier
}

// OutOfBand applies, for every case, one mutation per folded or matching
// live value it can reach by a plain dotted path — each expected atDefault
// and generated finding, and each declared top-level scalar the live model
// echoes equal — and replays the mutated case. It measures whether a fold
// ever hides a real change: every mutation should surface as drift. Values
// AWS assigns per resource (classify.AssignedValue: a path it assigns
// whatever the value, a managed default name, an assigned id, a VPC's
// default security group) fold on a first check by design and are watched
// by the baseline: they are left to the after-record measure
// (TestOOBAfterRecord).
func OutOfBand(cases []*Case) []Mutation {
	var out []Mutation
	for _, c := range cases {
		for _, target := range mutationTargets(c) {
			path, tier := target.path, target.tier
			from, ok := LookupDotted(c.LiveRaw, path)
			if !ok {
				continue
			}
			to, ok := Mutate(from)
			if !ok {
				continue
			}
			mc := *c
			mc.LiveRaw = setDotted(normalize.Clone(c.LiveRaw).(map[string]any), path, to)
			m := Mutation{File: c.File, Path: path, From: from, To: to, Tier: tier}
			for _, f := range Replay(&mc) {
				if f.Tier.IsDrift() && related(f.Path, path) {
					m.Surfaced = true
					break
				}
			}
			out = append(out, m)
		}
	}
	return out
}

type target struct {
	path string
	tier drift.Tier
}

func mutationTargets(c *Case) []target {
	var ts []target
	seen := map[string]bool{}
	for _, f := range c.Expected {
		if f.Tier != drift.AtDefault && f.Tier != drift.Generated {
			continue
		}
		if strings.ContainsAny(f.Path, "[]") || seen[f.Path] || classify.AssignedValue(c.Resource.ResourceType, f.Path, f.Actual) {
			continue
		}
		seen[f.Path] = true
		ts = append(ts, target{f.Path, f.Tier})
	}
	for k, v := range c.Resource.Declared {
		if seen[k] || drift.ContainsUnknown(v) || classify.Assigned(c.Resource.ResourceType, k) {
			continue
		}
		switch v.(type) {
		case string, float64, bool:
		default:
			continue
		}
		if lv, ok := c.LiveRaw[k]; ok && lv == v {
			seen[k] = true
			ts = append(ts, target{k, drift.Declared})
		}
	}
	return ts
}

// related reports whether a finding at p covers a change at q.
func related(p, q string) bool {
	return p == q || strings.HasPrefix(q, p+".") || strings.HasPrefix(p, q+".") || strings.HasPrefix(p, q+"[")
}

// Mutate changes a scalar keeping its shape: a boolean flips, a number
// grows, a string's last letter or digit moves to another of its class
// (mutateString). It reports false for anything else.
func Mutate(v any) (any, bool) {
	switch t := v.(type) {
	case bool:
		return !t, true
	case float64:
		if t == float64(int64(t)) {
			return t*2 + 1, true
		}
		return t * 1.5, true
	case string:
		return mutateString(t), true
	}
	return nil, false
}

// mutateString changes the last letter or digit to another of its class,
// so the value keeps its shape; a string with none gets a suffix.
func mutateString(s string) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		c := b[i]
		switch {
		case c >= '0' && c <= '8', c >= 'a' && c <= 'e', c >= 'A' && c <= 'Y', c >= 'g' && c <= 'y':
			b[i] = c + 1
			return string(b)
		case c == '9':
			b[i] = '0'
			return string(b)
		case c == 'f', c == 'z', c == 'Z':
			b[i] = c - 1
			return string(b)
		}
	}
	return s + "x"
}

// LookupDotted returns the value at a dotted path (index segments for
// arrays) in m (normalize.LookupDotted).
func LookupDotted(m map[string]any, path string) (any, bool) { return normalize.LookupDotted(m, path) }

func setDotted(m map[string]any, path string, v any) map[string]any {
	segs := strings.Split(path, ".")
	var cur any = m
	for i, seg := range segs {
		last := i == len(segs)-1
		switch t := cur.(type) {
		case map[string]any:
			if last {
				t[seg] = v
			} else {
				cur = t[seg]
			}
		case []any:
			idx, _ := strconv.Atoi(seg)
			if last {
				t[idx] = v
			} else {
				cur = t[idx]
			}
		}
	}
	return m
}
