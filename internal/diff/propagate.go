package diff

import (
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/schema"
)

// edge is one reference from a dependent's top-level property to a
// resource.
type edge struct {
	dependent string
	prop      string
	ref       reference
}

// propagate promotes dependents of replaced and in-place-updated resources
// (seed 000, "Replacement propagation to dependents" and "In-place attribute
// propagation to dependents") until nothing more is promoted.
func propagate(in Input, old, neu side, changes map[string]*ResourceChange, facts func(string) *schema.Facts) {
	if neu.t == nil {
		return
	}
	isRes := func(id string) bool { return neu.t.Resources[id] != nil }
	readers := map[string][]edge{}
	for _, id := range neu.t.ResourceIDs() {
		props := neu.t.Resources[id].Properties
		keys := make([]string, 0, len(props))
		for k := range props {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			for _, ref := range references(props[k], isRes) {
				if ref.Target != id {
					readers[ref.Target] = append(readers[ref.Target], edge{dependent: id, prop: k, ref: ref})
				}
			}
		}
	}
	for round := 0; round <= len(changes); round++ {
		promoted := false
		for _, up := range sortedIDs(changes) {
			u := changes[up]
			if u.Action != Replace && u.Action != Update {
				continue
			}
			changed := changedTops(u)
			for _, e := range readers[up] {
				d := changes[e.dependent]
				if d == nil || d.Action == Create || d.Action == Delete {
					continue
				}
				var kind Propagation
				switch {
				case u.Action == Replace && parentOf(d.Type, u.Type, e.prop):
					kind = ParentReplaced
				case u.Action == Replace:
					kind = ReplacementPropagated
				case attributeMoves(u.Type, e.ref.Attr, changed):
					kind = AttributePropagated
				default:
					continue
				}
				if promote(old, d, e, kind, facts(d.Type)) {
					promoted = true
				}
			}
		}
		if !promoted {
			return
		}
	}
}

// parentOf reports whether a dependent of type dep, reading the upstream of
// type up through prop, is stored inside it.
func parentOf(dep, up, prop string) bool {
	p, ok := insideParent[dep]
	return ok && p.parent == up && p.prop == prop
}

// promote adds the propagated change of e to d unless d already changes
// that property; it reports whether d changed.
func promote(old side, d *ResourceChange, e edge, kind Propagation, f *schema.Facts) bool {
	for i, p := range d.Properties {
		if p.Path == e.prop || strings.HasPrefix(p.Path, e.prop+".") {
			if kind != ParentReplaced || d.Action == Replace {
				return false
			}
			// Changed anyway, and the parent's replacement recreates it.
			d.Properties[i].Replacement = Always
			d.Properties[i].Propagated = ParentReplaced
			d.Properties[i].Via = e.ref.Target
			settle(d)
			return true
		}
	}
	pc := PropertyChange{Path: e.prop, New: knownAfterDeploy, Propagated: kind, Via: e.ref.Target}
	if v, ok := old.res[d.LogicalID].Properties[e.prop]; ok {
		pc.Old = v
	} else {
		pc.OldAbsent = true
	}
	// The reference's template text did not change, so only a whole
	// create-only property replaces (seed 000); a conditionally create-only
	// one keeps its "may" (issue 31, part 4).
	pc.Replacement = propagatedReplacement(d.Type, f, e.prop)
	if kind == ParentReplaced {
		pc.Replacement = Always
	}
	d.Properties = append(d.Properties, pc)
	settle(d)
	return true
}

// changedTops are the top-level properties a change touches.
func changedTops(rc *ResourceChange) map[string]bool {
	out := map[string]bool{}
	for _, p := range rc.Properties {
		top, _, _ := strings.Cut(p.Path, ".")
		out[top] = true
	}
	return out
}
