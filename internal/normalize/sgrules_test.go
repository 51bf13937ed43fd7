package normalize

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestSGRule(t *testing.T) {
	tests := []struct {
		in, want map[string]any
	}{
		{map[string]any{"IpProtocol": "6", "FromPort": 443.0, "ToPort": 443.0}, map[string]any{"IpProtocol": "tcp", "FromPort": 443.0, "ToPort": 443.0}},
		{map[string]any{"IpProtocol": "TCP", "FromPort": 22.0, "ToPort": 22.0}, map[string]any{"IpProtocol": "tcp", "FromPort": 22.0, "ToPort": 22.0}},
		{map[string]any{"IpProtocol": "-1", "FromPort": 0.0, "ToPort": 65535.0, "CidrIp": "10.0.0.0/8"}, map[string]any{"IpProtocol": "-1", "FromPort": -1.0, "ToPort": -1.0, "CidrIp": "10.0.0.0/8"}},
		{map[string]any{"IpProtocol": "all"}, map[string]any{"IpProtocol": "-1", "FromPort": -1.0, "ToPort": -1.0}},
		{map[string]any{"IpProtocol": 17.0, "FromPort": 53.0, "ToPort": 53.0}, map[string]any{"IpProtocol": "udp", "FromPort": 53.0, "ToPort": 53.0}},
		{map[string]any{"IpProtocol": "50"}, map[string]any{"IpProtocol": "50"}},
	}
	for _, tt := range tests {
		in := Clone(tt.in).(map[string]any)
		got, _ := SGRule(tt.in)
		if d := cmp.Diff(got, tt.want); d != "" {
			t.Errorf("SGRule(%v) (-got +want)\n%s", in, d)
		}
		if d := cmp.Diff(tt.in, in); d != "" {
			t.Errorf("SGRule modified its input:\n%s", d)
		}
	}
	same := map[string]any{"IpProtocol": "tcp", "FromPort": 1.0, "ToPort": 2.0}
	if _, changed := SGRule(same); changed {
		t.Errorf("a rule already in EC2's form changed")
	}
}
