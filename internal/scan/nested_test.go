package scan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
)

// TestTreeOrder: depth first, siblings by name, every stack once; a
// nested stack whose parent is not listed stands at the top.
func TestTreeOrder(t *testing.T) {
	s := func(name, parent string) ListedStack {
		st := ListedStack{Name: name, ID: "arn:" + name}
		if parent != "" {
			st.ParentID = "arn:" + parent
		}
		return st
	}
	names := func(ls []ListedStack) []string {
		var out []string
		for _, l := range ls {
			out = append(out, l.Name)
		}
		return out
	}
	tests := []struct {
		name string
		in   []ListedStack
		want []string
	}{
		{"flat, sorted", []ListedStack{s("b", ""), s("a", "")}, []string{"a", "b"}},
		{"depth first", []ListedStack{s("a-y", "a"), s("b", ""), s("a-x-1", "a-x"), s("a", ""), s("a-x", "a")}, []string{"a", "a-x", "a-x-1", "a-y", "b"}},
		{"listed twice, kept once", []ListedStack{s("a", ""), s("a-x", "a"), s("a-x", "a")}, []string{"a", "a-x"}},
		{"a parent not listed", []ListedStack{s("z", "gone"), s("a", "")}, []string{"a", "z"}},
		{"a cycle is still listed once", []ListedStack{s("p", "q"), s("q", "p"), s("a", "")}, []string{"a", "p", "q"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(names(treeOrder(tt.in)), tt.want); d != "" {
				t.Errorf("(-got +want):\n%s", d)
			}
		})
	}
}

// TestNestedStacks: the declared AWS::CloudFormation::Stack resources in
// logical-id order, with their ARNs and the names read from them.
func TestNestedStacks(t *testing.T) {
	d := &Desired{Resources: []Resource{
		{LogicalID: "Z", Type: NestedStackType, PhysicalID: "arn:aws:cloudformation:us-east-1:111111111111:stack/P-Z-1/uuid"},
		{LogicalID: "Q", Type: "AWS::SQS::Queue", PhysicalID: "https://q"},
		{LogicalID: "A", Type: NestedStackType},
	}}
	got := NestedStacks(d)
	want := []Nested{{LogicalID: "A"}, {LogicalID: "Z", StackID: "arn:aws:cloudformation:us-east-1:111111111111:stack/P-Z-1/uuid"}}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Fatalf("(-got +want):\n%s", diff)
	}
	if got[1].Name() != "P-Z-1" || got[0].Name() != "" {
		t.Errorf("names %q %q", got[0].Name(), got[1].Name())
	}
}

// TestFoldNestedEcho: what a stack resource echoes of its nested stack
// (a parameter default the parent does not pass, a NoEcho mask) is no
// drift; a changed parameter still is.
func TestFoldNestedEcho(t *testing.T) {
	child := &Desired{TemplateBody: `{"Parameters":{"Mode":{"Type":"String","Default":"blue"},"Pw":{"Type":"String","NoEcho":true},"Stage":{"Type":"String"}},"Resources":{}}`}
	nest := func(tier drift.Tier, path string, actual, desired any) drift.Finding {
		return drift.Finding{Tier: tier, LogicalID: "Web", ResourceType: NestedStackType, Path: path, Actual: actual, Desired: desired, Unrecorded: tier == drift.Undeclared}
	}
	tests := []struct {
		name string
		in   drift.Finding
		want drift.Tier
	}{
		{"a parameter at the nested default", nest(drift.Undeclared, "Parameters.Mode", "blue", nil), drift.AtDefault},
		{"no parameters passed, all at their defaults", nest(drift.Undeclared, "Parameters", map[string]any{"Mode": "blue"}, nil), drift.AtDefault},
		{"a parameter changed from its default", nest(drift.Undeclared, "Parameters.Mode", "green", nil), drift.Undeclared},
		{"a parameter without a default", nest(drift.Undeclared, "Parameters.Stage", "prod", nil), drift.Undeclared},
		{"an object with one non-default", nest(drift.Undeclared, "Parameters", map[string]any{"Mode": "blue", "Stage": "x"}, nil), drift.Undeclared},
		{"a NoEcho parameter masked", nest(drift.Declared, "Parameters.Pw", "****", "hunter2"), drift.ReadGap},
		{"a declared parameter changed", nest(drift.Declared, "Parameters.Stage", "dev", "prod"), drift.Declared},
		{"another resource", drift.Finding{Tier: drift.Undeclared, LogicalID: "Other", ResourceType: NestedStackType, Path: "Parameters.Mode", Actual: "blue"}, drift.Undeclared},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := FoldNestedEcho([]drift.Finding{tt.in}, "Web", child)
			if got[0].Tier != tt.want {
				t.Errorf("tier %s, want %s", got[0].Tier, tt.want)
			}
			if tt.want == drift.AtDefault && got[0].Unrecorded {
				t.Error("an atDefault finding is still unrecorded")
			}
		})
	}
}
