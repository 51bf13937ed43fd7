package cfn

import (
	"sort"
	"strings"
)

// ConstructPathKey is the resource metadata key under which CDK records the
// construct path of a resource.
const ConstructPathKey = "aws:cdk:path"

// Template is one parsed CloudFormation template.
type Template struct {
	FormatVersion string
	Description   string
	// Transform lists the template's macros (top-level Transform), in order.
	Transform  []string
	Parameters map[string]*Parameter
	// Mappings is map name → top-level key → second-level key → value.
	Mappings map[string]map[string]map[string]any
	// Conditions holds each condition's raw long-form expression.
	Conditions map[string]any
	Resources  map[string]*Resource
	Outputs    map[string]*Output
	// Rules and Metadata are kept raw.
	Rules    map[string]any
	Metadata map[string]any
	// Raw is the whole document in long form, including sections the model
	// does not know.
	Raw map[string]any
}

// Parameter is one entry of the Parameters section.
type Parameter struct {
	Name string
	Type string
	// Default is the default value as CloudFormation sees it (a string);
	// HasDefault tells an empty default from none.
	Default    string
	HasDefault bool
	NoEcho     bool
	// AllowedValues are the allowed values, as strings.
	AllowedValues []string
	Description   string
	// Raw is the parameter's declaration as written.
	Raw map[string]any
}

// IsList reports whether a Ref to the parameter yields a list:
// CommaDelimitedList, any List<…>, and SSM parameter types whose value type
// is one of those.
func (p *Parameter) IsList() bool {
	t := p.Type
	if inner, ok := ssmValueType(t); ok {
		t = inner
	}
	return t == "CommaDelimitedList" || strings.HasPrefix(t, "List<")
}

// IsSSM reports whether the parameter's value is read from SSM Parameter
// Store (Type AWS::SSM::Parameter::Value<…>): its Default is a parameter
// name, never its value.
func (p *Parameter) IsSSM() bool {
	_, ok := ssmValueType(p.Type)
	return ok
}

func ssmValueType(t string) (string, bool) {
	const prefix = "AWS::SSM::Parameter::Value<"
	if strings.HasPrefix(t, prefix) && strings.HasSuffix(t, ">") {
		return t[len(prefix) : len(t)-1], true
	}
	return "", false
}

// Resource is one entry of the Resources section.
type Resource struct {
	LogicalID string
	Type      string
	// Properties is the raw long-form property tree; never nil.
	Properties map[string]any
	// Condition names the condition that gates the resource ("" if none).
	Condition string
	DependsOn []string
	// DeletionPolicy and UpdateReplacePolicy are the literal policies; an
	// intrinsic-valued policy is left "" here and kept in Raw.
	DeletionPolicy      string
	UpdateReplacePolicy string
	Metadata            map[string]any
	// ConstructPath is Metadata["aws:cdk:path"] when it is a string.
	ConstructPath string
	// Raw is the whole resource entry (UpdatePolicy, CreationPolicy, …).
	Raw map[string]any
}

// Output is one entry of the Outputs section.
type Output struct {
	Name        string
	Description any
	// Value is the raw long-form value.
	Value any
	// ExportName is the raw Export.Name; nil when the output is not exported.
	ExportName any
	Condition  string
	Raw        map[string]any
}

// ResourceIDs returns the logical ids of all resources, sorted.
func (t *Template) ResourceIDs() []string { return sortedKeys(t.Resources) }

// OutputNames returns the names of all outputs, sorted.
func (t *Template) OutputNames() []string { return sortedKeys(t.Outputs) }

// ParameterNames returns the names of all parameters, sorted.
func (t *Template) ParameterNames() []string { return sortedKeys(t.Parameters) }

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
