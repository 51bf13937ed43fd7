package classify

import (
	"slices"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// orderChanges emits one declared finding per top-level property holding,
// at any depth, an order-significant array (typeFacts.orderedKeys:
// pipeline stages and their actions, a log transformer's processors) whose
// declared elements the live model holds in another order. The
// normalizer sorts identity-keyed arrays so that each element is compared
// with its own (and its leaves fold); this runs on the raw inputs first, so
// a reordering is never lost to that sort. The finding is at the property's
// own path with both whole values: reverting it writes the declared order
// back.
func (r *run) orderChanges(decl, live map[string]any) {
	for k, d := range decl {
		if l, ok := live[k]; ok && reordered(r.tf.orderedKeys, k, d, l) {
			r.emit(drift.Finding{Tier: drift.Declared, Path: k, Desired: redact(d), Actual: redact(l), Note: "order changed"})
		}
	}
}

// permuted reports whether two arrays hold the same elements (as
// canonical JSON) in another order: a reordering a schema's
// insertionOrder:false sort would otherwise hide.
func permuted(d, l []any) bool {
	if len(d) != len(l) || len(d) < 2 {
		return false
	}
	dc, lc := make([]string, len(d)), make([]string, len(l))
	same := true
	for i := range d {
		dc[i], lc[i] = normalize.Canonical(d[i]), normalize.Canonical(l[i])
		same = same && dc[i] == lc[i]
	}
	if same {
		return false
	}
	slices.Sort(dc)
	slices.Sort(lc)
	return slices.Equal(dc, lc)
}

// reordered reports whether an order-significant array at or below key k
// holds the declared elements it shares with live in another order.
// Elements are matched by the identity field the normalizer sorts by; an
// array without one is positional already and is only descended.
func reordered(keys map[string]bool, k string, d, l any) bool {
	switch dt := d.(type) {
	case map[string]any:
		lt, ok := l.(map[string]any)
		if !ok {
			return false
		}
		for ck, dv := range dt {
			if lv, ok := lt[ck]; ok && reordered(keys, ck, dv, lv) {
				return true
			}
		}
	case []any:
		lt, ok := l.([]any)
		if !ok {
			return false
		}
		f := normalize.IdentityField(dt)
		if f == "" || normalize.IdentityField(lt) != f {
			if keys[k] && permuted(dt, lt) {
				return true
			}
			if len(dt) == len(lt) {
				for i := range dt {
					if reordered(keys, k, dt[i], lt[i]) {
						return true
					}
				}
			}
			return false
		}
		at := make(map[string]int, len(lt))
		for i, e := range lt {
			at[e.(map[string]any)[f].(string)] = i
		}
		last := -1
		for _, e := range dt {
			m := e.(map[string]any)
			j, ok := at[m[f].(string)]
			if !ok {
				continue
			}
			if keys[k] && j < last {
				return true
			}
			last = j
			if reordered(keys, k, m, lt[j]) {
				return true
			}
		}
	}
	return false
}
