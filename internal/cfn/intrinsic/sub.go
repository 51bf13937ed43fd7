package intrinsic

import (
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// subPart is a piece of a Fn::Sub template: literal text or a ${name}.
type subPart struct {
	text  string
	isVar bool
}

// parseSub splits a Fn::Sub template. ${!x} is the literal text ${x}. An
// unterminated ${ makes the template unparseable (false): what
// CloudFormation does with it is not certain.
func parseSub(tmpl string) ([]subPart, bool) {
	var (
		parts []subPart
		lit   strings.Builder
	)
	for {
		i := strings.Index(tmpl, "${")
		if i < 0 {
			lit.WriteString(tmpl)
			break
		}
		lit.WriteString(tmpl[:i])
		rest := tmpl[i+2:]
		if strings.HasPrefix(rest, "!") {
			lit.WriteString("${")
			tmpl = rest[1:]
			continue
		}
		end := strings.IndexByte(rest, '}')
		if end < 0 {
			return nil, false
		}
		if lit.Len() > 0 {
			parts = append(parts, subPart{text: lit.String()})
			lit.Reset()
		}
		parts = append(parts, subPart{text: rest[:end], isVar: true})
		tmpl = rest[end+1:]
	}
	if lit.Len() > 0 {
		parts = append(parts, subPart{text: lit.String()})
	}
	return parts, true
}

// sub resolves {"Fn::Sub": "tmpl"} and {"Fn::Sub": ["tmpl", {vars}]}. A
// variable is looked up in vars, then as ${X.Attr} (Fn::GetAtt) or ${Name}
// (Ref). Only the variables the template uses are resolved.
func (r *Resolver) sub(arg any, depth int) any {
	var (
		tmplArg any
		vars    map[string]any
	)
	switch t := arg.(type) {
	case string:
		tmplArg = t
	case []any:
		if len(t) != 2 {
			return unknown("malformed Fn::Sub")
		}
		m, ok := t[1].(map[string]any)
		if !ok {
			return unknown("malformed Fn::Sub variables")
		}
		tmplArg, vars = t[0], m
	default:
		return unknown("malformed Fn::Sub")
	}
	tmpl, ok := tmplArg.(string)
	if !ok {
		return unknown("malformed Fn::Sub template")
	}
	parts, ok := parseSub(tmpl)
	if !ok {
		return unknown("Fn::Sub template has an unterminated ${")
	}
	var (
		b      strings.Builder
		secret bool
		failed *drift.Unknown
	)
	for _, p := range parts {
		if !p.isVar {
			b.WriteString(p.text)
			continue
		}
		var v any
		if raw, ok := vars[p.text]; ok {
			v = r.resolve(raw, depth+1)
		} else if x, attr, ok := strings.Cut(p.text, "."); ok {
			v = r.attribute(x, attr)
		} else {
			v = r.refName(p.text)
		}
		if _, ok := v.(noValue); ok {
			v = unknown("AWS::NoValue in Fn::Sub")
		}
		if u, ok := findUnknown(v); ok {
			if failed == nil {
				failed = &u
			}
			failed.Secret = failed.Secret || u.Secret
			continue
		}
		plain, sec := strip(v)
		secret = secret || sec
		s, ok := text(plain)
		if !ok {
			u := unknown("Fn::Sub variable " + p.text + " is not a string")
			if failed == nil {
				failed = &u
			}
			continue
		}
		b.WriteString(s)
	}
	if failed != nil {
		failed.Secret = failed.Secret || secret
		return *failed
	}
	return taint(checkDynamic(b.String()), secret)
}

// checkDynamic turns a computed string holding a dynamic reference into
// Unknown.
func checkDynamic(s string) any {
	if u, ok := dynamicRef(s); ok {
		return u
	}
	return s
}
