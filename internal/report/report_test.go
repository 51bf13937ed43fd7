package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/report/reporttest"
)

var update = flag.Bool("update", false, "rewrite golden files")

var (
	prod = drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "Prod"}
	dev  = drift.StackRef{Account: "222222222222", Region: "eu-west-1", Name: "Dev"}
)

func fnd(tier drift.Tier, lid, typ, path string, actual, desired any) drift.Finding {
	return drift.Finding{Tier: tier, LogicalID: lid, ResourceType: typ, PhysicalID: "phys-" + lid, Path: path, Actual: actual, Desired: desired}
}

func with(f drift.Finding, mod func(*drift.Finding)) drift.Finding { mod(&f); return f }

// mixed has every section and several informational tiers.
func mixed() []drift.Finding {
	return []drift.Finding{
		fnd(drift.Declared, "Fn9A1B", "AWS::Lambda::Function", "MemorySize", 256.0, 128.0),
		with(fnd(drift.Declared, "ApiRoleC0FFEE", "AWS::IAM::Role", "Policies.0.PolicyDocument", map[string]any{"Version": "2012-10-17"}, nil),
			func(f *drift.Finding) {
				f.ConstructPath = "Prod/ApiRole/Resource"
				f.Note = "declared but not returned by live read"
			}),
		fnd(drift.Deleted, "Queue4F2A", "AWS::SQS::Queue", "", nil, nil),
		with(fnd(drift.Undeclared, "Fn9A1B", "AWS::Lambda::Function", "ReservedConcurrentExecutions", 5.0, nil),
			func(f *drift.Finding) { f.Note = "appeared since record" }),
		with(fnd(drift.Undeclared, "Fn9A1B", "AWS::Lambda::Function", "Environment.Variables.MODE", "debug", "prod"),
			func(f *drift.Finding) { f.Note = "changed since record"; f.Nested = true }),
		with(fnd(drift.Undeclared, "Bucket83908E77", "AWS::S3::Bucket", "Tags", []any{map[string]any{"Key": "owner", "Value": strings.Repeat("x", 120)}}, nil),
			func(f *drift.Finding) { f.Unrecorded = true }),
		with(fnd(drift.Added, "AlertsTopic/Subscription", "AWS::SNS::Subscription", "", map[string]any{"Protocol": "sqs"}, nil),
			func(f *drift.Finding) { f.Unrecorded = true }),
		with(fnd(drift.Undeclared, "Secretive", "AWS::Lambda::Function", "Environment.Variables.TOKEN", drift.Secret{Value: "hunter2"}, nil),
			func(f *drift.Finding) { f.Unrecorded = true }),
		fnd(drift.AtDefault, "Queue4F2A", "AWS::SQS::Queue", "DelaySeconds", 0.0, nil),
		fnd(drift.AtDefault, "Queue4F2A", "AWS::SQS::Queue", "MaximumMessageSize", 262144.0, nil),
		with(fnd(drift.Skipped, "Custom1", "Custom::Thing", "", nil, nil), func(f *drift.Finding) { f.Reason = "custom resource" }),
		with(fnd(drift.Skipped, "Custom2", "Custom::Thing", "", nil, nil), func(f *drift.Finding) { f.Reason = "custom resource" }),
		with(fnd(drift.Skipped, "Perm1", "AWS::Lambda::Permission", "", nil, nil), func(f *drift.Finding) { f.Reason = "override target unresolved" }),
		with(fnd(drift.Ignored, "Svc", "AWS::ECS::Service", "DesiredCount", 4.0, 2.0), func(f *drift.Finding) { f.Reason = "ignore rule *.DesiredCount" }),
		with(fnd(drift.ReadGap, "ApiRoleC0FFEE", "AWS::IAM::Role", "AssumeRolePolicyDocument", nil, nil),
			func(f *drift.Finding) {
				f.ConstructPath = "Prod/ApiRole/Resource"
				f.Note = "write-only — cannot be read back"
				f.WriteOnly = true
			}),
	}
}

func cases() map[string][]Stack {
	return map[string][]Stack{
		"clean":        {{Ref: prod}},
		"clean-info":   {{Ref: prod, Findings: []drift.Finding{fnd(drift.AtDefault, "Q", "AWS::SQS::Queue", "DelaySeconds", 0.0, nil), fnd(drift.AtDefault, "Q", "AWS::SQS::Queue", "VisibilityTimeout", 30.0, nil)}}},
		"potential":    {{Ref: prod, Findings: []drift.Finding{with(fnd(drift.Undeclared, "Q", "AWS::SQS::Queue", "Policy", "p", nil), func(f *drift.Finding) { f.Unrecorded = true })}}},
		"declared":     {{Ref: prod, Findings: []drift.Finding{fnd(drift.Declared, "Fn", "AWS::Lambda::Function", "Timeout", 30.0, 3.0)}}},
		"mixed":        {{Ref: prod, Findings: mixed(), Resources: 11}},
		"multi-error":  {{Ref: prod, Findings: mixed()[:1]}, {Ref: dev, Err: errors.New("GetTemplate: AccessDenied\n(check the read role)")}},
		"skipped-only": {{Ref: dev, Resources: 4, Findings: []drift.Finding{with(fnd(drift.Skipped, "C", "Custom::X", "", nil, nil), func(f *drift.Finding) { f.Reason = "custom resource" })}}},
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if diff := cmp.Diff(string(got), string(want)); diff != "" {
		t.Errorf("%s (-got +want):\n%s", path, diff)
	}
}

func TestTextGolden(t *testing.T) {
	for name, stacks := range cases() {
		for _, v := range []struct {
			suffix string
			opt    Options
		}{{"", Options{}}, {".verbose", Options{Verbose: true}}, {".color", Options{Color: true}}} {
			if v.suffix != "" && name != "mixed" {
				continue
			}
			t.Run(name+v.suffix, func(t *testing.T) {
				var buf bytes.Buffer
				if err := Text(&buf, stacks, v.opt); err != nil {
					t.Fatal(err)
				}
				golden(t, name+v.suffix+".txt", buf.Bytes())
				if strings.Contains(buf.String(), "hunter2") {
					t.Error("secret in plaintext")
				}
				if !v.opt.Color && strings.Contains(buf.String(), "\x1b") {
					t.Error("colour without Color")
				}
			})
		}
	}
}

func TestJSONGolden(t *testing.T) {
	stacks := []Stack{{Ref: prod, Findings: mixed()}, {Ref: dev, Err: errors.New("GetTemplate: AccessDenied")}, {Ref: drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "Quiet"}}}
	var buf bytes.Buffer
	if err := JSON(&buf, stacks, JSONOptions{ToolVersion: "v1.2.3"}); err != nil {
		t.Fatal(err)
	}
	golden(t, "report.json", buf.Bytes())
	reporttest.Validate(t, "report.json", buf.Bytes())
	if strings.Contains(buf.String(), "hunter2") {
		t.Error("secret in plaintext")
	}
	var doc map[string]any
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
}

func TestVerdictAndCounts(t *testing.T) {
	sum := Summarize(Stack{Ref: prod, Findings: mixed()})
	got := map[string]any{"verdict": sum.Verdict.String(), "drifted": sum.Drifted, "potential": sum.Potential, "unread": sum.Unread}
	want := map[string]any{"verdict": "drift", "drifted": 5, "potential": 3, "unread": 3}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("(-got +want):\n%s", diff)
	}
}

func TestExitCode(t *testing.T) {
	clean := Stack{Ref: prod}
	driftS := Stack{Ref: prod, Findings: []drift.Finding{fnd(drift.Declared, "A", "T", "P", 1.0, 2.0)}}
	potentialS := Stack{Ref: prod, Findings: []drift.Finding{with(fnd(drift.Undeclared, "A", "T", "P", 1.0, nil), func(f *drift.Finding) { f.Unrecorded = true })}}
	ignoredS := Stack{Ref: prod, Findings: []drift.Finding{fnd(drift.Ignored, "A", "T", "P", 1.0, 2.0)}}
	skipped := Stack{Ref: prod, Findings: []drift.Finding{fnd(drift.Skipped, "A", "T", "", nil, nil)}}
	failed := Stack{Ref: dev, Err: errors.New("boom")}
	tests := []struct {
		name         string
		stacks       []Stack
		fail, strict bool
		want         int
	}{
		{"clean", []Stack{clean}, true, true, ExitOK},
		{"drift is report-only without --fail", []Stack{driftS}, false, false, ExitOK},
		{"drift with --fail", []Stack{clean, driftS}, true, false, ExitDrift},
		{"potential drift never fails", []Stack{potentialS}, true, true, ExitOK},
		{"ignored never fails", []Stack{ignoredS}, true, true, ExitOK},
		{"skipped is incomplete, not clean, with --fail", []Stack{skipped}, true, false, ExitIncomplete},
		{"skipped report-only", []Stack{skipped}, false, false, ExitOK},
		{"skipped beside drift is drift", []Stack{skipped, driftS}, true, false, ExitDrift},
		{"--strict wins over incomplete", []Stack{skipped}, true, true, ExitDrift},
		{"skipped with --strict", []Stack{skipped}, false, true, ExitDrift},
		{"an error wins", []Stack{driftS, failed}, true, true, ExitError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ExitCode(tt.stacks, tt.fail, tt.strict); got != tt.want {
				t.Errorf("ExitCode = %d, want %d", got, tt.want)
			}
		})
	}
	notes := []struct {
		name         string
		stacks       []Stack
		fail, strict bool
		want         bool
	}{
		{"drift without --fail", []Stack{driftS}, false, false, true},
		{"drift with --fail", []Stack{driftS}, true, false, false},
		{"potential drift only", []Stack{potentialS}, false, false, false},
		// The note says "exiting 0": never on a run that exits otherwise.
		{"drift beside a failed stack", []Stack{driftS, failed}, false, false, false},
		{"drift with --strict on incomplete coverage", []Stack{driftS, skipped}, false, true, false},
		{"drift with --strict, full coverage", []Stack{driftS}, false, true, true},
	}
	for _, tt := range notes {
		t.Run("note/"+tt.name, func(t *testing.T) {
			if got := ReportOnlyNote(tt.stacks, tt.fail, tt.strict) != ""; got != tt.want {
				t.Errorf("ReportOnlyNote gives a note: %v, want %v", got, tt.want)
			}
		})
	}
}

// A stack that could not be checked covers nothing: coverage is
// incomplete in its summary and in the JSON report, also when every stack
// failed.
func TestFailedStackCoverage(t *testing.T) {
	failed := Stack{Ref: dev, Err: errors.New("describe stack: no answer")}
	if Summarize(failed).CoverageComplete() {
		t.Error("a failed stack has complete coverage")
	}
	var buf bytes.Buffer
	if err := JSON(&buf, []Stack{failed, failed}, JSONOptions{}); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Verdict          string `json:"verdict"`
		CoverageComplete bool   `json:"coverageComplete"`
		Stacks           []struct {
			CoverageComplete bool   `json:"coverageComplete"`
			Error            string `json:"error"`
		} `json:"stacks"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Verdict != "error" || got.CoverageComplete || len(got.Stacks) != 2 || got.Stacks[0].CoverageComplete || got.Stacks[0].Error == "" {
		t.Errorf("every stack failed:\n%s", buf.String())
	}
}

func TestCleanStackIsShort(t *testing.T) {
	var buf bytes.Buffer
	if err := Text(&buf, []Stack{{Ref: prod, Findings: []drift.Finding{fnd(drift.AtDefault, "Q", "T", "P", 0.0, nil)}}}, Options{}); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[2], "result: CLEAN") {
		t.Errorf("clean stack:\n%s", buf.String())
	}
}
