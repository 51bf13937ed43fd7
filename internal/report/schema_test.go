package report_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/diff"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/report"
	"github.com/realdrift/realdrift/internal/report/reporttest"
	"github.com/realdrift/realdrift/internal/revert"
	"github.com/realdrift/realdrift/internal/secdiff"
)

// TestReportSchema: report.schema.json is valid JSON Schema 2020-12,
// accepts the committed example of the check report and rejects what
// the contract forbids: a report without its version or kind, a finding
// without its stable id, a field it does not list, an unknown tier.
func TestReportSchema(t *testing.T) {
	if _, err := reporttest.Schema(); err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/report.json")
	if err != nil {
		t.Fatal(err)
	}
	reporttest.Validate(t, "testdata/report.json", golden)

	good := `{"schemaVersion":1,"report":"check","toolVersion":"v1","verdict":"drift","drifted":1,"potentialDrift":0,
	"coverageComplete":true,"notRead":0,"interrupted":false,"stacks":[{"stack":"S","account":"1","region":"r","verdict":"drift",
	"drifted":1,"potentialDrift":0,"coverageComplete":true,"resources":1,"notRead":0,"counts":{"declared":1},
	"findings":[{"id":"realdrift/0123456789abcdef0123456789abcdef","tier":"declared","logicalId":"Q","resourceType":"AWS::SQS::Queue","physicalId":"q","path":"DelaySeconds","actual":9,"desired":5}]}]}`
	revertSummary := `"summary":{"dryRun":true,"planned":0,"reverted":0,"stillDrifted":0,"failed":0,"notChosen":0,"notRevertable":{},"notRead":0,"stackErrors":0}`
	for _, tc := range []struct {
		name, doc string
		valid     bool
	}{
		{"check", good, true},
		{"no schemaVersion", strings.Replace(good, `"schemaVersion":1,`, "", 1), false},
		{"schemaVersion 2", strings.Replace(good, `"schemaVersion":1,`, `"schemaVersion":2,`, 1), false},
		{"no toolVersion", strings.Replace(good, `"toolVersion":"v1",`, "", 1), false},
		{"no report kind", strings.Replace(good, `"report":"check",`, "", 1), false},
		{"no finding id", strings.Replace(good, `"id":"realdrift/0123456789abcdef0123456789abcdef",`, "", 1), false},
		{"unknown tier", strings.Replace(good, `"tier":"declared"`, `"tier":"drifted"`, 1), false},
		{"unlisted field", strings.Replace(good, `"path":"DelaySeconds"`, `"path":"DelaySeconds","severity":"high"`, 1), false},
		{"diff", `{"schemaVersion":1,"report":"diff","toolVersion":"v1","stacks":[]}`, true},
		{"diff as check", `{"schemaVersion":1,"report":"check","toolVersion":"v1","stacks":[]}`, false},
		{"revert", `{"schemaVersion":1,"report":"revert","toolVersion":"v1","stacks":[],` + revertSummary + `}`, true},
		{"revert without summary", `{"schemaVersion":1,"report":"revert","toolVersion":"v1","stacks":[]}`, false},
		{"a bare array (diff before schemaVersion 1 had a header)", `[]`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := reporttest.Check([]byte(tc.doc)); (err == nil) != tc.valid {
				t.Errorf("validate = %v, want valid %v", err, tc.valid)
			}
		})
	}
}

// TestReportJSONFindingIDs: every finding of check's JSON carries the id
// SARIF and ASFF give it (report.FindingID).
func TestReportJSONFindingIDs(t *testing.T) {
	ref := drift.StackRef{Account: "111111111111", Region: "eu-west-1", Name: "Orders"}
	findings := []drift.Finding{
		{Tier: drift.Declared, LogicalID: "Q", ResourceType: "AWS::SQS::Queue", PhysicalID: "q", Path: "DelaySeconds", Actual: 9, Desired: 5},
		{Tier: drift.Deleted, LogicalID: "T", ResourceType: "AWS::SNS::Topic", PhysicalID: "t"},
	}
	var buf bytes.Buffer
	if err := report.JSON(&buf, []report.Stack{{Ref: ref, Findings: findings, Resources: 2}}, report.JSONOptions{ToolVersion: "v0.9.0"}); err != nil {
		t.Fatal(err)
	}
	reporttest.Validate(t, "check report", buf.Bytes())
	var doc struct {
		ToolVersion string `json:"toolVersion"`
		Stacks      []struct {
			Findings []struct {
				ID        string `json:"id"`
				LogicalID string `json:"logicalId"`
			} `json:"findings"`
		} `json:"stacks"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, f := range doc.Stacks[0].Findings {
		got[f.LogicalID] = f.ID
	}
	want := map[string]string{}
	for _, f := range findings {
		want[f.LogicalID] = report.FindingID(ref, f)
	}
	if diff := cmp.Diff(got, want); diff != "" || doc.ToolVersion != "v0.9.0" {
		t.Errorf("toolVersion %q, finding ids (-got +want):\n%s", doc.ToolVersion, diff)
	}
}

// TestFindingIDTier: two findings of one resource and path that differ
// only in tier have different ids, in the JSON report, SARIF's
// fingerprints and ASFF's Id alike; the same finding keeps its id.
func TestFindingIDTier(t *testing.T) {
	ref := drift.StackRef{Account: "111111111111", Region: "eu-west-1", Name: "Orders"}
	base := drift.Finding{LogicalID: "T", ResourceType: "AWS::SNS::Topic", PhysicalID: "t"}
	tiers := []drift.Tier{drift.Deleted, drift.Skipped, drift.Ignored, drift.NothingToRead}
	ids := map[string]drift.Tier{}
	var findings []drift.Finding
	for _, tier := range tiers {
		f := base
		f.Tier = tier
		findings = append(findings, f)
		id := report.FindingID(ref, f)
		if other, dup := ids[id]; dup {
			t.Errorf("%s and %s share id %s", other, tier, id)
		}
		ids[id] = tier
		if again := report.FindingID(ref, f); again != id {
			t.Errorf("%s: id %s, then %s", tier, id, again)
		}
	}
	// Deleted and added at the resource itself: two drift findings of one
	// path, in every form.
	added := base
	added.Tier = drift.Added
	findings = append(findings, added)
	ids[report.FindingID(ref, added)] = drift.Added
	stacks := []report.Stack{{Ref: ref, Findings: findings, Resources: 1}}
	var js, sarif, asff bytes.Buffer
	if err := report.JSON(&js, stacks, report.JSONOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := report.SARIF(&sarif, stacks, report.SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := report.ASFF(&asff, stacks, time.Time{}); err != nil {
		t.Fatal(err)
	}
	for id, tier := range ids {
		if !strings.Contains(js.String(), id) {
			t.Errorf("the JSON report lacks the %s finding's id %s", tier, id)
		}
		if tier.IsDrift() && (!strings.Contains(sarif.String(), id) || !strings.Contains(asff.String(), id)) {
			t.Errorf("SARIF or ASFF lacks the %s finding's id %s", tier, id)
		}
	}
}

// TestReportSchemaEnums: each closed set the schema lists is the set the
// code writes, read from the types' own JSON, so a new tier, verdict,
// diff action or revert reason cannot be written without the schema
// naming it.
func TestReportSchemaEnums(t *testing.T) {
	p, err := reporttest.Path()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Defs       map[string]json.RawMessage `json:"$defs"`
		Properties struct {
			Report struct{ Enum []string } `json:"report"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, k := range report.Kinds() {
		kinds = append(kinds, string(k))
	}
	if d := cmp.Diff(schema.Properties.Report.Enum, kinds); d != "" {
		t.Errorf("schema's report enum differs from report.Kinds (-schema +code):\n%s", d)
	}
	enum := func(path ...string) []string {
		raw := schema.Defs[path[0]]
		for _, key := range path[1:] {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatalf("%v: %v", path, err)
			}
			raw = m[key]
		}
		var e struct{ Enum []string }
		if err := json.Unmarshal(raw, &e); err != nil || len(e.Enum) == 0 {
			t.Fatalf("schema $defs %v: no enum (%v)", path, err)
		}
		return e.Enum
	}
	for _, tc := range []struct {
		what string
		got  []string
		want []string
	}{
		{"tier", enum("tier"), written(func(i int) any { return drift.Tier(i) })},
		{"verdict", enum("verdict"), written(func(i int) any { return drift.Outcome(i) })},
		{"replacement", enum("replacement"), written(func(i int) any { return diff.Replacement(i) })},
		{"resource action", enum("resourceChange", "properties", "action"), written(func(i int) any { return diff.Action(i) })},
		{"propagated", enum("propertyChange", "properties", "propagated"), written(func(i int) any { return diff.Propagation(i) })},
		{"output changeType", enum("outputChange", "properties", "changeType"), written(func(i int) any { return diff.OutputAction(i) })},
		{"security op", enum("securityOp"), written(func(i int) any { return secdiff.Op(i) })},
		{"plan item kind", enum("planItem", "properties", "kind"), written(func(i int) any { return revert.Kind(i) })},
		{"not revertable reason", enum("unrevertableReason"), written(func(i int) any { return revert.Reason(i) })},
		{"outcome status", enum("revertStack", "properties", "outcomes", "items", "properties", "status"), written(func(i int) any { return revert.Status(i) })},
	} {
		if d := cmp.Diff(tc.got, tc.want); d != "" {
			t.Errorf("schema's %s enum differs from what the code writes (-schema +code):\n%s", tc.what, d)
		}
	}
}

// written lists the JSON strings values of a uint8-backed closed set
// marshal to, in order, leaving out the values that do not marshal, the
// empty string (omitted from the report) and the out-of-range names
// (unknown, UNKNOWN, Outcome(n), the zero value's "unknown").
func written(value func(i int) any) []string {
	var out []string
	seen := map[string]bool{}
	for i := range 256 {
		v := value(i)
		var s string
		if m, ok := v.(json.Marshaler); ok {
			b, err := m.MarshalJSON()
			if err != nil || json.Unmarshal(b, &s) != nil {
				continue
			}
		} else if st, ok := v.(fmt.Stringer); ok {
			s = st.String()
		}
		if s == "" || strings.EqualFold(s, "unknown") || strings.Contains(s, "(") || seen[s] {
			continue
		}
		seen[s] = true
		out = append(out, s)
	}
	return out
}
