package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/store"
)

// nestedTreeEnv serves worldgen's nested world: NestedShop with the nested
// stacks Queues (itself the parent of Alarms) and Web.
func nestedTreeEnv(t *testing.T) (*sandboxEnv, []string) {
	t.Helper()
	w, err := worldgen.Nested()
	if err != nil {
		t.Fatal(err)
	}
	return startSandbox(t, w, worldgen.NestedAccessKey, worldgen.NestedRegion), worldgen.NestedStackNames()
}

// nestedReport is the part of check's JSON report these tests read.
type nestedReport struct {
	Verdict string `json:"verdict"`
	Stacks  []struct {
		Stack           string          `json:"stack"`
		Parent          string          `json:"parent"`
		ParentLogicalID string          `json:"parentLogicalId"`
		Verdict         string          `json:"verdict"`
		Drifted         int             `json:"drifted"`
		Coverage        bool            `json:"coverageComplete"`
		Findings        []drift.Finding `json:"findings"`
	} `json:"stacks"`
}

func (e *sandboxEnv) nestedCheck(t *testing.T, wantCode int, args ...string) nestedReport {
	t.Helper()
	out, errs, code := e.run("check", append([]string{"--json"}, args...)...)
	if code != wantCode {
		t.Fatalf("check %v: exit %d, want %d\n%s\n%s", args, code, wantCode, out, errs)
	}
	var rep nestedReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return rep
}

// tree is each reported stack as "name<parent" in report order.
func (r nestedReport) tree() []string {
	var out []string
	for _, s := range r.Stacks {
		out = append(out, s.Stack+"<"+s.Parent)
	}
	return out
}

// TestNestedRecursionByDefault: check descends into every nested stack,
// depth first, each under its own name with its parent named; the stack
// resources' TemplateURL and parameter echo (a nested default, a NoEcho
// mask) is no drift and shows no NoEcho value; --all checks a
// nested stack once although the account lists it too.
func TestNestedRecursionByDefault(t *testing.T) {
	e, n := nestedTreeEnv(t)
	root, queues, alarms, web := n[0], n[1], n[2], n[3]
	want := []string{root + "<", queues + "<" + root, alarms + "<" + queues, web + "<" + root}
	for _, args := range [][]string{{root}, {"--all"}, {"NestedShop*"}} {
		rep := e.nestedCheck(t, ExitOK, append([]string{"--no-baseline", "--fail"}, args...)...)
		if d := cmp.Diff(rep.tree(), want); d != "" {
			t.Errorf("check %v: stacks (-got +want):\n%s", args, d)
		}
		if rep.Verdict != "clean" {
			t.Errorf("check %v: verdict %s, want clean (nothing drifted)", args, rep.Verdict)
		}
	}
	rep := e.nestedCheck(t, ExitOK, "--no-baseline", root)
	var via []string
	for _, s := range rep.Stacks {
		via = append(via, s.ParentLogicalID)
	}
	if d := cmp.Diff(via, []string{"", "QueuesStack", "AlarmsStack", "WebStack"}); d != "" {
		t.Errorf("parentLogicalId (-got +want):\n%s", d)
	}
	for _, s := range rep.Stacks {
		for _, f := range s.Findings {
			if f.ResourceType == sandbox.NestedStackType && f.Tier.IsDrift() {
				t.Errorf("%s: the stack resource reported as drift: %+v", s.Stack, f)
			}
		}
	}

	out, errs, code := e.run("check", "--no-baseline", root)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	for _, h := range []string{
		"Stack " + root + " (",
		"Nested stack: " + queues + " (" + worldgen.NestedAccount + "/" + worldgen.NestedRegion + ") in " + root + " (QueuesStack)",
		"Nested stack: " + alarms + " (" + worldgen.NestedAccount + "/" + worldgen.NestedRegion + ") in " + queues + " (AlarmsStack)",
		"Nested stack: " + web + " (",
	} {
		if !strings.Contains(out, h) {
			t.Errorf("no header %q in:\n%s", h, out)
		}
	}
	if !strings.Contains(out, "total: 4 stacks") {
		t.Errorf("the total does not count the nested stacks:\n%s", out)
	}
	// The NoEcho parameter the root passes its Web stack is masked live:
	// a readGap, its value in no report (text, --verbose or JSON).
	verbose, _, _ := e.run("check", "--no-baseline", "--verbose", root)
	jsonOut, _, _ := e.run("check", "--no-baseline", "--json", root)
	for _, o := range []string{out, verbose, jsonOut} {
		if strings.Contains(o, worldgen.NestedWebToken) {
			t.Errorf("a report shows the NoEcho parameter's value:\n%s", o)
		}
	}
	if !strings.Contains(verbose, "Parameters.ApiToken") {
		t.Errorf("--verbose does not list the masked parameter's readGap:\n%s", verbose)
	}
}

// TestNestedNoRecursive: --no-recursive checks only the stacks named;
// with --all every stack the account lists, each as a stack of its own.
func TestNestedNoRecursive(t *testing.T) {
	e, n := nestedTreeEnv(t)
	rep := e.nestedCheck(t, ExitOK, "--no-baseline", "--no-recursive", n[0])
	if d := cmp.Diff(rep.tree(), []string{n[0] + "<"}); d != "" {
		t.Errorf("(-got +want):\n%s", d)
	}
	rep = e.nestedCheck(t, ExitOK, "--no-baseline", "--no-recursive", "--all")
	want := []string{n[0] + "<", n[1] + "<", n[2] + "<", n[3] + "<"}
	if d := cmp.Diff(rep.tree(), want); d != "" {
		t.Errorf("--all (-got +want):\n%s", d)
	}
	out, _, _ := e.run("check", "--no-baseline", "--no-recursive", n[0])
	if strings.Contains(out, "Nested stack:") {
		t.Errorf("--no-recursive printed a nested stack:\n%s", out)
	}
}

// TestNestedReadFailure: a nested stack that cannot be read is a skipped
// finding on its parent's stack resource naming it and why — coverage
// incomplete (--fail exits 3, --strict 1) — never drift, never an error,
// never left out; its siblings are still checked.
func TestNestedReadFailure(t *testing.T) {
	e, n := nestedTreeEnv(t)
	root, queues, web := n[0], n[1], n[3]
	if err := e.srv.SetFaults([]sandbox.FaultRule{{Service: "cloudformation", Action: "GetTemplate", Match: queues, Code: "AccessDenied", Status: 403, Message: "not authorized to perform cloudformation:GetTemplate"}}); err != nil {
		t.Fatal(err)
	}
	rep := e.nestedCheck(t, ExitIncomplete, "--no-baseline", "--fail", root) // not clean, not drift
	if d := cmp.Diff(rep.tree(), []string{root + "<", web + "<" + root}); d != "" {
		t.Errorf("stacks (-got +want):\n%s", d)
	}
	top := rep.Stacks[0]
	var gap *drift.Finding
	for i, f := range top.Findings {
		if f.Tier == drift.Skipped && f.LogicalID == "QueuesStack" {
			gap = &top.Findings[i]
		}
	}
	if gap == nil {
		t.Fatalf("no skipped finding for QueuesStack: %+v", top.Findings)
	}
	if !strings.Contains(gap.Reason, queues) || !strings.Contains(gap.Reason, "AccessDenied") {
		t.Errorf("reason %q does not name the nested stack and the error", gap.Reason)
	}
	if top.Coverage || top.Drifted != 0 || top.Verdict != "incomplete" {
		t.Errorf("parent: coverage %v, drifted %d, verdict %s; want incomplete, 0, incomplete (never clean)", top.Coverage, top.Drifted, top.Verdict)
	}
	e.nestedCheck(t, ExitDrift, "--no-baseline", "--strict", root)

	out, errs, code := e.run("record", "--yes", root)
	if code != ExitOK {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	if !strings.Contains(errs, "coverage incomplete") || !strings.Contains(errs, queues) {
		t.Errorf("record does not name the gap:\n%s", errs)
	}
	if strings.Contains(out, "recorded "+queues) {
		t.Errorf("record wrote a baseline for the unread nested stack:\n%s", out)
	}
}

// TestNestedRecordBaselines: record writes one baseline per stack of the
// tree, each keyed by that stack's own name as a top-level stack's is.
func TestNestedRecordBaselines(t *testing.T) {
	e, n := nestedTreeEnv(t)
	out, errs, code := e.run("record", "--yes", n[0])
	if code != ExitOK {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	st := store.StateDir(e.stateDir, e.stateDir)
	for _, name := range n {
		ref := drift.StackRef{Account: worldgen.NestedAccount, Region: worldgen.NestedRegion, Name: name}
		path := st.BaselinePath(ref)
		if _, err := os.Stat(path); err != nil {
			t.Errorf("no baseline for %s: %v\n%s", name, err, out)
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		b, err := baseline.Decode(path, data, ref)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if b.Stack.Name != name {
			t.Errorf("%s holds stack %q", filepath.Base(path), b.Stack.Name)
		}
	}
	if c := strings.Count(out, "recorded "); c != len(n) {
		t.Errorf("%d recorded lines, want %d:\n%s", c, len(n), out)
	}
	if _, _, code := e.run("record", "--yes", "--no-recursive", n[3]); code != ExitOK {
		t.Errorf("record of a nested stack by its own name: exit %d", code)
	}
}

// TestNestedOutOfBand: an out-of-band change inside a nested stack is
// drift of that nested stack (its own name, under its parent), and of no
// other; --fail exits 1 on it; ignore reaches it too.
func TestNestedOutOfBand(t *testing.T) {
	e, n := nestedTreeEnv(t)
	if _, errs, code := e.run("record", "--yes", "--all"); code != ExitOK {
		t.Fatalf("record: %s", errs)
	}
	url := "https://sqs." + worldgen.NestedRegion + ".amazonaws.com/" + worldgen.NestedAccount + "/" + n[1] + "-WorkQueue-"
	var ident string
	for _, s := range mustWorld(t, e).Accounts[0].Regions[0].Stacks {
		for _, r := range s.Resources {
			if strings.HasPrefix(r.PhysicalID, url) {
				ident = r.PhysicalID
			}
		}
	}
	e.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: ident, Path: "VisibilityTimeout", Value: json.RawMessage(`120`)})
	rep := e.nestedCheck(t, ExitDrift, "--fail", "--all")
	for _, s := range rep.Stacks {
		wantDrift := s.Stack == n[1]
		if (s.Drifted > 0) != wantDrift {
			t.Errorf("%s: drifted %d (want drift only in %s)", s.Stack, s.Drifted, n[1])
		}
		if !wantDrift {
			continue
		}
		if s.Parent != n[0] {
			t.Errorf("the drifted stack's parent is %q, want %s", s.Parent, n[0])
		}
		found := false
		for _, f := range s.Findings {
			found = found || (f.Tier == drift.Declared && f.LogicalID == "WorkQueue" && f.Path == "VisibilityTimeout")
		}
		if !found {
			t.Errorf("no declared VisibilityTimeout drift on WorkQueue: %+v", s.Findings)
		}
	}
	out, _, _ := e.run("check", "--all")
	at := strings.Index(out, "Nested stack: "+n[1])
	next := strings.Index(out, "Nested stack: "+n[2])
	if at < 0 || next < 0 || !strings.Contains(out[at:next], "WorkQueue.VisibilityTimeout") {
		t.Errorf("the drift is not under the nested stack's header:\n%s", out)
	}

	if _, errs, code := e.run("ignore", "--all", "--all-findings"); code != ExitOK {
		t.Fatalf("ignore: %s", errs)
	}
	e.nestedCheck(t, ExitOK, "--fail", "--all")
}

// mustWorld is the sandbox's world as it is now.
func mustWorld(t *testing.T, e *sandboxEnv) *sandbox.World {
	t.Helper()
	snap, err := e.srv.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	w, err := sandbox.ParseWorld(snap)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// TestNestedPreDeploy: check --pre-deploy --app compares each nested stack
// with its own synthesized template, the one the parent's synthesized stack
// resource names (aws:asset:path beside the parent's template): a value
// the next deploy changes in the nested template is declared drift under
// that nested stack's header, while the deployed-template check stays
// clean; a nested template the assembly lacks (the grandchild's) is a
// named gap on its stack resource, never drift.
func TestNestedPreDeploy(t *testing.T) {
	e, n := nestedTreeEnv(t)
	bodies := map[string]string{}
	for _, s := range mustWorld(t, e).Accounts[0].Regions[0].Stacks {
		bodies[s.Name] = s.TemplateBody
	}
	// The parent's template, each nested stack resource pointing at its
	// nested template written beside it (the root's children only: the
	// grandchild is not synthesized here, so it is a gap).
	var parent map[string]any
	if err := json.Unmarshal([]byte(bodies[n[0]]), &parent); err != nil {
		t.Fatal(err)
	}
	extra := map[string]string{}
	for id, r := range parent["Resources"].(map[string]any) {
		res := r.(map[string]any)
		if res["Type"] != "AWS::CloudFormation::Stack" {
			continue
		}
		child := "" // the root's own child: the shortest name under it
		for _, name := range n[1:] {
			if strings.HasPrefix(name, n[0]+"-"+id+"-") && (child == "" || len(name) < len(child)) {
				child = name
			}
		}
		if child == "" {
			t.Fatalf("no nested stack for %s among %v", id, n)
		}
		body := bodies[child]
		if child == n[1] {
			body = strings.Replace(body, `"VisibilityTimeout": 60`, `"VisibilityTimeout": 45`, 1)
			if body == bodies[child] {
				t.Fatalf("%s's template holds no VisibilityTimeout 60:\n%s", child, body)
			}
		}
		file := id + ".nested.template.json"
		extra[file] = body
		res["Metadata"] = map[string]any{"aws:asset:path": file}
	}
	pb, _ := json.Marshal(parent)
	dir := t.TempDir()
	writeAssemblyBodies(t, dir, map[string]string{n[0]: string(pb)}, extra)

	rep := e.nestedCheck(t, ExitOK, "--pre-deploy", "--app", dir, n[0])
	var drifted []string
	for _, s := range rep.Stacks {
		for _, f := range s.Findings {
			if f.Tier == drift.Declared {
				drifted = append(drifted, s.Stack+" "+f.LogicalID+"."+f.Path)
			}
		}
	}
	if diff := cmp.Diff(drifted, []string{n[1] + " WorkQueue.VisibilityTimeout"}); diff != "" {
		t.Errorf("--pre-deploy declared drift (-got +want):\n%s", diff)
	}
	gap := false
	for _, s := range rep.Stacks {
		for _, f := range s.Findings {
			gap = gap || (s.Stack == n[1] && f.Tier == drift.Skipped && f.LogicalID == "AlarmsStack" && strings.Contains(f.Reason, "synthesized template"))
		}
	}
	if !gap {
		t.Errorf("the grandchild whose synthesized template the assembly lacks is not a named gap: %v", rep.tree())
	}
	plain := e.nestedCheck(t, ExitOK, n[0])
	for _, s := range plain.Stacks {
		if s.Drifted > 0 {
			t.Errorf("the deployed-template check finds drift in %s: %+v", s.Stack, s.Findings)
		}
	}
}
