package report

import (
	"strings"
	"testing"
)

func TestChangeNamesWhatDiffers(t *testing.T) {
	long := strings.Repeat("x", 90)
	stmt := func(sid string) any { return map[string]any{"Sid": sid, "Resource": long} }
	tests := []struct {
		name            string
		desired, actual any
		want            string
	}{
		{"short values in full", 1.0, 2.0, "template 1 → live 2"},
		{"array element added", []any{stmt("A")}, []any{stmt("A"), stmt("B")},
			`live differs from template: + {"Resource":"` + long[:maxValue-len(`{"Resource":"`)-1] + "…"},
		{"array element removed", []any{stmt("A"), stmt("B")}, []any{stmt("B")}, `live differs from template: − {"Resource":`},
		{"reordered only", []any{stmt("A"), stmt("B")}, []any{stmt("B"), stmt("A")}, "same elements in another order"},
		{"map key changed", map[string]any{"K": long, "N": 1.0}, map[string]any{"K": long, "N": 2.0}, "live differs from template: N: 1 → 2"},
		{"map key added", map[string]any{"K": long}, map[string]any{"K": long, "Z": true}, "live differs from template: + Z: true"},
		{"shape change falls back", []any{long}, map[string]any{"K": long}, "template [\""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := change("template", tt.desired, tt.actual, Options{})
			if !strings.Contains(got, tt.want) {
				t.Errorf("change() = %q, want it to contain %q", got, tt.want)
			}
		})
	}
	if got := change("template", []any{stmt("A")}, []any{stmt("B")}, Options{Verbose: true}); !strings.HasPrefix(got, "template [") {
		t.Errorf("verbose change() = %q, want the full values", got)
	}
}
