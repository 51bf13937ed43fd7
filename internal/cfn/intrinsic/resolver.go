package intrinsic

import (
	"strings"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/drift"
)

// maxDepth bounds recursion through nested intrinsics.
const maxDepth = 1024

// handler resolves one intrinsic function from its raw argument.
type handler func(r *Resolver, arg any, depth int) any

// functions is the one registration table of intrinsic functions. Keys not
// in it that start with "Fn::" resolve to Unknown.
func functions() map[string]handler {
	return map[string]handler{
		"Ref":                (*Resolver).ref,
		"Fn::GetAtt":         (*Resolver).getAtt,
		"Fn::Sub":            (*Resolver).sub,
		"Fn::Join":           (*Resolver).join,
		"Fn::Select":         (*Resolver).selectFn,
		"Fn::Split":          (*Resolver).split,
		"Fn::FindInMap":      (*Resolver).findInMap,
		"Fn::ImportValue":    (*Resolver).importValue,
		"Fn::GetStackOutput": (*Resolver).getStackOutput,
		"Fn::Base64":         (*Resolver).base64,
		"Fn::Cidr":           (*Resolver).cidr,
		"Fn::If":             (*Resolver).ifFn,
		"Fn::GetAZs":         constant("Fn::GetAZs depends on the account's Availability Zones"),
		"Fn::Transform":      constant("Fn::Transform runs a macro at deploy time"),
		"Fn::Equals":         constant("condition function outside Conditions"),
		"Fn::And":            constant("condition function outside Conditions"),
		"Fn::Or":             constant("condition function outside Conditions"),
		"Fn::Not":            constant("condition function outside Conditions"),
	}
}

func constant(reason string) handler {
	return func(*Resolver, any, int) any { return unknown(reason) }
}

// Resolver resolves one template's intrinsics against one Context.
type Resolver struct {
	t     *cfn.Template
	c     Context
	fns   map[string]handler
	conds map[string]truth
}

// New returns a resolver for t. It evaluates the Conditions section once.
func New(t *cfn.Template, c Context) *Resolver {
	r := &Resolver{t: t, c: c, fns: functions(), conds: map[string]truth{}}
	r.evalConditions()
	return r
}

// WithLiveAttrs returns a resolver that is r with Context.LiveAttrs
// replaced (pass 2). Conditions are not re-evaluated: they cannot depend on
// live attributes.
func (r *Resolver) WithLiveAttrs(live map[string]map[string]any) *Resolver {
	cp := *r
	cp.c.LiveAttrs = live
	return &cp
}

// Value resolves any raw long-form value of the template. AWS::NoValue at
// the top comes back as nil, false.
func (r *Resolver) Value(raw any) (any, bool) {
	v := r.resolve(raw, 0)
	if _, ok := v.(noValue); ok {
		return nil, false
	}
	return v, true
}

// resolve resolves a raw value. Maps and lists drop AWS::NoValue members.
func (r *Resolver) resolve(v any, depth int) any {
	if depth > maxDepth {
		return unknown("intrinsics nested too deeply")
	}
	switch t := v.(type) {
	case string:
		if u, ok := dynamicRef(t); ok {
			return u
		}
		return t
	case map[string]any:
		if len(t) == 1 {
			for k, arg := range t {
				if h, ok := r.fns[k]; ok {
					return h(r, arg, depth+1)
				}
				if strings.HasPrefix(k, "Fn::") {
					return unknown(k + " is not supported")
				}
			}
		}
		out := make(map[string]any, len(t))
		for k, e := range t {
			rv := r.resolve(e, depth+1)
			if _, drop := rv.(noValue); drop {
				continue
			}
			out[k] = rv
		}
		return out
	case []any:
		out := make([]any, 0, len(t))
		for _, e := range t {
			rv := r.resolve(e, depth+1)
			if _, drop := rv.(noValue); drop {
				continue
			}
			out = append(out, rv)
		}
		return out
	}
	return v
}

// strict resolves an argument for a function that needs all of it known. It
// returns the argument with Secret wrappers removed and whether it had any,
// or the Unknown (possibly secret) that stops the function.
func (r *Resolver) strict(arg any, depth int) (any, bool, *drift.Unknown) {
	v := r.resolve(arg, depth)
	if _, ok := v.(noValue); ok {
		u := unknown("AWS::NoValue used as a function argument")
		return nil, false, &u
	}
	s, secret := strip(v)
	if u, ok := findUnknown(v); ok {
		u.Secret = u.Secret || secret
		return nil, secret, &u
	}
	return s, secret, nil
}

// strictString resolves an argument that must be one string.
func (r *Resolver) strictString(arg any, depth int, what string) (string, bool, *drift.Unknown) {
	v, secret, u := r.strict(arg, depth)
	if u != nil {
		return "", secret, u
	}
	s, ok := text(v)
	if !ok {
		bad := unknown(what + " must be a string")
		return "", secret, &bad
	}
	return s, secret, nil
}

// args splits a function's list argument, checking its length.
func args(arg any, fn string, min, max int) ([]any, *drift.Unknown) {
	list, ok := arg.([]any)
	if !ok || len(list) < min || len(list) > max {
		u := unknown("malformed " + fn)
		return nil, &u
	}
	return list, nil
}
