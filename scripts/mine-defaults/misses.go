package main

import (
	"fmt"
	"io"
	"sort"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// miss is one finding a leave-one-out replay got wrong: an expected
// atDefault/generated finding it did not produce with that tier, or an
// undeclared finding at a path where the case expects nothing.
type miss struct {
	kind  string // "want <tier> got <tier|nothing>"
	typ   string
	path  string
	value string
}

func missesOf(typ string, res corpus.Result) []miss {
	gotAt := map[string]drift.Finding{}
	for _, f := range res.Got {
		gotAt[f.Path] = f
	}
	wantAt := map[string]drift.Finding{}
	for _, f := range res.Want {
		wantAt[f.Path] = f
	}
	var out []miss
	for _, w := range res.Want {
		if w.Tier != drift.AtDefault && w.Tier != drift.Generated {
			continue
		}
		g, ok := gotAt[w.Path]
		if ok && g.Tier == w.Tier {
			continue
		}
		got := "nothing"
		if ok {
			got = g.Tier.String()
		}
		out = append(out, miss{"want " + w.Tier.String() + " got " + got, typ, w.Path, short(normalize.Canonical(w.Actual))})
	}
	for _, g := range res.Got {
		if _, ok := wantAt[g.Path]; !ok && g.Tier == drift.Undeclared {
			out = append(out, miss{"want nothing got undeclared", typ, g.Path, short(normalize.Canonical(g.Actual))})
		}
	}
	return out
}

func short(s string) string {
	if len(s) > 140 {
		return s[:137] + "..."
	}
	return s
}

// printMissesByPath prints the misses grouped by (kind, path), the paths
// recurring across the most types first.
func printMissesByPath(w io.Writer, ms []miss) {
	type group struct {
		kind, path string
		types      map[string]bool
		rows       []miss
	}
	groups := map[[2]string]*group{}
	for _, m := range ms {
		k := [2]string{m.kind, m.path}
		g := groups[k]
		if g == nil {
			g = &group{kind: m.kind, path: m.path, types: map[string]bool{}}
			groups[k] = g
		}
		g.types[m.typ] = true
		g.rows = append(g.rows, m)
	}
	list := make([]*group, 0, len(groups))
	for _, g := range groups {
		list = append(list, g)
	}
	sort.Slice(list, func(i, j int) bool {
		a, b := list[i], list[j]
		if len(a.types) != len(b.types) {
			return len(a.types) > len(b.types)
		}
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		return a.path < b.path
	})
	fmt.Fprintf(w, "misses: %d in %d (kind, path) groups\n", len(ms), len(list))
	for _, g := range list {
		fmt.Fprintf(w, "%s  %s  (%d types, %d values)\n", g.kind, g.path, len(g.types), len(g.rows))
		for _, m := range g.rows {
			fmt.Fprintf(w, "    %s  %s\n", m.typ, m.value)
		}
	}
}
