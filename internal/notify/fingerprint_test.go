package notify

import (
	"encoding/json"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
)

func baseFindings() []drift.Finding {
	return []drift.Finding{
		{Tier: drift.Declared, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue", PhysicalID: "q-1", Path: "VisibilityTimeout", Actual: 60.0, Desired: 30.0},
		{Tier: drift.Undeclared, LogicalID: "Bucket", ResourceType: "AWS::S3::Bucket", PhysicalID: "b-1", Path: "Tags[env].Value", Actual: "prod"},
		{Tier: drift.Added, LogicalID: "Topic", ResourceType: "AWS::SNS::Subscription", PhysicalID: "arn:sub:1", Actual: map[string]any{"Protocol": "email"}},
		{Tier: drift.AtDefault, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue", PhysicalID: "q-1", Path: "DelaySeconds", Actual: 0.0},
	}
}

func TestFingerprint(t *testing.T) {
	base := Fingerprint(baseFindings())
	if base == "" {
		t.Fatal("fingerprint of a non-empty drift set is empty")
	}
	tests := []struct {
		name   string
		change func([]drift.Finding) []drift.Finding
		same   bool
	}{
		{"reordered", func(fs []drift.Finding) []drift.Finding { fs[0], fs[2] = fs[2], fs[0]; return fs }, true},
		{"note and reason", func(fs []drift.Finding) []drift.Finding { fs[0].Note, fs[1].Reason = "seen at 04:00", "x"; return fs }, true},
		{"construct path", func(fs []drift.Finding) []drift.Finding { fs[1].ConstructPath = "App/Bucket/Resource"; return fs }, true},
		{"physical id of a replaced resource", func(fs []drift.Finding) []drift.Finding { fs[0].PhysicalID = "q-2"; return fs }, true},
		{"number form", func(fs []drift.Finding) []drift.Finding { fs[0].Actual = json.Number("60"); return fs }, true},
		{"informational finding added", func(fs []drift.Finding) []drift.Finding {
			return append(fs, drift.Finding{Tier: drift.Skipped, LogicalID: "C", ResourceType: "Custom::X", Reason: "custom"})
		}, true},
		{"unrecorded finding added", func(fs []drift.Finding) []drift.Finding {
			return append(fs, drift.Finding{Tier: drift.Undeclared, LogicalID: "Fn", ResourceType: "AWS::Lambda::Function", Path: "Timeout", Actual: 9.0, Unrecorded: true})
		}, true},
		{"value changed", func(fs []drift.Finding) []drift.Finding { fs[0].Actual = 90.0; return fs }, false},
		{"finding resolved", func(fs []drift.Finding) []drift.Finding { return fs[1:] }, false},
		{"added child replaced", func(fs []drift.Finding) []drift.Finding { fs[2].PhysicalID = "arn:sub:2"; return fs }, false},
		{"tier changed", func(fs []drift.Finding) []drift.Finding { fs[1].Tier = drift.Declared; return fs }, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Fingerprint(tc.change(baseFindings()))
			if (got == base) != tc.same {
				t.Errorf("fingerprint %s vs base %s: same=%v, want %v", got, base, got == base, tc.same)
			}
		})
	}
}

func TestFingerprintSecretsDoNotShow(t *testing.T) {
	f := func(secret string) []drift.Finding {
		return []drift.Finding{{Tier: drift.Declared, LogicalID: "Db", ResourceType: "AWS::RDS::DBInstance", Path: "MasterUserPassword", Actual: "x", Desired: drift.Secret{Value: secret}}}
	}
	if Fingerprint(f("one")) != Fingerprint(f("two")) {
		t.Error("fingerprint depends on a secret's plaintext")
	}
}

func TestFingerprintEmpty(t *testing.T) {
	for _, fs := range [][]drift.Finding{nil, {{Tier: drift.Skipped, LogicalID: "X"}}} {
		if got := Fingerprint(fs); got != "" {
			t.Errorf("Fingerprint(%v) = %q, want empty", fs, got)
		}
	}
}

func TestDecide(t *testing.T) {
	tests := []struct {
		prev, cur string
		want      Event
	}{
		{"", "", EventNone},
		{"a", "a", EventNone},
		{"", "a", EventDetected},
		{"a", "b", EventDetected},
		{"a", "", EventResolved},
	}
	for _, tc := range tests {
		t.Run(tc.prev+"->"+tc.cur, func(t *testing.T) {
			if got := Decide(tc.prev, tc.cur); got != tc.want {
				t.Errorf("Decide(%q, %q) = %v, want %v", tc.prev, tc.cur, got, tc.want)
			}
		})
	}
}
