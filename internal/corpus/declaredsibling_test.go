package corpus

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/drift"
)

func TestDeclaredSiblingRows(t *testing.T) {
	const tg = "AWS::ElasticLoadBalancingV2::TargetGroup"
	mk := func(proto, hc string, tier drift.Tier) *Case {
		c := &Case{
			Resource: Resource{ResourceType: tg, Declared: map[string]any{"Protocol": proto}},
			LiveRaw:  map[string]any{"Protocol": proto, "HealthCheckProtocol": hc},
		}
		if tier != drift.TierUnknown {
			c.Expected = []drift.Finding{{Tier: tier, Path: "HealthCheckProtocol", Actual: hc}}
		}
		return c
	}
	row := classify.KnownValue{Type: tg, Path: "HealthCheckProtocol", Tier: "atDefault", Value: classify.DeclaredSibling("Protocol"), Cases: 2}
	tests := []struct {
		name  string
		cases []*Case
		want  []classify.KnownValue
	}{
		{"two values folded equal to the sibling make a row",
			[]*Case{mk("HTTP", "HTTP", drift.AtDefault), mk("TCP", "TCP", drift.AtDefault)}, []classify.KnownValue{row}},
		{"one value alone is no evidence of the relation",
			[]*Case{mk("HTTP", "HTTP", drift.AtDefault), mk("HTTP", "HTTP", drift.AtDefault)}, nil},
		{"one unfolded equal value rejects it",
			[]*Case{mk("HTTP", "HTTP", drift.AtDefault), mk("TCP", "TCP", drift.AtDefault), mk("TLS", "TLS", drift.Undeclared)}, nil},
		{"an unlabelled equal value rejects it",
			[]*Case{mk("HTTP", "HTTP", drift.AtDefault), mk("TCP", "TCP", drift.AtDefault), mk("TLS", "TLS", drift.TierUnknown)}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if d := cmp.Diff(declaredSiblingRows(tt.cases), tt.want); d != "" {
				t.Errorf("(-got +want)\n%s", d)
			}
		})
	}
}
