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
			return append(fs, drift.Finding{Tier: drift.NothingToRead, LogicalID: "C", ResourceType: "Custom::X", Reason: "custom resource"},
				drift.Finding{Tier: drift.AtDefault, LogicalID: "Q", ResourceType: "AWS::SQS::Queue", Path: "DelaySeconds", Actual: 0.0})
		}, true},
		{"a resource not read", func(fs []drift.Finding) []drift.Finding {
			return append(fs, drift.Finding{Tier: drift.Skipped, LogicalID: "Fn", ResourceType: "AWS::Lambda::Function", PhysicalID: "fn", Reason: "AccessDenied"})
		}, false},
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

// A resource not read is part of the fingerprint by resource, not by
// reason: a reworded error does not alert again.
func TestFingerprintUnreadByResource(t *testing.T) {
	unread := func(reason string) []drift.Finding {
		return []drift.Finding{{Tier: drift.Skipped, LogicalID: "Fn", ResourceType: "AWS::Lambda::Function", PhysicalID: "fn", Reason: reason}}
	}
	a, b := Fingerprint(unread("AccessDenied: request 1")), Fingerprint(unread("AccessDenied: request 2"))
	if a == "" || a != b {
		t.Errorf("fingerprints %q and %q: want one non-empty fingerprint for the same unread resource", a, b)
	}
}

// A clean stack that becomes INCOMPLETE alerts (EventIncomplete), as a
// drift change does; drift resolving while something is unread is
// EventIncomplete too, never Resolved; everything read and clean again is
// Resolved.
func TestSummarizeCoverageTransitions(t *testing.T) {
	denied := []drift.Finding{{Tier: drift.Skipped, LogicalID: "Fn", ResourceType: "AWS::Lambda::Function", PhysicalID: "fn", Reason: "AccessDenied"}}
	tests := []struct {
		name     string
		previous string
		findings []drift.Finding
		want     Event
	}{
		{"clean to incomplete", "", denied, EventIncomplete},
		{"incomplete unchanged", Fingerprint(denied), denied, EventNone},
		{"drift resolved, something unread", Fingerprint(baseFindings()), denied, EventIncomplete},
		{"incomplete to clean", Fingerprint(denied), nil, EventResolved},
		{"incomplete to drift", Fingerprint(denied), baseFindings(), EventDetected},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Summarize(shop, "r", at, tc.findings, tc.previous).Event; got != tc.want {
				t.Errorf("event %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFingerprintEmpty(t *testing.T) {
	for _, fs := range [][]drift.Finding{nil, {{Tier: drift.NothingToRead, LogicalID: "X"}, {Tier: drift.AtDefault, LogicalID: "Y"}}} {
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
