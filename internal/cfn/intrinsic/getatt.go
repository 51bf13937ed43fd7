package intrinsic

import (
	"sort"
	"strconv"
	"strings"
)

// keyedLists are the list shapes a GetAtt path may step into by name: a
// list of objects whose key field equals the path segment yields the
// object's value field. A nested stack's live Outputs is the one known case
// (Fn::GetAtt Child.Outputs.Name).
var keyedLists = []struct{ key, value string }{
	{"OutputKey", "OutputValue"},
}

// getAtt resolves {"Fn::GetAtt": ["X", "A.B"]} or {"Fn::GetAtt": "X.A.B"}.
func (r *Resolver) getAtt(arg any, depth int) any {
	var logical, attr string
	secret := false
	switch t := arg.(type) {
	case string:
		var ok bool
		if logical, attr, ok = strings.Cut(t, "."); !ok {
			return unknown("malformed Fn::GetAtt")
		}
	case []any:
		if len(t) != 2 {
			return unknown("malformed Fn::GetAtt")
		}
		var ok bool
		if logical, ok = t[0].(string); !ok {
			return unknown("malformed Fn::GetAtt")
		}
		a, sec, u := r.strictString(t[1], depth, "Fn::GetAtt attribute")
		if u != nil {
			return *u
		}
		attr, secret = a, sec
	default:
		return unknown("malformed Fn::GetAtt")
	}
	return taint(r.attribute(logical, attr), secret)
}

// attribute reads attribute path attr of resource logical's live model.
func (r *Resolver) attribute(logical, attr string) any {
	if _, ok := r.t.Resources[logical]; !ok {
		return unknown("Fn::GetAtt of undeclared resource " + logical)
	}
	live, ok := r.c.LiveAttrs[logical]
	if !ok || live == nil {
		return unknown("live attributes of " + logical + " are not known")
	}
	v, ok := lookup(live, attr)
	if !ok || v == nil {
		return unknown(logical + " has no live attribute " + attr)
	}
	return clone(v)
}

// lookup finds attr in a live model: as one key first, then as a dotted
// path.
func lookup(live map[string]any, attr string) (any, bool) {
	if v, ok := live[attr]; ok {
		return v, true
	}
	var cur any = live
	for _, seg := range strings.Split(attr, ".") {
		switch t := cur.(type) {
		case map[string]any:
			v, ok := t[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			v, ok := listStep(t, seg)
			if !ok {
				return nil, false
			}
			cur = v
		default:
			return nil, false
		}
	}
	return cur, true
}

func listStep(list []any, seg string) (any, bool) {
	if i, err := strconv.Atoi(seg); err == nil {
		if i < 0 || i >= len(list) {
			return nil, false
		}
		return list[i], true
	}
	for _, kl := range keyedLists {
		for _, e := range list {
			m, ok := e.(map[string]any)
			if !ok {
				continue
			}
			if k, ok := m[kl.key].(string); ok && k == seg {
				v, ok := m[kl.value]
				return v, ok
			}
		}
	}
	return nil, false
}

// GetAttTargets returns the logical ids that a raw long-form value
// references through Fn::GetAtt or a ${X.Attr} in Fn::Sub, sorted and
// without duplicates. The pipeline uses it (pass 1.5) to learn whose live
// models a resource's properties wait on.
func GetAttTargets(raw any) []string {
	seen := map[string]bool{}
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > maxDepth {
			return
		}
		switch t := v.(type) {
		case map[string]any:
			if len(t) == 1 {
				if arg, ok := t["Fn::GetAtt"]; ok {
					switch a := arg.(type) {
					case string:
						if x, _, ok := strings.Cut(a, "."); ok {
							seen[x] = true
						}
					case []any:
						if len(a) > 0 {
							if x, ok := a[0].(string); ok {
								seen[x] = true
							}
						}
					}
				}
				if arg, ok := t["Fn::Sub"]; ok {
					for _, x := range subGetAtts(arg) {
						seen[x] = true
					}
				}
			}
			for _, e := range t {
				walk(e, depth+1)
			}
		case []any:
			for _, e := range t {
				walk(e, depth+1)
			}
		}
	}
	walk(raw, 0)
	out := make([]string, 0, len(seen))
	for x := range seen {
		out = append(out, x)
	}
	sort.Strings(out)
	return out
}

// subGetAtts lists the X of every ${X.Attr} in a Fn::Sub argument that is
// not one of its own variables.
func subGetAtts(arg any) []string {
	var (
		tmpl string
		vars map[string]any
	)
	switch t := arg.(type) {
	case string:
		tmpl = t
	case []any:
		if len(t) < 1 {
			return nil
		}
		s, ok := t[0].(string)
		if !ok {
			return nil
		}
		tmpl = s
		if len(t) > 1 {
			vars, _ = t[1].(map[string]any)
		}
	default:
		return nil
	}
	parts, ok := parseSub(tmpl)
	if !ok {
		return nil
	}
	var out []string
	for _, p := range parts {
		if !p.isVar {
			continue
		}
		if _, isVar := vars[p.text]; isVar {
			continue
		}
		if x, _, ok := strings.Cut(p.text, "."); ok {
			out = append(out, x)
		}
	}
	return out
}
