package corpus

import (
	"sort"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// MinDeclaredValues is the number of distinct values a (type, path,
// declared sibling) relation must be seen folding before it becomes a row:
// one value alone cannot tell "takes the sibling's value" from a constant
// default that happens to equal it.
const MinDeclaredValues = 2

// declaredSiblingRows mines per-type rows for a top-level property that
// takes the value of a declared sibling when the template leaves it unset
// (an ELBv2 target group's health-check protocol is its protocol): on every
// case of the type where the undeclared live value equals the declared
// value of sibling K (a non-empty string or a number, never a switch), the
// corpus labels it atDefault, with at least MinDeclaredValues distinct
// values. One case where the equality holds without an atDefault label
// rejects the relation for the type.
func declaredSiblingRows(cases []*Case) []classify.KnownValue {
	type rel struct{ typ, path, sibling string }
	values := map[rel]map[string]bool{}
	folds := map[rel]int{}
	rejected := map[rel]bool{}
	for _, c := range cases {
		tiers := map[string]drift.Tier{}
		for _, f := range c.Expected {
			tiers[f.Path] = f.Tier
		}
		for k, v := range c.LiveRaw {
			if _, declared := c.Resource.Declared[k]; declared {
				continue
			}
			cv := normalize.Canonical(v)
			for dk, dv := range c.Resource.Declared {
				if !siblingScalar(dv) || normalize.Canonical(dv) != cv {
					continue
				}
				r := rel{c.Resource.ResourceType, k, dk}
				if t, ok := tiers[k]; !ok || t != drift.AtDefault {
					rejected[r] = true
					continue
				}
				if values[r] == nil {
					values[r] = map[string]bool{}
				}
				values[r][cv] = true
				folds[r]++
			}
		}
	}
	var rows []classify.KnownValue
	for r, vs := range values {
		if rejected[r] || len(vs) < MinDeclaredValues {
			continue
		}
		rows = append(rows, classify.KnownValue{Type: r.typ, Path: r.path, Tier: drift.AtDefault.String(), Value: classify.DeclaredSibling(r.sibling), Cases: folds[r]})
	}
	sort.Slice(rows, func(i, j int) bool {
		return rows[i].Type+rows[i].Path+rows[i].Value < rows[j].Type+rows[j].Path+rows[j].Value
	})
	return rows
}

func siblingScalar(v any) bool {
	switch t := v.(type) {
	case string:
		return t != ""
	case float64, int, int64:
		return true
	}
	return false
}
