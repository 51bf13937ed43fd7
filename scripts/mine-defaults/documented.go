package main

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/drift"
)

// looDocumented is the leave-one-type-out figure of the documented table
// (internal/classify/documented.json): for each type of the corpus, its
// cases are replayed with the known-values table mined from the other
// types' cases only and with the type's imported and AWS-facts rows
// hidden (classify.KnownTable.HidingType), once without and once with the
// documented rows. An expected atDefault finding is recovered when only
// the replay with the documented rows folds it; a false fold is a finding
// the documented rows turn atDefault that the case does not expect
// atDefault (real drift hidden). The general rules (schema defaults,
// account fill-ins, minted names, other types' mined rows) are the
// baseline both replays share.
func looDocumented(w io.Writer, dirs []string, minTypes int, verbose bool) error {
	cases, err := corpus.LoadDirs(dirs...)
	if err != nil {
		return err
	}
	byType := map[string][]*corpus.Case{}
	for _, c := range cases {
		byType[c.Resource.ResourceType] = append(byType[c.Resource.ResourceType], c)
	}
	types := make([]string, 0, len(byType))
	for t := range byType {
		types = append(types, t)
	}
	sort.Strings(types)
	var n looCount
	var lines []string
	for _, typ := range types {
		rest := make([]*corpus.Case, 0, len(cases))
		for _, c := range cases {
			if c.Resource.ResourceType != typ {
				rest = append(rest, c)
			}
		}
		table, err := classify.NewKnownTable(corpus.MineKnownWith(rest, minTypes))
		if err != nil {
			return err
		}
		without, with := table.HidingType(typ, false), table.HidingType(typ, true)
		before := n.recovered + n.split
		for _, c := range byType[typ] {
			lines = append(lines, n.add(c, corpus.ReplayWith(c, without), corpus.ReplayWith(c, with))...)
		}
		if n.recovered+n.split > before {
			n.types++
		}
	}
	fmt.Fprintf(w, "loo-documented: %d types, %d cases; expected atDefault %d: general rules alone %d (%.1f%%), recovered by the documented table %d (%.1f%%; %d more per sub-key) on %d types, still missed %d; false folds %d (drift hidden); other new folds %d; lost %d\n",
		len(types), len(cases), n.expected, n.general, pct(n.general, n.expected), n.recovered, pct(n.recovered, n.expected), n.split, n.types,
		n.expected-n.general-n.recovered-n.split, n.falseFolds, n.extra, n.lost)
	if verbose {
		sort.Strings(lines)
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
	}
	return nil
}

// looCount tallies the leave-one-type-out figure.
type looCount struct {
	expected, general, recovered, split, falseFolds, extra, lost, types int
}

// add counts one case: off and on are its replays without and with the
// documented rows. An expected atDefault the documented rows fold at a
// sub-path instead (an object reported per key) counts as split; a new
// fold at or under an expected drift finding is false.
func (n *looCount) add(c *corpus.Case, offFs, onFs []drift.Finding) []string {
	var lines []string
	want := atDefaults(c.Expected)
	off, on := atDefaults(offFs), atDefaults(onFs)
	expected := map[string]drift.Tier{}
	for _, f := range c.Expected {
		expected[f.LogicalID+" "+f.Path] = f.Tier
	}
	newUnder := func(k string) bool {
		for x := range on {
			if !off[x] && strings.HasPrefix(x, k+".") {
				return true
			}
		}
		return false
	}
	n.expected += len(want)
	for k := range want {
		switch {
		case off[k]:
			n.general++
			if !on[k] {
				n.lost++
			}
		case on[k]:
			n.recovered++
			lines = append(lines, "recovered "+c.File+" "+k)
		case newUnder(k):
			n.split++
			lines = append(lines, "recovered per sub-key "+c.File+" "+k)
		default:
			lines = append(lines, "missed "+c.File+" "+k)
		}
	}
	for k := range on {
		if off[k] || want[k] {
			continue
		}
		if t, ok := tierAtOrAbove(expected, k); ok && t != drift.AtDefault {
			n.falseFolds++
			lines = append(lines, "false fold "+c.File+" "+k+" (expected "+t.String()+")")
		} else if !ok {
			n.extra++
			lines = append(lines, "new fold "+c.File+" "+k)
		}
	}
	return lines
}

// tierAtOrAbove returns the expected tier at key k or at the nearest
// enclosing path.
func tierAtOrAbove(expected map[string]drift.Tier, k string) (drift.Tier, bool) {
	for {
		if t, ok := expected[k]; ok {
			return t, true
		}
		i := strings.LastIndexAny(k, ".[")
		if i < 0 || !strings.Contains(k[:i], " ") {
			return 0, false
		}
		k = k[:i]
	}
}

// atDefaults keys the atDefault findings by logical id and path.
func atDefaults(fs []drift.Finding) map[string]bool {
	out := map[string]bool{}
	for _, f := range fs {
		if f.Tier == drift.AtDefault {
			out[f.LogicalID+" "+f.Path] = true
		}
	}
	return out
}

func pct(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}
