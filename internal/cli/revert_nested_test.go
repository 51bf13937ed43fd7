package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// TestRevertNested: drift inside a nested stack is reverted by a revert
// of its parent (its own plan, under its parent), and check --fail is
// clean after; the parent alone with --no-recursive leaves the nested
// stack alone.
func TestRevertNested(t *testing.T) {
	e, n := nestedTreeEnv(t)
	if _, errs, code := e.run("record", "--yes", "--all"); code != ExitOK {
		t.Fatalf("record: %s", errs)
	}
	prefix := "https://sqs." + worldgen.NestedRegion + ".amazonaws.com/" + worldgen.NestedAccount + "/" + n[1] + "-WorkQueue-"
	var ident string
	for _, s := range mustWorld(t, e).Accounts[0].Regions[0].Stacks {
		for _, r := range s.Resources {
			if strings.HasPrefix(r.PhysicalID, prefix) {
				ident = r.PhysicalID
			}
		}
	}
	if ident == "" {
		t.Fatal("no nested work queue")
	}
	e.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: ident, Path: "VisibilityTimeout", Value: json.RawMessage(`120`)})

	e.srv.ResetCalls()
	rep, errs, code := e.revertJSON(n[0], "--yes", "--no-recursive")
	if rep.Summary.Reverted != 0 || writeCalls(e.srv) != 0 || rep.Summary.StackErrors != 0 {
		t.Fatalf("revert %s --no-recursive: exit %d %+v\n%s", n[0], code, rep.Summary, errs)
	}
	e.nestedCheck(t, ExitDrift, "--fail", "--all")

	out, errs, code := e.run("revert", "--all", "--yes", "--json")
	var got struct {
		Stacks []struct {
			Stack struct {
				Name string `json:"stack"`
			} `json:"stack"`
			Parent   string `json:"parent"`
			Outcomes []struct{ ID, Status string }
		} `json:"stacks"`
		Summary revertSummary `json:"summary"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Summary.Reverted != 1 || got.Summary.Failed != 0 {
		t.Fatalf("revert: exit %d (%v) %+v\n%s\n%s", code, err, got.Summary, out, errs)
	}
	if len(got.Stacks) != len(n) {
		t.Errorf("%d stacks in the revert, want the tree's %d", len(got.Stacks), len(n))
	}
	for _, s := range got.Stacks {
		if len(s.Outcomes) > 0 && (s.Stack.Name != n[1] || s.Parent != n[0] || s.Outcomes[0].Status != "reverted") {
			t.Errorf("outcome in %s (parent %q): %+v", s.Stack.Name, s.Parent, s.Outcomes)
		}
	}
	e.nestedCheck(t, ExitOK, "--fail", "--all")
}
