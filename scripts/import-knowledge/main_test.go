package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/classify"
)

func TestKeyPaths(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Port", []string{"Port"}},
		{"A.B", []string{"A.B"}},
		{"MethodSettings.*.CacheTtlInSeconds", []string{"MethodSettings.*.CacheTtlInSeconds", "MethodSettings[*].CacheTtlInSeconds"}},
		{"Steps[].Action", []string{"Steps.*.Action", "Steps[*].Action"}},
	}
	for _, tt := range tests {
		if d := cmp.Diff(keyPaths(tt.in), tt.want); d != "" {
			t.Errorf("keyPaths(%q) (-got +want)\n%s", tt.in, d)
		}
	}
}

func TestTemplate(t *testing.T) {
	got := template(substitute("arn:{partition}:iam::{accountId}:role/x", "aws"))
	if want := `"arn:aws:iam::⟨account⟩:role/x"`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	got = template([]any{sentinelRegion})
	if want := `["⟨region⟩",…]`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestWatchShapes: a hand-kept pattern row joins the watched table with
// its condition and source; a documented one only where no other row names
// its path; a pattern row without a source stops the generator.
func TestWatchShapes(t *testing.T) {
	daemon := []classify.ImportedCond{{Prop: "SchedulingStrategy", Values: []string{"DAEMON"}}}
	tab := &classify.Imported{Types: map[string]*classify.ImportedFacts{}, Values: []classify.ImportedValue{
		{Type: "AWS::X::Y", Path: "Named", Tier: "atDefault", Value: `"a"`},
	}}
	aws := &classify.Imported{Values: []classify.ImportedValue{
		{Type: "AWS::ECS::Service", Path: "DesiredCount", Tier: "atDefault", Pattern: "^[0-9]+$", When: daemon, Source: "ecs CreateService"},
		{Type: "AWS::ECS::Service", Path: "Port", Tier: "atDefault", Value: "80", Source: "not a pattern"},
	}}
	doc := &classify.Imported{Values: []classify.ImportedValue{
		{Type: "AWS::X::Y", Path: "Named", Tier: "atDefault", Pattern: "^b$", Source: "schema"},
		{Type: "AWS::X::Y", Path: "Free", Tier: "atDefault", Pattern: "^c$", Source: "schema"},
	}}
	if err := watchShapes(tab, aws, doc); err != nil {
		t.Fatal(err)
	}
	got := map[string][]classify.WatchedShape{}
	for typ, f := range tab.Types {
		got[typ] = f.WatchedShapes
	}
	want := map[string][]classify.WatchedShape{
		"AWS::ECS::Service": {{Path: "DesiredCount", Pattern: "^[0-9]+$", When: daemon, Source: "ecs CreateService"}},
		"AWS::X::Y":         {{Path: "Free", Pattern: "^c$", Source: "schema"}},
	}
	if d := cmp.Diff(got, want); d != "" {
		t.Errorf("watched shapes (-got +want)\n%s", d)
	}
	aws.Values[0].Source = ""
	if err := watchShapes(&classify.Imported{Types: map[string]*classify.ImportedFacts{}}, aws, &classify.Imported{}); err == nil {
		t.Error("a pattern row without a source was accepted")
	}
}
