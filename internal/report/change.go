package report

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// change renders "<side> X → live Y". When both values are collections too
// long to show on one line, it names only what differs instead — the
// elements one side has and the other lacks, or the keys that differ — so a
// one-statement change to a long policy is visible without --verbose.
func change(side string, desired, actual any, opt Options) string {
	full := side + " " + value(desired, opt) + " → live " + value(actual, opt)
	if opt.Verbose || !truncated(desired) && !truncated(actual) {
		return full
	}
	var parts []string
	switch d := desired.(type) {
	case []any:
		a, ok := actual.([]any)
		if !ok {
			return full
		}
		parts = arrayDelta(d, a, opt)
	case map[string]any:
		a, ok := actual.(map[string]any)
		if !ok {
			return full
		}
		parts = mapDelta(d, a, opt)
	default:
		return full
	}
	if len(parts) == 0 {
		return full
	}
	return "live differs from " + side + ": " + strings.Join(parts, "; ")
}

func truncated(v any) bool {
	return v != nil && utf8.RuneCountInString(value(v, Options{Verbose: true})) > maxValue
}

// arrayDelta lists the elements only live has (+) and only the other side
// has (−), compared as canonical JSON; an element present on both sides in
// another position is not a difference here.
func arrayDelta(desired, actual []any, opt Options) []string {
	count := map[string]int{}
	for _, e := range desired {
		count[value(e, Options{Verbose: true})]++
	}
	var added []string
	for _, e := range actual {
		k := value(e, Options{Verbose: true})
		if count[k] > 0 {
			count[k]--
			continue
		}
		added = append(added, "+ "+value(e, opt))
	}
	var removed []string
	for _, e := range desired {
		k := value(e, Options{Verbose: true})
		if count[k] > 0 {
			count[k]--
			removed = append(removed, "− "+value(e, opt))
		}
	}
	if len(added) == 0 && len(removed) == 0 {
		return []string{"same elements in another order"}
	}
	return append(added, removed...)
}

// mapDelta lists the keys whose values differ, in key order.
func mapDelta(desired, actual map[string]any, opt Options) []string {
	keys := map[string]bool{}
	for k := range desired {
		keys[k] = true
	}
	for k := range actual {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	var out []string
	for _, k := range sorted {
		d, inD := desired[k]
		a, inA := actual[k]
		switch {
		case !inD:
			out = append(out, "+ "+k+": "+value(a, opt))
		case !inA:
			out = append(out, "− "+k)
		case value(d, Options{Verbose: true}) != value(a, Options{Verbose: true}):
			out = append(out, k+": "+value(d, opt)+" → "+value(a, opt))
		}
	}
	return out
}
