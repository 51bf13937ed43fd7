package classify

import (
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// NestedParametersOption is the Options.Sibling key of the nested
// templates' parameter facts: the physical id of a resource whose type
// passes parameters to a nested template (typeFacts.nestedParameters: a
// nested stack's ARN) → parameter name → {"default": the template's
// Default (present only when it declares one), "noEcho": true for a NoEcho
// parameter}. Only the nested template's own declarations: no value is
// guessed.
const NestedParametersOption = "nestedStackParameters"

// NoEchoMask is how CloudFormation shows a NoEcho parameter's value.
const NoEchoMask = "****"

// nestedParam is one parameter the nested template declares.
type nestedParam struct {
	def        string
	hasDefault bool
	noEcho     bool
}

// nestedParam returns, for report path rp, the nested template's
// declaration of the parameter rp names ("<prop>.<key>", prop the type's
// nestedParameters property), when the fact is given.
func (r *run) nestedParam(rp string) (nestedParam, bool) {
	prop := r.tf.nestedParameters
	if prop == "" {
		return nestedParam{}, false
	}
	key, ok := strings.CutPrefix(rp, prop+".")
	if !ok || strings.ContainsAny(key, ".[") {
		return nestedParam{}, false
	}
	return r.nestedParamNamed(key)
}

func (r *run) nestedParamNamed(key string) (nestedParam, bool) {
	byID, _ := r.opts.Sibling[NestedParametersOption].(map[string]any)
	params, _ := byID[r.s.Ref.PhysicalID].(map[string]any)
	p, ok := params[key].(map[string]any)
	if !ok {
		return nestedParam{}, false
	}
	var np nestedParam
	np.def, np.hasDefault = p["default"].(string)
	np.noEcho, _ = p["noEcho"].(bool)
	return np, true
}

// nestedDefault reports whether an undeclared value is the nested
// template's own default for the parameter it stands for (the parent
// passes no value, the nested stack took its default): "<prop>.<key>"
// equal to key's Default, or the whole "<prop>" object (the parent passes
// none) of such values only. Equality-gated: a value other than the
// default, or a parameter without one, is not folded.
func (r *run) nestedDefault(rp string, v any) bool {
	prop := r.tf.nestedParameters
	if prop == "" {
		return false
	}
	isDefault := func(key string, v any) bool {
		p, ok := r.nestedParamNamed(key)
		s, isString := v.(string)
		return ok && isString && p.hasDefault && s == p.def
	}
	if rp == prop {
		m, ok := v.(map[string]any)
		if !ok || len(m) == 0 {
			return false
		}
		for k, e := range m {
			if !isDefault(k, e) {
				return false
			}
		}
		return true
	}
	key, ok := strings.CutPrefix(rp, prop+".")
	return ok && !strings.ContainsAny(key, ".[") && isDefault(key, v)
}

// nestedMasked reports whether the live value l of a declared parameter
// rp is CloudFormation's mask of a NoEcho parameter of the nested
// template: the value cannot be read back (a readGap, never drift).
func (r *run) nestedMasked(rp string, l any) bool {
	p, ok := r.nestedParam(rp)
	s, _ := l.(string)
	return ok && p.noEcho && s == NoEchoMask
}

const (
	noteNestedDefault = "the nested stack's own parameter default; the parent passes none"
	noteNestedNoEcho  = "NoEcho parameter of the nested stack: CloudFormation masks it"
)

// emitNestedDefault emits an undeclared nested-template default.
func (r *run) emitNestedDefault(rp string, v any, nested bool) {
	r.emit(drift.Finding{Tier: drift.AtDefault, Path: rp, Actual: redact(v), Nested: nested, Note: noteNestedDefault})
}
