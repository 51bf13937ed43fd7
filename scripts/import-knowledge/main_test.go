package main

import (
	"testing"

	"github.com/google/go-cmp/cmp"
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
