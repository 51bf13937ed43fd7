package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/cfn/cfntest"
	"github.com/realdrift/realdrift/internal/cfn/intrinsic"
	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/diff"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// writeAssemblyBodies writes a cloud assembly of stacks name → template
// body, plus extra files (nested templates) beside them.
func writeAssemblyBodies(t *testing.T, dir string, bodies map[string]string, extra map[string]string) {
	t.Helper()
	arts := map[string]any{}
	for name, body := range bodies {
		file := name + ".template.json"
		if err := os.WriteFile(filepath.Join(dir, file), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		arts[name] = map[string]any{"type": "aws:cloudformation:stack", "environment": "aws://unknown-account/unknown-region", "properties": map[string]any{"templateFile": file}}
	}
	for file, body := range extra {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, _ := json.Marshal(map[string]any{"version": "55.0.0", "artifacts": arts})
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// diffJSON is diff --json as the tests read it.
type diffJSON []struct {
	Stack   string `json:"stack"`
	Changes []struct {
		LogicalID  string `json:"logicalId"`
		Action     string `json:"action"`
		Properties []struct {
			Path       string `json:"path"`
			Propagated string `json:"propagated"`
		} `json:"properties"`
		Drift []string `json:"drift"`
	} `json:"changes"`
	OutputChanges []struct {
		Name string `json:"name"`
	} `json:"outputChanges"`
	Children json.RawMessage `json:"children"`
}

func TestDiffApp(t *testing.T) {
	e := newAppEnv(t)
	same := t.TempDir()
	writeAssembly(t, same, appResources())
	out, errs, code := e.run("diff", "--app", same, "--fail", "--all")
	if code != ExitOK || !strings.Contains(out, "There were no differences") {
		t.Fatalf("self diff: code %d\n%s\n%s", code, out, errs)
	}

	rs := appResources()
	rs[0].declared = map[string]any{"VisibilityTimeout": 30, "MaximumMessageSize": 4096, "RedrivePolicy": rs[0].declared["RedrivePolicy"]}
	rs[1].declared = map[string]any{"VisibilityTimeout": 90, "QueueName": "App-Jobs-2"}
	rs = append(rs[:2], queue("NewQueue", "App-New", nil, nil))
	changed := t.TempDir()
	writeAssembly(t, changed, rs)
	out, errs, code = e.run("diff", "--app", changed, "--all")
	if code != ExitOK {
		t.Fatalf("diff: code %d\n%s", code, errs)
	}
	for _, want := range []string{
		"[+] AWS::SQS::Queue NewQueue",
		"[-] AWS::Lambda::Function Fn",
		"[~] AWS::SQS::Queue Jobs",
		"QueueName: (absent) → \"App-Jobs-2\"",
		"(requires replacement)",
		"VisibilityTimeout: 60 → 90",
		"MaximumMessageSize drifted", // hmm: undeclared, see below
	} {
		if want == "MaximumMessageSize drifted" {
			want = "undeclared MaximumMessageSize (live 1024): the deploy will overwrite this live value"
		}
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
	if _, _, code := e.run("diff", "--app", changed, "--all", "--fail"); code != ExitDrift {
		t.Errorf("--fail with changes: code %d, want %d", code, ExitDrift)
	}
	jout, _, code := e.run("diff", "--app", changed, "--all", "--json")
	var rep struct {
		Stacks diffJSON `json:"stacks"`
	}
	err := json.Unmarshal([]byte(jout), &rep)
	got := rep.Stacks
	if err != nil || code != ExitOK {
		t.Fatalf("--json: %v (code %d)\n%s", err, code, jout)
	}
	if len(got) != 1 || got[0].Stack != "App" || len(got[0].Changes) != 4 || string(got[0].Children) != "[]" || got[0].OutputChanges == nil {
		t.Errorf("--json = %s", jout)
	}
}

// TestDiffNoColorAndStrip: colour only on a terminal without NO_COLOR;
// control and bidi characters never reach the text.
func TestDiffNoColorAndStrip(t *testing.T) {
	if got := clean("a\x1b[31mb\u202ec\u2066d"); got != "a[31mbcd" {
		t.Errorf("clean = %q", got)
	}
	e := newAppEnv(t)
	rs := appResources()
	rs[1].declared = map[string]any{"VisibilityTimeout": 91}
	dir := t.TempDir()
	writeAssembly(t, dir, rs)
	e.stdoutTTY = true // the env sets NO_COLOR
	out, _, _ := e.run("diff", "--app", dir, "--all")
	if strings.Contains(out, "\x1b[") || !strings.Contains(out, "[~] AWS::SQS::Queue Jobs") {
		t.Errorf("colour with NO_COLOR, or no change:\n%s", out)
	}
	var b strings.Builder
	writeDiff(&b, &stackDiff{Stack: "S\u202e", Changes: []changeView{{ResourceChange: diff.ResourceChange{LogicalID: "L\x07", Type: "AWS::SNS::Topic", Action: diff.Create}}}}, true, false)
	if !strings.Contains(b.String(), ansiGreen+"[+]"+ansiReset+" AWS::SNS::Topic L\n") || strings.Contains(b.String(), "\u202e") {
		t.Errorf("coloured text = %q", b.String())
	}
}

// TestDiffLargestTemplate: the largest shared template (VpcEcs, 57
// resources) deployed in the sandbox diffs against itself with no change,
// in under 2 s (stretched by REALDRIFT_TEST_TIMESCALE), and --verbose
// prints the call count.
func TestDiffLargestTemplate(t *testing.T) {
	body := string(cfntest.Read(t, "vpc-ecs/VpcEcsStack.template.json"))
	tm, err := cfn.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	st := &sandbox.Stack{Name: "VpcEcsStack", TemplateBody: body}
	ids := map[string]string{}
	for _, id := range tm.ResourceIDs() {
		ids[id] = "phys-" + strings.ToLower(id)
	}
	// Each live model is the resource's declared values as CloudFormation
	// resolved them (what the resolver cannot know left out), so every
	// read finds its resource and the check classifies it.
	res := intrinsic.New(tm, intrinsic.Context{AccountID: testAccount, Region: testRegion, StackName: st.Name, PhysicalIDs: ids})
	found := 0
	for _, id := range tm.ResourceIDs() {
		r := &sandbox.Resource{LogicalID: id, Type: tm.Resources[id].Type, PhysicalID: ids[id]}
		if rr, ok := res.Resource(id); ok {
			if b, err := json.Marshal(knownOnly(rr.Properties)); err == nil && len(b) > 2 {
				r.Properties = b
				found++
			}
		}
		st.Resources = append(st.Resources, r)
	}
	// The deployed outputs are what CloudFormation made of the template.
	for _, o := range intrinsic.New(tm, intrinsic.Context{AccountID: testAccount, Region: testRegion, StackName: st.Name, PhysicalIDs: ids}).Outputs() {
		v, ok := paramText(o.Value)
		name, _ := o.ExportName.(string)
		if !ok {
			v = "us-east-1a" // Fn::GetAZs: the diff cannot know it and does not compare it
		}
		st.Outputs = append(st.Outputs, sandbox.Output{Key: o.Name, Value: v, ExportName: name})
	}
	w := appWorld(t, nil)
	w.Accounts[0].Regions[0].Stacks = []*sandbox.Stack{st}
	e := startSandbox(t, w, testKey, testRegion)
	dir := t.TempDir()
	writeAssemblyBodies(t, dir, map[string]string{"VpcEcsStack": body}, nil)
	start := time.Now()
	out, errs, code := e.run("diff", "--app", dir, "--all", "--verbose", "--fail")
	took := time.Since(start)
	if code != ExitOK || !strings.Contains(out, "There were no differences") {
		t.Fatalf("self diff of VpcEcs: code %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "calls: ") {
		t.Errorf("--verbose printed no call count:\n%s", errs)
	}
	t.Logf("VpcEcs (%d resources, %d with a live model): %s; %s", len(tm.Resources), found, took, strings.SplitN(errs, "\n", 2)[0])
	if limit := deadlinetest.Scale(t, 2*time.Second); took > limit {
		t.Errorf("diff took %s, want under %s", took, limit)
	}
}

// knownOnly is v without what the resolver could not know (drift.Unknown,
// drift.Secret): the part of a declared value a live model can hold.
func knownOnly(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range t {
			if drift.IsUnknown(e) || drift.IsSecret(e) {
				continue
			}
			out[k] = knownOnly(e)
		}
		return out
	case []any:
		out := []any{}
		for _, e := range t {
			if drift.IsUnknown(e) || drift.IsSecret(e) {
				continue
			}
			out = append(out, knownOnly(e))
		}
		return out
	}
	return v
}
