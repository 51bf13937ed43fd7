package classify

import (
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// undeclared classifies a live value the template never set, at report
// path rp (seed 002 §6 "Why a given value does (or does not) appear"):
//
//	== a nested template's parameter default   → atDefault
//	== a schema default or a known default     → atDefault
//	== this resource's own minted value         → generated
//	all-aws:* tags, physical-id echo, empty     → dropped
//	otherwise                                   → undeclared
func (r *run) undeclared(rp string, v any, nested bool) {
	// Inside a declared object, an empty value is the service's "unset":
	// dropped before any default lookup, unless switching it off is a
	// real divergence here.
	if nested && normalize.TriviallyEmpty(v) {
		if r.meaningfulWhenOff(rp, v) {
			r.emitValue(drift.Undeclared, rp, v, nested)
		}
		return
	}
	if r.nestedDefault(rp, v) {
		r.emitNestedDefault(rp, v, nested)
		return
	}
	if !nested {
		if r.clusterEcho(rp, v) || r.siblingOwned(rp) || r.registeredBySibling(rp) {
			return
		}
		if r.siblingEcho(rp, v) {
			r.emitValue(drift.AtDefault, rp, v, nested)
			return
		}
		if r.sourceEchoEmpty(rp, v) {
			return
		}
	}
	if off, isBool := v.(bool); isBool && !off && !nested && r.offAgainstDocumented(KeyPath(rp), v) {
		// Switched off against the default AWS documents for this
		// resource: drift, whatever an observed table says.
		r.emitValue(drift.Undeclared, rp, v, nested)
		return
	}
	if r.rdsOptionDefault(rp, v) || r.cdPolicyEcho(rp, v) {
		r.emitValue(drift.AtDefault, rp, v, nested)
		return
	}
	if tier, ok := r.known(rp, v); ok {
		r.emitValue(tier, rp, v, nested)
		return
	}
	if tier, ok := r.assigned(rp); ok {
		r.emitValue(tier, rp, v, nested)
		return
	}
	// An attribute bag or a per-type identity-keyed set is inventory per
	// element, even when undeclared as a whole.
	if arr, ok := v.([]any); ok && len(arr) > 0 {
		if id := r.identity(rp, arr); id != nil && (id.valueKey != "" || id.perElement) {
			for _, e := range arr {
				ev := e
				if id.valueKey != "" {
					ev = e.(map[string]any)[id.valueKey]
				}
				r.undeclared(rp+"["+id.key(e)+"]", ev, true)
			}
			return
		}
	}

	if r.schemaDefault(rp, v) || r.derivedDefault(rp, v) || r.accountDefault(v) || (!nested && (r.ownIDEcho(v) || r.defaultSecurityGroup(rp, v))) {
		r.emitValue(drift.AtDefault, rp, v, nested)
		return
	}
	if s, ok := v.(string); ok && s == r.s.Ref.PhysicalID && s != "" {
		if nested {
			r.emitValue(drift.Generated, rp, v, nested)
		}
		return
	}
	if !nested && r.echoObject(v) {
		return
	}
	if r.generated(rp, v) {
		r.emitValue(drift.Generated, rp, v, nested)
		return
	}
	if normalize.TriviallyEmpty(v) {
		// A type's own predicate, where it names the path, alone says
		// whether switching it off diverges; the mined tables otherwise.
		if _, own := r.tf.offMeaningful[KeyPath(rp)]; own {
			if r.meaningfulWhenOff(rp, v) {
				r.emitValue(drift.Undeclared, rp, v, nested)
			}
			return
		}
		if !nested && r.switchedOff(rp, v) {
			r.emitValue(drift.Undeclared, rp, v, nested)
		}
		return
	}
	// An object AWS materialised whole: when every sub-key is explained
	// (a default, a minted value, or empty), it is one atDefault at its own
	// path when every sub-key is a default, and its sub-keys otherwise or
	// where the type's table says to descend it (seed 002 §6
	// DESCEND_UNDECLARED_OBJECT_PATHS); one unexplained sub-key surfaces
	// the whole object.
	if m, ok := v.(map[string]any); ok {
		if fs, ok := r.explain(rp, m); ok && len(fs) > 0 {
			if !nested && !r.tf.descendUndeclared[rp] && allTier(fs, drift.AtDefault) {
				r.emitValue(drift.AtDefault, rp, v, nested)
				return
			}
			r.out = append(r.out, fs...)
			return
		}
	}
	if r.subsetDepth > 0 {
		// AWS's default-filled keys inside a declared subset element.
		return
	}
	r.emitValue(drift.Undeclared, rp, v, nested)
}

// echoObject reports whether an object holds nothing but empty values and
// echoes of the physical id.
func (r *run) echoObject(v any) bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) == 0 {
		return false
	}
	echo := false
	for _, e := range m {
		if s, ok := e.(string); ok && s == r.s.Ref.PhysicalID && s != "" {
			echo = true
			continue
		}
		if !normalize.TriviallyEmpty(e) {
			return false
		}
	}
	return echo
}

// explain returns the nested findings of an undeclared object whose every
// direct sub-key is a known default, a schema default, a minted value or
// empty; ok is false when some sub-key is none of those (one level only:
// an object inside is explained whole or not at all).
func (r *run) explain(rp string, m map[string]any) ([]drift.Finding, bool) {
	var out []drift.Finding
	for _, k := range sortedKeys(m) {
		sub, v := rp+"."+k, m[k]
		f := drift.Finding{Path: sub, Actual: redact(v), Nested: true,
			LogicalID: r.s.Ref.LogicalID, ResourceType: r.s.Ref.Type, PhysicalID: r.s.Ref.PhysicalID, ConstructPath: r.s.Ref.ConstructPath}
		if tier, ok := r.known(sub, v); ok {
			f.Tier = tier
			out = append(out, f)
			continue
		}
		if r.schemaDefault(sub, v) {
			f.Tier = drift.AtDefault
			out = append(out, f)
			continue
		}
		if r.generated(sub, v) {
			f.Tier = drift.Generated
			out = append(out, f)
			continue
		}
		if normalize.TriviallyEmpty(v) {
			if r.meaningfulWhenOff(sub, v) {
				return nil, false
			}
			continue
		}
		return nil, false
	}
	return out, true
}

func (r *run) emitValue(t drift.Tier, rp string, v any, nested bool) {
	r.emit(drift.Finding{Tier: t, Path: rp, Actual: redact(v), Nested: nested,
		FreeFormKey: t == drift.Undeclared && nested && r.freeFormKey(rp)})
}

// freeFormKey reports whether the last key of report path rp is a key the
// user chose: a key of a free-form map (schema freeFormMapPaths) or of a
// tag collection (A[key] of a tag list).
func (r *run) freeFormKey(rp string) bool {
	if strings.HasSuffix(rp, "]") {
		i := strings.LastIndexByte(rp, '[')
		if i <= 0 {
			return false
		}
		list := rp[:i]
		for _, tp := range r.tagPaths() {
			if list == tp {
				return true
			}
		}
		return lastKey(list) == "Tags"
	}
	i := strings.LastIndexByte(rp, '.')
	if i <= 0 {
		return false
	}
	if strings.HasSuffix(rp[:i], "Tags") {
		return true // a tag map
	}
	return r.isFreeForm(rp[:i])
}

// schemaDefault reports whether v equals the registry schema's default for
// the path.
func (r *run) schemaDefault(rp string, v any) bool {
	sp := schemaPath(rp)
	if d, ok := r.facts.DefaultPaths[sp]; ok && sameDefault(d, v) {
		return true
	}
	if d, ok := r.facts.Defaults[sp]; ok && sameDefault(d, v) {
		return true
	}
	return false
}

// sameDefault compares a value with a schema default; a scalar-array
// default is a set (the schema does not order it).
func sameDefault(d, v any) bool {
	if normalize.SameScalarOrEqual(d, v) {
		return true
	}
	da, ok1 := d.([]any)
	va, ok2 := v.([]any)
	if !ok1 || !ok2 || len(da) != len(va) {
		return false
	}
	used := make([]bool, len(va))
	for _, x := range da {
		found := false
		for j, y := range va {
			if !used[j] && !isCollection(x) && normalize.SameScalarOrEqual(x, y) {
				used[j], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// lastKey returns the last property name of a report path.
func lastKey(rp string) string {
	if i := strings.LastIndexAny(rp, ".]"); i >= 0 {
		return rp[i+1:]
	}
	return rp
}

// assigned reports the tier of a path whose value AWS picks per resource
// (atDefault), whatever the value: the one fold that
// is not equality-gated. It is safe because record watches every such
// value it saw (baseline watched entries), so any later change is
// confirmed drift; on a first check the value is shown in its tier, never
// hidden.
func (r *run) assigned(rp string) (drift.Tier, bool) {
	return assignedTier(r.tf, rp)
}

func assignedTier(tf *typeFacts, rp string) (drift.Tier, bool) {
	// Minted paths (a content hash AWS computes) keep their own rules: the
	// baseline fingerprints their declared source (sourceRules), so they are
	// not folded here.
	if tf.watched[schemaPath(rp)] || (strings.HasSuffix(rp, "]") && tf.watched[KeyPath(rp)]) {
		return drift.AtDefault, true
	}
	return 0, false
}

// Assigned reports whether the value at report path rp of a resource of
// type typ is one AWS picks or mints per resource, folded whatever its
// value (assigned) and watched by the baseline instead. Recall harnesses
// measure such paths after a record, not on a first check.
func Assigned(typ, rp string) bool {
	_, ok := assignedTier(factsFor(typ), rp)
	return ok
}

// allTier reports whether every finding is in tier t.
func allTier(fs []drift.Finding, t drift.Tier) bool {
	for _, f := range fs {
		if f.Tier != t {
			return false
		}
	}
	return true
}

// AssignedValue reports whether the live value v at report path rp of a
// resource of type typ is one AWS names or assigns itself: a path it
// assigns whatever the value (Assigned), a value in the shape of a managed
// default name or an assigned id (an imported pattern row), or the one
// security group a VPC resource gets when none is named. Such a value folds
// on a first check within its family and is watched by the baseline; the
// recall harnesses measure it after a record, not on a first check.
func AssignedValue(typ, rp string, v any) bool {
	if Assigned(typ, rp) {
		return true
	}
	if isDefaultSecurityGroup(rp, v, nil) {
		return true
	}
	t, err := embeddedImported()
	if err != nil {
		return false
	}
	for _, row := range t.rows[typ][KeyPath(rp)] {
		if row.pattern == nil {
			continue
		}
		x := v
		if row.field != "" {
			m, ok := v.(map[string]any)
			if !ok {
				continue
			}
			x = m[row.field]
		}
		if row.patternMatch(x) {
			return true
		}
	}
	return false
}
