package baseline

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/drift"
)

// TestOldKeyValueBaseline applies a baseline recorded before tags were
// reported by value (whole {Key, Value} elements at Tags[k], and the
// element's two leaves watched) to the findings today's classifier makes:
// an unchanged tag is quiet, a changed one is "changed since record" with
// the recorded value, never the element, as Desired.
func TestOldKeyValueBaseline(t *testing.T) {
	const name = "testdata/keyvalue-old.json"
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	tag := func(k, v string) any { return map[string]any{"Key": k, "Value": v} }
	queue := drift.ResourceRef{LogicalID: "Q", Type: qType, PhysicalID: "p-Q"}
	topic := drift.ResourceRef{LogicalID: "T", Type: "AWS::SNS::Topic", PhysicalID: "p-T"}
	qDecl := map[string]any{"Tags": []any{tag("app", "orders")}}
	tDecl := map[string]any{"Tags": []any{tag("app", "orders")}} // declared since record
	// env is a tag this test folds itself, as a per-type default would:
	// the classifier reports it at the same path and value.
	envFolded := func(fs []drift.Finding) []drift.Finding {
		for i, f := range fs {
			if f.Path == "Tags[env]" {
				fs[i].Tier = drift.AtDefault
			}
		}
		return fs
	}
	tests := []struct {
		name         string
		qTags, tTags []any
		want         []drift.Finding
	}{
		{
			name:  "unchanged tags are quiet",
			qTags: []any{tag("app", "orders"), tag("team", "payments"), tag("env", "prod")},
			tTags: []any{tag("app", "orders"), tag("owner", "ops")},
		},
		{
			name:  "changed tags are changed since record, by value",
			qTags: []any{tag("app", "orders"), tag("team", "billing"), tag("env", "dev")},
			tTags: []any{tag("app", "orders"), tag("owner", "dev")},
			want: []drift.Finding{
				{Tier: drift.Undeclared, Path: "Tags[env]", Desired: "prod", Actual: "dev", Nested: true, FreeFormKey: true, Note: NoteChanged},
				{Tier: drift.Undeclared, Path: "Tags[team]", Desired: "payments", Actual: "billing", Nested: true, FreeFormKey: true, Note: NoteChanged},
				{Tier: drift.Undeclared, Path: "Tags[owner]", Desired: "ops", Actual: "dev", Nested: true, FreeFormKey: true, Note: NoteChanged},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Decode(name, data, stackS)
			if err != nil {
				t.Fatal(err)
			}
			var findings []drift.Finding
			findings = append(findings, envFolded(classify.Resource(classify.Subject{Ref: queue, Declared: qDecl},
				map[string]any{"Tags": tt.qTags}, nil, classify.Options{}))...)
			findings = append(findings, classify.Resource(classify.Subject{Ref: topic, Declared: tDecl},
				map[string]any{"Tags": tt.tTags}, nil, classify.Options{})...)
			res := Apply(b, Input{Findings: findings, Resources: []Resource{
				{LogicalID: "Q", Type: qType, PhysicalID: "p-Q", Declared: qDecl},
				{LogicalID: "T", Type: "AWS::SNS::Topic", PhysicalID: "p-T", Declared: tDecl},
			}}, Options{})
			var got []drift.Finding
			for _, f := range res.Findings {
				if f.Tier == drift.AtDefault {
					continue
				}
				got = append(got, drift.Finding{Tier: f.Tier, Path: f.Path, Desired: f.Desired, Actual: f.Actual,
					Nested: f.Nested, FreeFormKey: f.FreeFormKey, Note: f.Note, Unrecorded: f.Unrecorded})
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("findings (-got +want):\n%s", diff)
			}
			warned := false
			for _, n := range res.Notes {
				warned = warned || strings.Contains(n, name) && strings.Contains(n, "2 tag values")
			}
			if !warned {
				t.Errorf("notes %q do not say the file's two old-form tag values were read as values", res.Notes)
			}
		})
	}
}

// TestRecordRewritesKeyValues: decoding an old-form baseline and encoding
// it again writes the values, never the elements.
func TestRecordRewritesKeyValues(t *testing.T) {
	const name = "testdata/keyvalue-old.json"
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Decode(name, data, stackS)
	if err != nil {
		t.Fatal(err)
	}
	out, err := Encode(b)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Decode("again", out, stackS)
	if err != nil {
		t.Fatal(err)
	}
	if len(again.Warnings) != 0 {
		t.Errorf("re-encoded baseline still warns: %q", again.Warnings)
	}
	got := map[string]any{}
	for _, e := range append(again.Entries, again.Watched...) {
		got[e.LogicalID+" "+e.Path] = e.Value
	}
	want := map[string]any{
		"Q Tags[team]": "payments",
		"Q Tags[env]":  "prod",
		"T Tags":       []any{map[string]any{"Key": "app", "Value": "orders"}, map[string]any{"Key": "owner", "Value": "ops"}},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("re-encoded entries (-got +want):\n%s", diff)
	}
}
