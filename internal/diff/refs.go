package diff

import (
	"regexp"
	"strings"
)

// maxDepth bounds the walk of raw template values.
const maxDepth = 512

// reference is one Ref / Fn::GetAtt / Fn::Sub edge from a value to a
// resource: Attr is empty for a Ref (the physical id).
type reference struct {
	Target string
	Attr   string
}

var subVar = regexp.MustCompile(`\$\{([^}]*)\}`)

// references lists the resource references in a raw template value:
// {"Ref": X}, {"Fn::GetAtt": [X, A]} or "X.A", and ${X} / ${X.A} in
// Fn::Sub strings (not ${!literal}, not the Sub's own variables). Names
// that are not in isResource (parameters, pseudo parameters) are left out.
func references(v any, isResource func(string) bool) []reference {
	var out []reference
	seen := map[reference]bool{}
	add := func(r reference) {
		if isResource(r.Target) && !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > maxDepth {
			return
		}
		switch t := v.(type) {
		case map[string]any:
			if len(t) == 1 {
				if s, ok := t["Ref"].(string); ok {
					add(reference{Target: s})
					return
				}
				if ga, ok := t["Fn::GetAtt"]; ok {
					if r, ok := getAttRef(ga); ok {
						add(r)
					}
					walk(ga, depth+1)
					return
				}
				if sub, ok := t["Fn::Sub"]; ok {
					var text string
					vars := map[string]any{}
					switch a := sub.(type) {
					case string:
						text = a
					case []any:
						if len(a) > 0 {
							text, _ = a[0].(string)
						}
						if len(a) > 1 {
							if m, ok := a[1].(map[string]any); ok {
								vars = m
								walk(m, depth+1)
							}
						}
					}
					for _, m := range subVar.FindAllStringSubmatch(text, -1) {
						name := strings.TrimSpace(m[1])
						if strings.HasPrefix(name, "!") {
							continue
						}
						if _, own := vars[name]; own {
							continue
						}
						target, attr, _ := strings.Cut(name, ".")
						add(reference{Target: target, Attr: attr})
					}
					return
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
	walk(v, 0)
	return out
}

func getAttRef(arg any) (reference, bool) {
	switch a := arg.(type) {
	case string:
		t, attr, ok := strings.Cut(a, ".")
		return reference{Target: t, Attr: attr}, ok
	case []any:
		if len(a) == 2 {
			t, ok := a[0].(string)
			attr, _ := a[1].(string) // an intrinsic attribute name: still an edge
			if attr == "" {
				attr = "*"
			}
			return reference{Target: t, Attr: attr}, ok
		}
	}
	return reference{}, false
}
