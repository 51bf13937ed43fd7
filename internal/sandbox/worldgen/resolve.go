package worldgen

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
)

// env resolves the intrinsics the demo templates use, so each declared
// value and the live model built from it agree. It is the generator's own
// bookkeeping, not the project's resolver: it knows exactly the values it
// created and fails on anything else.
type env struct {
	account, region, stackName, stackID string
	refs                                map[string]string
	attrs                               map[string]map[string]any
	exports                             map[string]string
	// imports are the export names Fn::ImportValue resolved: the stack's
	// imports, as CloudFormation records them on deploy (ListImports).
	imports map[string]bool
}

// imported returns the export names the stack imports, sorted.
func (e *env) imported() []string {
	var out []string
	for name := range e.imports {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

var subVar = regexp.MustCompile(`\$\{([^}!]+)\}`)

func (e *env) pseudo(name string) (string, bool) {
	switch name {
	case "AWS::AccountId":
		return e.account, true
	case "AWS::Region":
		return e.region, true
	case "AWS::Partition":
		return "aws", true
	case "AWS::URLSuffix":
		return "amazonaws.com", true
	case "AWS::StackName":
		return e.stackName, true
	case "AWS::StackId":
		return e.stackID, true
	}
	return "", false
}

func (e *env) ref(name string) (any, error) {
	if v, ok := e.pseudo(name); ok {
		return v, nil
	}
	if v, ok := e.refs[name]; ok {
		return v, nil
	}
	return nil, fmt.Errorf("unknown Ref %s", name)
}

func (e *env) getAtt(logical, attr string) (any, error) {
	if v, ok := e.attrs[logical][attr]; ok {
		return v, nil
	}
	return nil, fmt.Errorf("unknown attribute %s.%s (Fn::GetAtt)", logical, attr)
}

func (e *env) resolve(v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 1 {
			for k, arg := range t {
				switch k {
				case "Ref":
					return e.ref(arg.(string))
				case "Fn::GetAtt":
					a := arg.([]any)
					return e.getAtt(a[0].(string), a[1].(string))
				case "Fn::ImportValue":
					name, err := e.resolve(arg)
					if err != nil {
						return nil, err
					}
					if v, ok := e.exports[name.(string)]; ok {
						if e.imports == nil {
							e.imports = map[string]bool{}
						}
						e.imports[name.(string)] = true
						return v, nil
					}
					return nil, fmt.Errorf("no export %v (Fn::ImportValue)", name)
				case "Fn::Join":
					a := arg.([]any)
					parts, err := e.resolve(a[1])
					if err != nil {
						return nil, err
					}
					var ss []string
					for _, p := range parts.([]any) {
						ss = append(ss, fmt.Sprint(p))
					}
					return strings.Join(ss, a[0].(string)), nil
				case "Fn::Sub":
					var err error
					out := subVar.ReplaceAllStringFunc(arg.(string), func(m string) string {
						name := m[2 : len(m)-1]
						var v any
						var rerr error
						if l, a, ok := strings.Cut(name, "."); ok {
							v, rerr = e.getAtt(l, a)
						} else {
							v, rerr = e.ref(name)
						}
						if rerr != nil {
							err = rerr
						}
						return fmt.Sprint(v)
					})
					return out, err
				}
			}
		}
		out := make(map[string]any, len(t))
		for k, x := range t {
			r, err := e.resolve(x)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			r, err := e.resolve(x)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// Template helpers.

func ref(name string) map[string]any { return map[string]any{"Ref": name} }

func getAtt(logical, attr string) map[string]any {
	return map[string]any{"Fn::GetAtt": []any{logical, attr}}
}

func join(sep string, parts ...any) map[string]any {
	return map[string]any{"Fn::Join": []any{sep, parts}}
}

func sub(s string) map[string]any { return map[string]any{"Fn::Sub": s} }

func importValue(name string) map[string]any { return map[string]any{"Fn::ImportValue": name} }

func list(v ...any) []any { return v }

type obj = map[string]any
