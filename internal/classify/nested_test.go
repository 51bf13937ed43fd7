package classify

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/schema"
)

// TestNestedParameters: what a nested stack's stack resource echoes of its
// nested template (a parameter default the parent does not pass, a NoEcho
// mask) is no drift, through the type's nestedParameters fact and the
// nested template's parameter facts (NestedParametersOption); a changed
// parameter, one without a default, another stack's facts or no facts at
// all still surface.
func TestNestedParameters(t *testing.T) {
	const arn = "arn:aws:cloudformation:us-east-1:111111111111:stack/P-Web-1/uuid"
	params := map[string]any{
		"Mode":  map[string]any{"default": "blue"},
		"Pw":    map[string]any{"noEcho": true},
		"Stage": map[string]any{},
	}
	withFacts := Options{Sibling: map[string]any{NestedParametersOption: map[string]any{arn: params}}}
	otherStack := Options{Sibling: map[string]any{NestedParametersOption: map[string]any{arn + "-other": params}}}
	facts := &schema.Facts{FreeFormMapPaths: []string{"Parameters"}, ReadOnly: []string{"StackId", "Outputs"}}
	tests := []struct {
		name     string
		opts     Options
		declared map[string]any
		live     map[string]any
		want     []string
	}{
		{"a parameter at the nested default", withFacts,
			map[string]any{"Parameters": map[string]any{"Stage": "prod"}},
			map[string]any{"Parameters": map[string]any{"Stage": "prod", "Mode": "blue"}},
			[]string{`atDefault Parameters.Mode "blue"`}},
		{"no parameters passed, all at their defaults", withFacts,
			map[string]any{},
			map[string]any{"Parameters": map[string]any{"Mode": "blue"}},
			[]string{`atDefault Parameters {"Mode":"blue"}`}},
		{"a parameter changed from its default", withFacts,
			map[string]any{"Parameters": map[string]any{"Stage": "prod"}},
			map[string]any{"Parameters": map[string]any{"Stage": "prod", "Mode": "green"}},
			[]string{`undeclared Parameters.Mode "green"`}},
		{"a parameter without a default", withFacts,
			map[string]any{"Parameters": map[string]any{"Mode": "blue"}},
			map[string]any{"Parameters": map[string]any{"Mode": "blue", "Stage": "prod"}},
			[]string{`undeclared Parameters.Stage "prod"`}},
		{"an object with one non-default", withFacts,
			map[string]any{},
			map[string]any{"Parameters": map[string]any{"Mode": "blue", "Stage": "x"}},
			[]string{`undeclared Parameters {"Mode":"blue","Stage":"x"}`}},
		{"a NoEcho parameter masked", withFacts,
			map[string]any{"Parameters": map[string]any{"Pw": "hunter2"}},
			map[string]any{"Parameters": map[string]any{"Pw": "****"}},
			[]string{`readGap Parameters.Pw`}},
		{"a declared parameter changed", withFacts,
			map[string]any{"Parameters": map[string]any{"Stage": "prod"}},
			map[string]any{"Parameters": map[string]any{"Stage": "dev"}},
			[]string{`declared Parameters.Stage "dev" want "prod"`}},
		{"a masked value of a parameter that is not NoEcho", withFacts,
			map[string]any{"Parameters": map[string]any{"Stage": "prod"}},
			map[string]any{"Parameters": map[string]any{"Stage": "****"}},
			[]string{`declared Parameters.Stage "****" want "prod"`}},
		{"another nested stack's facts", otherStack,
			map[string]any{},
			map[string]any{"Parameters": map[string]any{"Mode": "blue"}},
			[]string{`undeclared Parameters {"Mode":"blue"}`}},
		{"no facts", Options{},
			map[string]any{"Parameters": map[string]any{"Pw": "hunter2"}},
			map[string]any{"Parameters": map[string]any{"Pw": "****", "Mode": "blue"}},
			[]string{`declared Parameters.Pw "****" want "hunter2"`, `undeclared Parameters.Mode "blue"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Subject{Ref: drift.ResourceRef{Type: "AWS::CloudFormation::Stack", LogicalID: "Web", PhysicalID: arn}, Declared: tt.declared}
			live := map[string]any{"StackId": arn}
			for k, v := range tt.live {
				live[k] = v
			}
			got := brief(Resource(s, live, facts, tt.opts))
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("(-got +want)\n%s", d)
			}
		})
	}
	// The same facts on a type without a nested-parameters property do
	// nothing.
	s := Subject{Ref: drift.ResourceRef{Type: "AWS::SSM::Parameter", PhysicalID: arn}, Declared: map[string]any{}}
	if got := brief(Resource(s, map[string]any{"Parameters": map[string]any{"Mode": "blue"}}, nil, withFacts)); cmp.Diff(got, []string{`undeclared Parameters {"Mode":"blue"}`}) != "" {
		t.Errorf("another type folded: %v", got)
	}
}
