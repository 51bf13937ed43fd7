package scan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
)

func TestResourceJSONKeepsUnknownAndWithholdsSecrets(t *testing.T) {
	r := Resource{
		LogicalID: "Fn", Type: "AWS::Lambda::Function", PhysicalID: "fn",
		Declared: map[string]any{
			"Role":    drift.Unknown{Reason: "Fn::GetAtt Role.Arn has no live value"},
			"Env":     map[string]any{"Variables": map[string]any{"TOKEN": drift.Secret{Value: "hunter2"}, "MODE": "prod"}},
			"Layers":  []any{"arn:a", drift.Unknown{Reason: "{{resolve:secretsmanager}}", Secret: true}},
			"Timeout": 30.0,
		},
		GetAttTargets: []string{"Role"},
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "hunter2") || strings.Contains(string(b), "secretsmanager") {
		t.Fatalf("secret written in plaintext: %s", b)
	}
	var got Resource
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	want := r
	want.Declared = map[string]any{
		"Role":    drift.Unknown{Reason: "Fn::GetAtt Role.Arn has no live value"},
		"Env":     map[string]any{"Variables": map[string]any{"TOKEN": drift.Unknown{Reason: "secret value withheld from storage", Secret: true}, "MODE": "prod"}},
		"Layers":  []any{"arn:a", drift.Unknown{Secret: true}},
		"Timeout": 30.0,
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("round trip (-got +want):\n%s", diff)
	}
}
