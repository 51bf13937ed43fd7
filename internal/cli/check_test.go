package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const dlqArn = "arn:aws:sqs:" + testRegion + ":" + testAccount + ":App-Dlq"

// appStack is the test app: an orders queue with a construct path that
// differs from its logical id, a jobs queue and a function.
func appResources() []appResource {
	orders := queue("OrdersQueue1234", "App-Orders-1", map[string]any{
		"VisibilityTimeout": 30,
		"RedrivePolicy":     map[string]any{"deadLetterTargetArn": dlqArn, "maxReceiveCount": 3},
	}, map[string]any{"MaximumMessageSize": 1024})
	orders.cdkPath = "Orders/Queue"
	return []appResource{
		orders,
		queue("Jobs", "App-Jobs-1", map[string]any{"VisibilityTimeout": 60}, map[string]any{"MaximumMessageSize": 2048}),
		function("Fn", "App-Fn-1", "code-v1.zip", "sha-v1"),
	}
}

func newAppEnv(t *testing.T) *sandboxEnv {
	t.Helper()
	return startSandbox(t, appWorld(t, map[string][]appResource{"App": appResources()}), testKey, testRegion)
}

// checkJSON runs check --json and decodes the report.
func (e *sandboxEnv) checkJSON(args ...string) (jsonReport, string, int) {
	e.t.Helper()
	out, errs, code := e.run("check", append([]string{"--json"}, args...)...)
	var rep jsonReport
	if code != ExitError || strings.HasPrefix(out, "{") {
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			e.t.Fatalf("check --json: %v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
		}
	}
	return rep, errs, code
}

// brief is a finding as the tests compare it.
type brief struct {
	Tier, Path, Note string
	Unrecorded       bool
}

// briefs lists the drift-side findings (and ignored ones) of every stack,
// as "logicalId" → briefs, skipping the informational tiers.
func (r jsonReport) briefs() map[string][]brief {
	out := map[string][]brief{}
	for _, s := range r.Stacks {
		for _, f := range s.Findings {
			if !f.Tier.IsDrift() && f.Tier != drift.Ignored {
				continue
			}
			out[f.LogicalID] = append(out[f.LogicalID], brief{f.Tier.String(), f.Path, f.Note, f.Unrecorded})
		}
	}
	return out
}

func (r jsonReport) find(logicalID, path string) (drift.Finding, bool) {
	for _, s := range r.Stacks {
		for _, f := range s.Findings {
			if f.LogicalID == logicalID && f.Path == path {
				return f, true
			}
		}
	}
	return drift.Finding{}, false
}

func TestCheckExitCodes(t *testing.T) {
	env := newAppEnv(t)
	// Declared drift on the orders queue: the redrive count changed.
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Orders-1"), Path: "RedrivePolicy.maxReceiveCount", Value: json.RawMessage(`5`)})
	cases := []struct {
		name string
		args []string
		want int
	}{
		{"drift is report-only", []string{"App"}, ExitOK},
		{"drift with --fail", []string{"App", "--fail"}, ExitDrift},
		{"glob with --fail", []string{"A*", "--fail"}, ExitDrift},
		{"--all with --fail", []string{"--all", "--fail"}, ExitDrift},
		{"undeclared-only hides declared drift", []string{"App", "--fail", "--undeclared-only"}, ExitOK},
		{"strict with full coverage", []string{"App", "--strict"}, ExitOK},
		{"unknown stack", []string{"Nope"}, ExitError},
		{"no stack named", nil, ExitError},
		{"both scopes", []string{"App", "--declared-only", "--undeclared-only"}, ExitError},
		{"pre-deploy without app", []string{"App", "--pre-deploy"}, ExitError},
		{"bad concurrency", []string{"App", "--concurrency", "0"}, ExitError},
		{"value flag missing its value", []string{"App", "--region"}, ExitError},
		{"unknown flag", []string{"App", "--frobnicate"}, ExitError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs, code := env.run("check", c.args...)
			if code != c.want {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, c.want, errs)
			}
			if c.want == ExitError && !strings.Contains(errs, "realdrift check") && !strings.Contains(errs, "flag") {
				t.Errorf("no error message on stderr: %q", errs)
			}
		})
	}
	t.Run("report-only note", func(t *testing.T) {
		_, errs, _ := env.run("check", "App")
		if !strings.Contains(errs, "--fail") {
			t.Errorf("stderr has no report-only note: %q", errs)
		}
	})
	t.Run("strict fails on a skipped resource", func(t *testing.T) {
		w := appWorld(t, map[string][]appResource{"App": {
			{logicalID: "Preset", typ: "AWS::MediaConvert::Preset", physicalID: "preset-1", live: map[string]any{}},
		}})
		w.CCGaps = append(w.CCGaps, "AWS::MediaConvert::Preset") // Cloud Control cannot read it: skipped
		env := startSandbox(t, w, testKey, testRegion)
		if _, errs, code := env.run("check", "App", "--strict"); code != ExitDrift {
			t.Errorf("exit %d, want 1; stderr:\n%s", code, errs)
		}
		if _, errs, code := env.run("check", "App"); code != ExitOK {
			t.Errorf("without --strict: exit %d, want 0; stderr:\n%s", code, errs)
		}
	})
	// A custom resource has no live resource to read: nothing is missing,
	// so the stack is clean (--fail and --strict exit 0) and the report
	// lists it as nothing to read, never as not read.
	t.Run("custom resource is nothing to read, not a gap", func(t *testing.T) {
		env := startSandbox(t, appWorld(t, map[string][]appResource{"App": {
			{logicalID: "Hook", typ: "Custom::Hook", physicalID: "hook-1", live: map[string]any{}},
		}}), testKey, testRegion)
		out, errs, code := env.run("check", "App", "--fail", "--strict", "--no-baseline")
		if code != ExitOK || !strings.Contains(out, "nothing to read: Hook (Custom::Hook)") || strings.Contains(out, "INCOMPLETE") {
			t.Errorf("exit %d, want 0 with Hook listed as nothing to read; stdout:\n%s\nstderr:\n%s", code, out, errs)
		}
	})
	t.Run("no region", func(t *testing.T) {
		e := *env
		e.region = ""
		_, errs, code := e.run("check", "App")
		if code != ExitError || !strings.Contains(errs, "no region") {
			t.Errorf("exit %d stderr %q, want 2 and a no-region message", code, errs)
		}
	})
	// A name that is not a region is an error with a suggestion, before
	// any AWS call, wherever it came from.
	t.Run("not a region", func(t *testing.T) {
		e := *env
		e.region = ""
		_, errs, code := e.run("check", "App", "--region", "us-east1")
		if code != ExitError || !strings.Contains(errs, `--region "us-east1" is not an AWS region (did you mean us-east-1?)`) {
			t.Errorf("exit %d stderr %q, want 2 naming --region with a suggestion", code, errs)
		}
		e.region = "eu-west"
		_, errs, code = e.run("check", "App")
		if code != ExitError || !strings.Contains(errs, `AWS_REGION "eu-west" is not an AWS region`) {
			t.Errorf("exit %d stderr %q, want 2 naming AWS_REGION", code, errs)
		}
	})
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, errs, code := env.runCtx(ctx, "check", "App"); code != ExitInterrupt {
			t.Errorf("exit %d, want 130; stderr:\n%s", code, errs)
		}
	})
}

func TestCheckReportsDeclaredAndDeleted(t *testing.T) {
	env := newAppEnv(t)
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Orders-1"), Path: "VisibilityTimeout", Value: json.RawMessage(`45`)})
	env.change(sandbox.Change{Op: sandbox.OpDelete, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Jobs-1")})
	rep, errs, code := env.checkJSON("App", "--fail")
	if code != ExitDrift {
		t.Fatalf("exit %d, want 1; stderr:\n%s", code, errs)
	}
	if f, ok := rep.find("OrdersQueue1234", "VisibilityTimeout"); !ok || f.Tier != drift.Declared {
		t.Errorf("VisibilityTimeout: %+v, want declared drift", f)
	}
	if f, ok := rep.find("Jobs", ""); !ok || f.Tier != drift.Deleted {
		t.Errorf("Jobs: %+v, want deleted", f)
	}
	// --declared-only keeps both; --undeclared-only drops both.
	rep, _, _ = env.checkJSON("App", "--declared-only")
	for lid, bs := range rep.briefs() {
		for _, b := range bs {
			if b.Tier != "declared" && b.Tier != "deleted" {
				t.Errorf("--declared-only: %s %+v", lid, b)
			}
		}
	}
	rep, _, _ = env.checkJSON("App", "--undeclared-only")
	for lid, bs := range rep.briefs() {
		for _, b := range bs {
			if b.Tier == "declared" || b.Tier == "deleted" {
				t.Errorf("--undeclared-only: %s %+v", lid, b)
			}
		}
	}
	// The text report names both sections and frames the result.
	out, _, _ := env.run("check", "App")
	for _, want := range []string{"Stack App (111111111111/us-east-1)", "[Deleted: 1]", "[CFn-Declared Drift: 1]", "Orders/Queue.VisibilityTimeout", "result:"} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
}

// TestCheckBaselineRules walks the baseline rules and lifecycle folds as
// check sees them, through record.
func TestCheckBaselineRules(t *testing.T) {
	env := newAppEnv(t)
	mms := func(rep jsonReport, lid string) (drift.Finding, bool) { return rep.find(lid, "MaximumMessageSize") }

	// 1. Unrecorded: potential drift, never failing.
	rep, errs, code := env.checkJSON("App", "--fail")
	if code != ExitOK {
		t.Fatalf("first check: exit %d; stderr:\n%s", code, errs)
	}
	if f, ok := mms(rep, "OrdersQueue1234"); !ok || !f.Unrecorded || f.Tier != drift.Undeclared {
		t.Fatalf("first check: %+v, want an unrecorded undeclared finding", f)
	}
	if rep.Verdict != "potentialDrift" {
		t.Errorf("verdict %q, want potentialDrift", rep.Verdict)
	}

	// 2. Recorded and unchanged: suppressed.
	if out, errs, code := env.run("record", "App", "--yes"); code != ExitOK {
		t.Fatalf("record: exit %d\n%s\n%s", code, out, errs)
	}
	rep, errs, code = env.checkJSON("App", "--fail")
	if code != ExitOK || rep.Verdict != "clean" {
		t.Fatalf("after record: exit %d verdict %s; stderr:\n%s\nfindings %v", code, rep.Verdict, errs, rep.briefs())
	}
	if f, ok := mms(rep, "OrdersQueue1234"); ok {
		t.Errorf("recorded value still reported: %+v", f)
	}

	// 3. Changed since record.
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Orders-1"), Path: "MaximumMessageSize", Value: json.RawMessage(`4096`)})
	// 4. Appeared since record (the queue's record was complete).
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Orders-1"), Path: "KmsMasterKeyId", Value: json.RawMessage(`"alias/custom"`)})
	// 5. Removed since record.
	env.change(sandbox.Change{Op: sandbox.OpRemove, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Jobs-1"), Path: "MaximumMessageSize"})
	// Code changed out of band: the recorded CodeSha256 differs.
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::Lambda::Function", Identifier: "App-Fn-1", Path: "CodeSha256", Value: json.RawMessage(`"sha-evil"`)})
	rep, errs, code = env.checkJSON("App", "--fail")
	if code != ExitDrift {
		t.Fatalf("after changes: exit %d; stderr:\n%s", code, errs)
	}
	got := rep.briefs()
	want := map[string][]brief{
		"OrdersQueue1234": {
			{Tier: "undeclared", Path: "KmsMasterKeyId", Note: "appeared since record"},
			{Tier: "undeclared", Path: "MaximumMessageSize", Note: "changed since record"},
		},
		"Jobs": {{Tier: "undeclared", Path: "MaximumMessageSize", Note: "baseline value removed since record"}},
		"Fn":   {{Tier: "undeclared", Path: "CodeSha256", Note: "changed since record"}},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("after changes (-got +want):\n%s", diff)
	}
	if f, _ := mms(rep, "OrdersQueue1234"); f.Desired != 1024.0 {
		t.Errorf("changed value: desired %v, want the recorded 1024", f.Desired)
	}
	// --show-all ignores the baseline: everything is potential drift.
	rep, _, code = env.checkJSON("App", "--fail", "--show-all")
	if code != ExitOK || rep.Verdict != "potentialDrift" {
		t.Errorf("--show-all: exit %d verdict %s, want 0 and potentialDrift", code, rep.Verdict)
	}

	// Lifecycle folds. Re-record the current state first (Jobs with a
	// value again, so its entry can outlive it).
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Jobs-1"), Path: "MaximumMessageSize", Value: json.RawMessage(`2048`)})
	if _, errs, code := env.run("record", "App", "--yes"); code != ExitOK {
		t.Fatalf("re-record: exit %d\n%s", code, errs)
	}
	// A deploy that (a) removes Jobs from the template, (b) replaces the
	// orders queue (new physical id, a fresh different value) and (c)
	// ships new function code (new declared source, new hash).
	rs := appResources()
	orders := queue("OrdersQueue1234", "App-Orders-2", rs[0].declared, map[string]any{"MaximumMessageSize": 8192})
	orders.cdkPath = "Orders/Queue"
	env.deploy("App", []appResource{orders, function("Fn", "App-Fn-1", "code-v2.zip", "sha-v2")})
	rep, errs, code = env.checkJSON("App", "--fail")
	if code != ExitOK {
		t.Errorf("after deploy: exit %d, want 0 (every change went through CloudFormation); findings %v\nstderr:\n%s", code, rep.briefs(), errs)
	}
	got = rep.briefs()
	want = map[string][]brief{
		// The replaced queue's fresh value is unrecorded, not "changed".
		"OrdersQueue1234": {{Tier: "undeclared", Path: "MaximumMessageSize", Unrecorded: true}},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("after deploy (-got +want):\n%s", diff)
	}
	for _, note := range []string{"no longer in the template", "replaced", "redeployed"} {
		if !strings.Contains(errs, note) {
			t.Errorf("stderr lacks a %q note:\n%s", note, errs)
		}
	}
}

func TestCheckIgnoreRuleForms(t *testing.T) {
	env := newAppEnv(t)
	// Declared drift in a nested value, undeclared values on both queues.
	env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Orders-1"), Path: "RedrivePolicy.maxReceiveCount", Value: json.RawMessage(`5`)})
	base, _, _ := env.checkJSON("App")
	if _, ok := base.find("OrdersQueue1234", "MaximumMessageSize"); !ok {
		t.Fatalf("no MaximumMessageSize finding: %v", base.briefs())
	}
	declaredPath := ""
	for _, f := range base.Stacks[0].Findings {
		if f.LogicalID == "OrdersQueue1234" && f.Tier == drift.Declared {
			declaredPath = f.Path
		}
	}
	if !strings.HasPrefix(declaredPath, "RedrivePolicy") {
		t.Fatalf("no declared RedrivePolicy finding: %v", base.briefs())
	}
	cases := []struct {
		name, rules string
		lid, path   string
		ignored     bool
	}{
		{"logicalId.path", "- path: OrdersQueue1234.MaximumMessageSize", "OrdersQueue1234", "MaximumMessageSize", true},
		{"constructPath.path", "- path: Orders/Queue.MaximumMessageSize", "OrdersQueue1234", "MaximumMessageSize", true},
		{"stack/constructPath.path", "- path: App/Orders/Queue.MaximumMessageSize", "OrdersQueue1234", "MaximumMessageSize", true},
		{"glob", "- path: '*.MaximumMessageSize'", "Jobs", "MaximumMessageSize", true},
		{"stack scope matches", "- path: '*.MaximumMessageSize'\n    stack: 'A*'", "OrdersQueue1234", "MaximumMessageSize", true},
		{"stack scope misses", "- path: '*.MaximumMessageSize'\n    stack: Other", "OrdersQueue1234", "MaximumMessageSize", false},
		{"account scope matches", "- path: '*.MaximumMessageSize'\n    account: '1111*'", "OrdersQueue1234", "MaximumMessageSize", true},
		{"account scope misses", "- path: '*.MaximumMessageSize'\n    account: '222222222222'", "OrdersQueue1234", "MaximumMessageSize", false},
		{"region scope matches", "- path: '*.MaximumMessageSize'\n    region: us-*", "OrdersQueue1234", "MaximumMessageSize", true},
		{"region scope misses", "- path: '*.MaximumMessageSize'\n    region: eu-*", "OrdersQueue1234", "MaximumMessageSize", false},
		{"parent path covers children", "- path: Orders/Queue.RedrivePolicy", "OrdersQueue1234", declaredPath, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env.writeState("ignore.yaml", "# test rules\nignore:\n  "+c.rules+"\n")
			rep, errs, code := env.checkJSON("App")
			if code != ExitOK {
				t.Fatalf("exit %d; stderr:\n%s", code, errs)
			}
			f, ok := rep.find(c.lid, c.path)
			if !ok {
				t.Fatalf("no finding %s.%s", c.lid, c.path)
			}
			if got := f.Tier == drift.Ignored; got != c.ignored {
				t.Errorf("%s.%s: tier %s, ignored=%v want %v", c.lid, c.path, f.Tier, got, c.ignored)
			}
		})
	}
	t.Run("deleted is never ignored", func(t *testing.T) {
		env.writeState("ignore.yaml", "ignore:\n  - path: '*'\n  - path: Jobs\n")
		env.change(sandbox.Change{Op: sandbox.OpDelete, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Jobs-1")})
		rep, errs, code := env.checkJSON("App", "--fail")
		if code != ExitDrift {
			t.Errorf("exit %d, want 1; stderr:\n%s", code, errs)
		}
		if f, ok := rep.find("Jobs", ""); !ok || f.Tier != drift.Deleted {
			t.Errorf("Jobs: %+v, want deleted", f)
		}
	})
}

func TestCheckMalformedStateFiles(t *testing.T) {
	cases := []struct {
		name, file, content, want string
	}{
		{"baseline not JSON", "baselines/App.111111111111.us-east-1.json", "{not json", "App.111111111111.us-east-1.json"},
		{"baseline wrong stack", "baselines/App.111111111111.us-east-1.json", `{"schemaVersion":2,"stackName":"Other","region":"us-east-1","accountId":"111111111111","capturedAt":"2026-01-01T00:00:00Z","recorded":[]}`, "App.111111111111.us-east-1.json"},
		{"ignore bad YAML", "ignore.yaml", "ignore:\n  - path: [\n", "ignore.yaml"},
		{"ignore unknown key", "ignore.yaml", "ignroe:\n  - path: x\n", "ignore.yaml"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env := newAppEnv(t)
			p := env.writeState(c.file, c.content)
			for _, verb := range []string{"check", "record"} {
				args := []string{"App"}
				if verb == "record" {
					args = append(args, "--yes")
				}
				_, errs, code := env.run(verb, args...)
				if code != ExitError || !strings.Contains(errs, c.want) {
					t.Errorf("%s: exit %d stderr %q, want 2 naming %s", verb, code, errs, c.want)
				}
			}
			if got, _ := os.ReadFile(p); string(got) != c.content {
				t.Errorf("%s was rewritten:\n%s", c.file, got)
			}
			entries, _ := filepath.Glob(filepath.Join(env.stateDir, "baselines", "*"))
			if c.file == "ignore.yaml" && len(entries) != 0 {
				t.Errorf("a baseline was written despite the bad ignore file: %v", entries)
			}
		})
	}
}
