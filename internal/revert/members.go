package revert

import (
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// Attachment lists (internal/classify/doc.go "Reporting paths"): a scalar
// set such as a role's ManagedPolicyArns or a managed policy's Roles is
// reported per member — a declared member missing from live at the list
// path with attributeKey, a live-only (or recorded, now missing) member
// undeclared at List[member]. Neither is addressable by an RFC 6902
// pointer, so the plan writes the whole list: the list the check read,
// less the members chosen for removal, plus the members chosen to come
// back. Every chosen member of one list shares that one write, and a
// member not chosen (another --only glob, an ignore rule, a recorded
// member) stays as it is.

// memberList returns the attachment list f names one member of: a
// declared member (attributeKey, written back as a whole array at the
// list path), or an undeclared List[member] whose list the resource's
// live model holds as scalars (or lacks: every member detached). An
// undeclared member of a resource whose live model the plan was not
// given is not one (its list cannot be written from what was read).
func memberList(f drift.Finding, r Resource) (string, bool) {
	if f.Tier == drift.Declared {
		w := f.WholeArrayRevert
		s, ok := normalize.ScalarString(f.Desired)
		return f.Path, ok && f.AttributeKey != "" && s == f.AttributeKey && w != nil && w.Path == f.Path && !strings.ContainsAny(f.Path, "[]")
	}
	if f.Tier != drift.Undeclared || r.Live == nil || !strings.HasSuffix(f.Path, "]") {
		return "", false
	}
	i := strings.LastIndexByte(f.Path, '[')
	list, key := f.Path[:max(i, 0)], f.Path[i+1:len(f.Path)-1]
	if i <= 0 || strings.ContainsAny(list, "[]") {
		return "", false
	}
	v := f.Actual
	if v == nil {
		v = f.Desired
	}
	if s, ok := normalize.ScalarString(v); !ok || s != key {
		return "", false
	}
	l, ok := valueAt(r.Live, list)
	if !ok {
		return list, true
	}
	if _, ok := scalarKeys(l); !ok {
		return "", false
	}
	return list, true
}

// scalarKeys returns the members of a list of scalars as strings.
func scalarKeys(v any) ([]string, bool) {
	a, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(a))
	for _, e := range a {
		s, ok := normalize.ScalarString(e)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// valueAt returns the value at a dotted path of a model; a null is
// absent.
func valueAt(m map[string]any, p string) (any, bool) {
	v, ok := normalize.LookupDotted(m, p)
	return v, ok && v != nil
}

// listBase is the list the members of r's list are written from: the
// live model's (present: the model holds it; an absent list is empty),
// else the list a declared member's whole-array value was built from (the
// live list and every declared member missing from it, classify's
// compareScalarSet). ok is false when neither is known.
func listBase(r Resource, logicalID, list string, findings []drift.Finding) (base []any, present, ok bool) {
	if r.Live != nil {
		v, found := valueAt(r.Live, list)
		if !found {
			return []any{}, false, true
		}
		a, isList := v.([]any)
		return append([]any{}, a...), true, isList
	}
	missing := map[string]bool{}
	var whole []any
	for _, f := range findings {
		if f.LogicalID != logicalID || f.Tier != drift.Declared || f.Path != list || f.AttributeKey == "" || f.WholeArrayRevert == nil {
			continue
		}
		missing[f.AttributeKey] = true
		if a, ok := f.WholeArrayRevert.Value.([]any); ok {
			whole = a
		}
	}
	if whole == nil {
		return nil, false, false
	}
	for _, e := range whole {
		if s, ok := normalize.ScalarString(e); ok && !missing[s] {
			base = append(base, e)
		}
	}
	return base, true, true
}

// mergeMembers gives the items of each attachment list one patch: the
// list as read, less the members its items remove, plus the members they
// bring back. An item whose list is not known is not revertable.
func (p *Plan) mergeMembers(res map[string]Resource, findings []drift.Finding) {
	type listKey struct{ logicalID, physicalID, list string }
	at := map[listKey][]int{}
	var order []listKey
	for i, it := range p.Items {
		if it.List == "" {
			continue
		}
		k := listKey{it.LogicalID, it.PhysicalID, it.List}
		if _, ok := at[k]; !ok {
			order = append(order, k)
		}
		at[k] = append(at[k], i)
	}
	unknown := map[int]bool{}
	for _, k := range order {
		base, present, ok := listBase(res[k.logicalID], k.logicalID, k.list, findings)
		if !ok {
			for _, i := range at[k] {
				unknown[i] = true
			}
			continue
		}
		drop := map[string]bool{}
		var back []any
		for _, i := range at[k] {
			it := p.Items[i]
			if it.Remove {
				if s, ok := normalize.ScalarString(it.Current); ok {
					drop[s] = true
				}
				continue
			}
			back = append(back, it.Target)
		}
		merged := make([]any, 0, len(base)+len(back))
		have := map[string]bool{}
		for _, e := range append(append([]any{}, base...), back...) {
			s, ok := normalize.ScalarString(e)
			if !ok || drop[s] || have[s] {
				continue
			}
			have[s] = true
			merged = append(merged, e)
		}
		ptr, _ := pointer(k.list)
		for _, i := range at[k] {
			p.Items[i].Patch = []Op{op(ptr, present, false, merged)}
			p.Items[i].Prior = base
		}
	}
	if len(unknown) == 0 {
		return
	}
	kept := p.Items[:0]
	for i, it := range p.Items {
		if !unknown[i] {
			kept = append(kept, it)
			continue
		}
		p.NotRevertable = append(p.NotRevertable, Unrevertable{
			Tier: it.Tier, LogicalID: it.LogicalID, ConstructPath: it.ConstructPath, ResourceType: it.ResourceType, PhysicalID: it.PhysicalID,
			Path: it.Path, Reason: ArrayElement, Detail: "the live " + it.List + " list was not read: a member is written as part of the whole list",
			ChangedBy: it.ChangedBy,
		})
	}
	p.Items = kept
}
