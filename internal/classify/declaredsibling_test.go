package classify

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
)

func TestDeclaredSiblingKnownValue(t *testing.T) {
	table, err := NewKnownTable([]KnownValue{
		{Type: "AWS::ElasticLoadBalancingV2::TargetGroup", Path: "HealthCheckProtocol", Tier: "atDefault", Value: DeclaredSibling("Protocol")},
	})
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Known: table}
	tests := []struct {
		name     string
		declared map[string]any
		live     map[string]any
		want     []string
	}{
		{"equal to the declared sibling folds", map[string]any{"Protocol": "HTTPS"},
			map[string]any{"Protocol": "HTTPS", "HealthCheckProtocol": "HTTPS"}, []string{`atDefault HealthCheckProtocol "HTTPS"`}},
		{"moved away from the declared sibling surfaces", map[string]any{"Protocol": "HTTPS"},
			map[string]any{"Protocol": "HTTPS", "HealthCheckProtocol": "TCP"}, []string{`undeclared HealthCheckProtocol "TCP"`}},
		{"without the sibling declared it surfaces", map[string]any{},
			map[string]any{"Protocol": "HTTPS", "HealthCheckProtocol": "HTTPS"}, []string{`undeclared HealthCheckProtocol "HTTPS"`, `undeclared Protocol "HTTPS"`}},
		{"an unresolved sibling never folds", map[string]any{"Protocol": drift.Unknown{}},
			map[string]any{"Protocol": "HTTPS", "HealthCheckProtocol": "HTTPS"}, []string{`undeclared HealthCheckProtocol "HTTPS"`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Subject{Ref: drift.ResourceRef{Type: "AWS::ElasticLoadBalancingV2::TargetGroup", PhysicalID: "tg"}, Declared: tt.declared}
			got := brief(Resource(s, tt.live, nil, opts))
			got = withoutTier(got, "unresolved ")
			if d := cmp.Diff(got, tt.want); d != "" {
				t.Errorf("(-got +want)\n%s", d)
			}
		})
	}
	if k, ok := DeclaredSiblingKey(DeclaredSibling("Protocol")); !ok || k != "Protocol" {
		t.Errorf("DeclaredSiblingKey round trip = %q, %v", k, ok)
	}
	if _, ok := DeclaredSiblingKey("⟨pid⟩"); ok {
		t.Error("a physical-id template is not a declared sibling")
	}
}

func withoutTier(fs []string, prefix string) []string {
	out := fs[:0:0]
	for _, f := range fs {
		if len(f) < len(prefix) || f[:len(prefix)] != prefix {
			out = append(out, f)
		}
	}
	return out
}
