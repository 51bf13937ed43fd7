package classify

import (
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// undeclared classifies a live value the template never set, at report
// path rp (seed 002 §6 "Why a given value does (or does not) appear"):
//
//	== a schema default or a known default     → atDefault
//	== this resource's own minted value         → generated
//	all-aws:* tags, physical-id echo, empty     → dropped
//	otherwise                                   → undeclared
func (r *run) undeclared(rp string, v any, nested bool) {
	// An attribute bag is inventory per key, even when undeclared as a
	// whole.
	if arr, ok := v.([]any); ok && len(arr) > 0 {
		if id := r.identity(rp, arr); id != nil && id.valueKey != "" {
			for _, e := range arr {
				m := e.(map[string]any)
				r.undeclared(rp+"["+id.key(e)+"]", m[id.valueKey], true)
			}
			return
		}
	}
	if tier, ok := r.known(rp, v); ok {
		r.emitValue(tier, rp, v, nested)
		return
	}
	if !nested {
		if r.clusterEcho(rp, v) {
			return
		}
		if r.siblingEcho(rp, v) {
			r.emitValue(drift.AtDefault, rp, v, nested)
			return
		}
	}
	if r.schemaDefault(rp, v) {
		r.emitValue(drift.AtDefault, rp, v, nested)
		return
	}
	if s, ok := v.(string); ok && s == r.s.Ref.PhysicalID && s != "" {
		if nested {
			r.emitValue(drift.Generated, rp, v, nested)
		}
		return
	}
	if r.generated(rp, v) {
		r.emitValue(drift.Generated, rp, v, nested)
		return
	}
	if normalize.TriviallyEmpty(v) {
		if r.meaningfulWhenOff(rp, v) {
			r.emitValue(drift.Undeclared, rp, v, nested)
		}
		return
	}
	r.emitValue(drift.Undeclared, rp, v, nested)
}

func (r *run) emitValue(t drift.Tier, rp string, v any, nested bool) {
	r.emit(drift.Finding{Tier: t, Path: rp, Actual: redact(v), Nested: nested})
}

// schemaDefault reports whether v equals the registry schema's default for
// the path.
func (r *run) schemaDefault(rp string, v any) bool {
	sp := schemaPath(rp)
	if d, ok := r.facts.DefaultPaths[sp]; ok && normalize.SameScalarOrEqual(d, v) {
		return true
	}
	if d, ok := r.facts.Defaults[sp]; ok && normalize.SameScalarOrEqual(d, v) {
		return true
	}
	return false
}
