package intrinsic

import (
	"reflect"
)

// truth is a three-valued condition result.
type truth uint8

const (
	unknownTruth truth = iota
	falseTruth
	trueTruth
)

func truthOf(b bool) truth {
	if b {
		return trueTruth
	}
	return falseTruth
}

// evalConditions evaluates every condition of the template once.
func (r *Resolver) evalConditions() {
	visiting := map[string]bool{}
	for name := range r.t.Conditions {
		r.evalNamed(name, visiting)
	}
}

// evalNamed evaluates one named condition, memoised; a cycle or an
// undeclared name is unknown.
func (r *Resolver) evalNamed(name string, visiting map[string]bool) truth {
	if v, ok := r.conds[name]; ok {
		return v
	}
	expr, ok := r.t.Conditions[name]
	if !ok || visiting[name] {
		return unknownTruth
	}
	visiting[name] = true
	v := r.evalExpr(expr, visiting, 0)
	delete(visiting, name)
	r.conds[name] = v
	return v
}

// evalExpr evaluates a condition expression with Kleene logic: false AND
// unknown is false, true OR unknown is true, anything else unknown stays
// unknown.
func (r *Resolver) evalExpr(expr any, visiting map[string]bool, depth int) truth {
	m, ok := expr.(map[string]any)
	if !ok || len(m) != 1 || depth > maxDepth {
		return unknownTruth
	}
	for fn, arg := range m {
		switch fn {
		case "Condition":
			name, ok := arg.(string)
			if !ok {
				return unknownTruth
			}
			return r.evalNamed(name, visiting)
		case "Fn::Equals":
			list, ok := arg.([]any)
			if !ok || len(list) != 2 {
				return unknownTruth
			}
			return r.equals(list[0], list[1], depth)
		case "Fn::Not":
			list, ok := arg.([]any)
			if !ok || len(list) != 1 {
				return unknownTruth
			}
			switch r.evalExpr(list[0], visiting, depth+1) {
			case trueTruth:
				return falseTruth
			case falseTruth:
				return trueTruth
			}
			return unknownTruth
		case "Fn::And", "Fn::Or":
			list, ok := arg.([]any)
			if !ok || len(list) < 2 || len(list) > 10 {
				return unknownTruth
			}
			decisive := falseTruth // And: one false decides
			if fn == "Fn::Or" {
				decisive = trueTruth
			}
			result := truthOf(decisive != trueTruth) // all non-decisive
			for _, e := range list {
				switch v := r.evalExpr(e, visiting, depth+1); v {
				case decisive:
					return decisive
				case unknownTruth:
					result = unknownTruth
				}
			}
			return result
		}
	}
	return unknownTruth
}

// equals evaluates Fn::Equals. Scalars compare as CloudFormation's strings
// (10 equals "10"); an operand that is not fully known makes it unknown.
func (r *Resolver) equals(a, b any, depth int) truth {
	va, ok := r.operand(a, depth)
	if !ok {
		return unknownTruth
	}
	vb, ok := r.operand(b, depth)
	if !ok {
		return unknownTruth
	}
	return truthOf(reflect.DeepEqual(canonical(va), canonical(vb)))
}

func (r *Resolver) operand(raw any, depth int) (any, bool) {
	v, _, u := r.strict(raw, depth+1)
	if u != nil {
		return nil, false
	}
	return v, true
}

// canonical turns scalars into their string form so that comparisons
// follow CloudFormation, which compares strings.
func canonical(v any) any {
	switch t := v.(type) {
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = canonical(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = canonical(e)
		}
		return out
	}
	if s, ok := text(v); ok {
		return s
	}
	return v
}

// Condition reports a named condition's value and whether it is known.
func (r *Resolver) Condition(name string) (value, known bool) {
	switch r.conds[name] {
	case trueTruth:
		return true, true
	case falseTruth:
		return false, true
	}
	return false, false
}

// ifFn resolves {"Fn::If": [condition, whenTrue, whenFalse]}. An unknown
// condition picks no branch.
func (r *Resolver) ifFn(arg any, depth int) any {
	a, bad := args(arg, "Fn::If", 3, 3)
	if bad != nil {
		return *bad
	}
	name, ok := a[0].(string)
	if !ok {
		return unknown("malformed Fn::If")
	}
	switch r.conds[name] {
	case trueTruth:
		return r.resolve(a[1], depth+1)
	case falseTruth:
		return r.resolve(a[2], depth+1)
	}
	return unknown("condition " + name + " could not be evaluated")
}
