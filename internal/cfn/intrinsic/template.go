package intrinsic

import (
	"strings"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/drift"
)

// Resource is one resource of the effective (condition-pruned) template with
// its properties resolved.
type Resource struct {
	LogicalID     string
	Type          string
	ConstructPath string
	// Condition names the resource's condition ("" if none).
	Condition string
	// ConditionUnknown is set when Condition could not be evaluated; the
	// resource is kept, as CloudFormation may have created it.
	ConditionUnknown bool
	// Properties are the resolved properties; never nil.
	Properties map[string]any
	// Unresolved is set when the property bag as a whole is unknowable
	// (e.g. Properties is one Fn::If on an unknown condition); Properties is
	// then empty.
	Unresolved *drift.Unknown
}

// Output is one output of the effective template, resolved.
type Output struct {
	Name  string
	Value any
	// ExportName is the resolved export name; nil when not exported.
	ExportName       any
	Condition        string
	ConditionUnknown bool
}

// Resolve resolves every resource of t that its conditions keep.
func Resolve(t *cfn.Template, c Context) []Resource {
	return New(t, c).Resources()
}

// Resources returns the kept resources, resolved, sorted by logical id.
func (r *Resolver) Resources() []Resource {
	out := make([]Resource, 0, len(r.t.Resources))
	for _, id := range r.t.ResourceIDs() {
		if res, ok := r.Resource(id); ok {
			out = append(out, res)
		}
	}
	return out
}

// Resource resolves one resource. It reports false when the template has no
// such resource or its condition is false.
func (r *Resolver) Resource(logicalID string) (Resource, bool) {
	src, ok := r.t.Resources[logicalID]
	if !ok {
		return Resource{}, false
	}
	keep, condUnknown := r.kept(src.Condition)
	if !keep {
		return Resource{}, false
	}
	res := Resource{
		LogicalID:        logicalID,
		Type:             src.Type,
		ConstructPath:    src.ConstructPath,
		Condition:        src.Condition,
		ConditionUnknown: condUnknown,
		Properties:       map[string]any{},
	}
	switch v := r.resolve(src.Properties, 0).(type) {
	case map[string]any:
		res.Properties = v
	case noValue:
	case drift.Unknown:
		res.Unresolved = &v
	default:
		u := unknown("Properties did not resolve to a mapping")
		res.Unresolved = &u
	}
	return res, true
}

// Outputs returns the kept outputs, resolved, sorted by name.
func (r *Resolver) Outputs() []Output {
	out := make([]Output, 0, len(r.t.Outputs))
	for _, name := range r.t.OutputNames() {
		src := r.t.Outputs[name]
		keep, condUnknown := r.kept(src.Condition)
		if !keep {
			continue
		}
		o := Output{Name: name, Condition: src.Condition, ConditionUnknown: condUnknown}
		o.Value = r.resolve(src.Value, 0)
		if _, ok := o.Value.(noValue); ok {
			o.Value = unknown("output value is AWS::NoValue")
		}
		if src.ExportName != nil {
			o.ExportName = r.resolve(src.ExportName, 0)
			if _, ok := o.ExportName.(noValue); ok {
				o.ExportName = unknown("export name is AWS::NoValue")
			}
		}
		out = append(out, o)
	}
	return out
}

// kept decides whether a resource or output with this condition exists: a
// false condition prunes it; an unknown one keeps it.
func (r *Resolver) kept(cond string) (keep, unknown bool) {
	if cond == "" {
		return true, false
	}
	v, known := r.Condition(cond)
	if !known {
		return true, true
	}
	return v, false
}

// UsesImportValue reports whether the template uses Fn::ImportValue
// anywhere, so the caller fetches exports only then.
func UsesImportValue(t *cfn.Template) bool {
	found := false
	walkFunctions(t.Raw, 0, func(fn string, _ any) {
		if fn == "Fn::ImportValue" {
			found = true
		}
	})
	return found
}

// StackOutputRefs lists the Fn::GetStackOutput targets whose fields are
// literal strings, for the caller to prefetch (a missing Region is left
// empty: it is the stack's own). Targets built by other intrinsics are not
// listed; they resolve only if Context.StackOutputs answers them anyway.
func StackOutputRefs(t *cfn.Template) []StackOutputRef {
	var out []StackOutputRef
	seen := map[StackOutputRef]bool{}
	walkFunctions(t.Raw, 0, func(fn string, arg any) {
		if fn != "Fn::GetStackOutput" {
			return
		}
		m, ok := arg.(map[string]any)
		if !ok {
			return
		}
		var ref StackOutputRef
		for k, v := range m {
			s, ok := v.(string)
			if !ok {
				return
			}
			switch k {
			case "StackName":
				ref.StackName = s
			case "OutputName":
				ref.OutputName = s
			case "Region":
				ref.Region = strings.ToLower(s)
			case "RoleArn":
				ref.RoleArn = s
			default:
				return
			}
		}
		if ref.StackName != "" && ref.OutputName != "" && !seen[ref] {
			seen[ref] = true
			out = append(out, ref)
		}
	})
	return out
}

// walkFunctions calls visit for every single-key map whose key is an
// intrinsic ("Ref" or "Fn::…"), depth-first.
func walkFunctions(v any, depth int, visit func(fn string, arg any)) {
	if depth > maxDepth {
		return
	}
	switch t := v.(type) {
	case map[string]any:
		if len(t) == 1 {
			for k, arg := range t {
				if k == "Ref" || strings.HasPrefix(k, "Fn::") {
					visit(k, arg)
				}
			}
		}
		for _, e := range t {
			walkFunctions(e, depth+1, visit)
		}
	case []any:
		for _, e := range t {
			walkFunctions(e, depth+1, visit)
		}
	}
}
