package service

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/scan"
)

func TestWithholdLives(t *testing.T) {
	const token, password = "tok-PLANTED-31337-abc", "pw-PLANTED-8675309"
	secret := drift.Unknown{Reason: "secret-bearing dynamic reference is resolved only at deploy time", Secret: true}
	rs := []scan.Resource{
		{LogicalID: "Fn", Type: "AWS::Lambda::Function", Declared: map[string]any{
			"Environment": map[string]any{"Variables": map[string]any{"TOKEN": secret, "LEVEL": "info"}}}},
		{LogicalID: "Db", Type: "AWS::RDS::DBInstance", Declared: map[string]any{"MasterUserPassword": secret}},
		{LogicalID: "Queue", Type: "AWS::SQS::Queue", Declared: map[string]any{"VisibilityTimeout": 30.0}},
		{LogicalID: "Gone", Type: "AWS::SQS::Queue", Declared: map[string]any{}},
	}
	lives := liveState{
		"Fn": {Status: live.Found, Model: map[string]any{
			"Environment": map[string]any{"Variables": map[string]any{"TOKEN": token, "LEVEL": "debug"}}}},
		"Db":    {Status: live.Found, Model: map[string]any{"MasterUserPassword": password, "Engine": "postgres"}},
		"Queue": {Status: live.Found, Model: map[string]any{"VisibilityTimeout": 30.0, "Tags": []any{map[string]any{"Key": "copy", "Value": token}}}},
		"Gone":  {Status: live.Skipped, Reason: "read failed: invalid value " + password},
	}
	if n := withholdLives(rs, lives); n != 4 {
		t.Errorf("withheld %d values, want 4", n)
	}
	b, err := json.Marshal(lives)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{token, password} {
		if strings.Contains(string(b), p) {
			t.Errorf("plaintext %q stored: %s", p, b)
		}
	}
	var back liveState
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	readBack(back)
	withheld := drift.Unknown{Reason: "withheld from storage", Secret: true}
	want := map[string]map[string]any{
		"Fn":    {"Environment": map[string]any{"Variables": map[string]any{"TOKEN": withheld, "LEVEL": "debug"}}},
		"Db":    {"MasterUserPassword": withheld, "Engine": "postgres"},
		"Queue": {"VisibilityTimeout": 30.0, "Tags": []any{map[string]any{"Key": "copy", "Value": withheld}}},
	}
	for id, m := range want {
		if diff := cmp.Diff(back[id].Model, m); diff != "" {
			t.Errorf("%s read back (-got +want):\n%s", id, diff)
		}
	}
	if got := back["Gone"].Reason; got != "read failed: invalid value "+drift.Redacted {
		t.Errorf("reason %q", got)
	}
}
