package scan

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
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

// TestNeedsNestedParameters: a nested template is read only for a stack
// resource whose live Parameters hold a key the parent does not pass or a
// NoEcho mask where it passes a value.
func TestNeedsNestedParameters(t *testing.T) {
	stack := func(declared map[string]any) Resource {
		return Resource{LogicalID: "Web", Type: NestedStackType, PhysicalID: "arn:aws:cloudformation:us-east-1:111111111111:stack/P-Web-1/uuid", Declared: declared}
	}
	found := func(params map[string]any) live.Result {
		return live.Result{Status: live.Found, Model: map[string]any{"Parameters": params}}
	}
	passes := map[string]any{"Parameters": map[string]any{"Stage": "prod", "Pw": "hunter2"}}
	tests := []struct {
		name string
		r    Resource
		res  live.Result
		want bool
	}{
		{"every parameter passed and echoed", stack(passes), found(map[string]any{"Stage": "prod", "Pw": "hunter2"}), false},
		{"a parameter the parent does not pass", stack(passes), found(map[string]any{"Stage": "prod", "Pw": "hunter2", "Mode": "blue"}), true},
		{"no parameters passed at all", stack(map[string]any{}), found(map[string]any{"Mode": "blue"}), true},
		{"a masked value", stack(passes), found(map[string]any{"Stage": "prod", "Pw": "****"}), true},
		{"a changed value is the classifier's, not a reason to read", stack(passes), found(map[string]any{"Stage": "dev", "Pw": "hunter2"}), false},
		{"not read", stack(map[string]any{}), live.Result{Status: live.Skipped}, false},
		{"not a nested stack", Resource{LogicalID: "Q", Type: "AWS::SQS::Queue", PhysicalID: "q"}, found(map[string]any{"Mode": "blue"}), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := NeedsNestedParameters(tt.r, tt.res); got != tt.want {
				t.Errorf("got %v, want %v", got, tt.want)
			}
		})
	}
}

// TestClassifyStackNestedParameters: the nested templates' parameters on
// Desired reach the classifier, which folds the stack resource's echo of
// them (a default the parent does not pass is atDefault, a NoEcho mask a
// readGap); a changed parameter is still drift; without the facts the
// echo stays potential drift.
func TestClassifyStackNestedParameters(t *testing.T) {
	const arn = "arn:aws:cloudformation:us-east-1:111111111111:stack/P-Web-1/uuid"
	blue := "blue"
	d := &Desired{Stack: drift.StackRef{Name: "P", Account: "111111111111", Region: "us-east-1"}, Resources: []Resource{{
		LogicalID: "Web", Type: NestedStackType, PhysicalID: arn,
		Declared: map[string]any{"Parameters": map[string]any{"Stage": "prod", "Pw": "hunter2"}},
	}}}
	lives := map[string]live.Result{"Web": {Status: live.Found, Model: map[string]any{"StackId": arn, "Parameters": map[string]any{"Stage": "dev", "Pw": "****", "Mode": "blue"}}}}
	tiers := func(fs []drift.Finding) map[string]drift.Tier {
		out := map[string]drift.Tier{}
		for _, f := range fs {
			out[f.Path] = f.Tier
		}
		return out
	}
	without := tiers(ClassifyStack(d, lives, nil, nil, Classifier()))
	d.NestedParameters = map[string]map[string]NestedParameter{arn: {"Mode": {Default: &blue}, "Pw": {NoEcho: true}, "Stage": {}}}
	with := tiers(ClassifyStack(d, lives, nil, nil, Classifier()))
	want := map[string]drift.Tier{"Parameters.Mode": drift.AtDefault, "Parameters.Pw": drift.ReadGap, "Parameters.Stage": drift.Declared}
	if diff := cmp.Diff(with, want); diff != "" {
		t.Errorf("with the nested parameters (-got +want):\n%s", diff)
	}
	if without["Parameters.Mode"] != drift.Undeclared || without["Parameters.Pw"] != drift.Declared {
		t.Errorf("without them: %v (the test no longer sees the echo)", without)
	}
}
