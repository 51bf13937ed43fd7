package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// revertReport is the part of revert --json the tests read.
type revertReport struct {
	Stacks []struct {
		Outcomes []struct {
			ID, Status, Error string
		} `json:"outcomes"`
		Error string `json:"error"`
	} `json:"stacks"`
	Summary revertSummary `json:"summary"`
}

func (e *sandboxEnv) revertJSON(args ...string) (revertReport, string, int) {
	e.t.Helper()
	out, errs, code := e.run("revert", append([]string{"--json"}, args...)...)
	var rep revertReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		e.t.Fatalf("revert --json: %v\nstdout:\n%s\nstderr:\n%s", err, out, errs)
	}
	return rep, errs, code
}

// writeCalls counts the write calls in the sandbox call log.
func writeCalls(srv *sandbox.Server) int {
	n := 0
	for api, c := range srv.Calls().Counts {
		action := api[strings.IndexByte(api, ':')+1:]
		for _, p := range []string{"Update", "Delete", "Put", "Set", "Create", "Add", "Remove", "Unsubscribe", "Attach", "Detach"} {
			if strings.HasPrefix(action, p) {
				n += c
				break
			}
		}
	}
	return n
}

// demoEnv serves the demo world with its planted drift (the deleted
// dead-letter queue left out: a deploy recreates it, no revert can) for
// the dev account's us-east-1, recorded before the drift.
func demoEnv(t *testing.T) *sandboxEnv {
	t.Helper()
	cases, err := corpus.LoadDirs(corpustest.Subset(t))
	if err != nil {
		t.Fatal(err)
	}
	w, err := worldgen.Demo(cases)
	if err != nil {
		t.Fatal(err)
	}
	dev := worldgen.DemoAccounts()[1].ID
	env := startSandbox(t, w, worldgen.DemoAccessKey(dev), "us-east-1")
	if _, errs, code := env.run("record", "--all", "--yes"); code != ExitOK {
		t.Fatalf("record: exit %d\n%s", code, errs)
	}
	changes, err := worldgen.DemoDrift(w, dev, "us-east-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range changes {
		if ch.Op == sandbox.OpDelete {
			continue
		}
		env.change(ch.Change)
	}
	return env
}

// TestRevertDemo: on the demo world, a dry run writes nothing; revert
// --yes reverts every planted drift and check --fail is clean after.
func TestRevertDemo(t *testing.T) {
	env := demoEnv(t)
	if _, _, code := env.checkJSON("--all", "--fail"); code != ExitDrift {
		t.Fatalf("check before revert: exit %d, want 1", code)
	}
	env.srv.ResetCalls()
	dry, errs, code := env.revertJSON("--all")
	if code != ExitOK || !dry.Summary.DryRun || dry.Summary.Planned == 0 {
		t.Fatalf("dry run: exit %d summary %+v\n%s", code, dry.Summary, errs)
	}
	if n := writeCalls(env.srv); n != 0 {
		t.Errorf("the dry run made %d write calls: %v", n, env.srv.Calls().Counts)
	}
	rep, errs, code := env.revertJSON("--all", "--yes")
	t.Logf("demo revert: %+v", rep.Summary)
	if code != ExitOK {
		for _, s := range rep.Stacks {
			for _, o := range s.Outcomes {
				if o.Status != "reverted" {
					t.Logf("%s: %s %s", o.ID, o.Status, o.Error)
				}
			}
		}
		t.Fatalf("revert --yes: exit %d\n%s", code, errs)
	}
	if rep.Summary.Reverted != dry.Summary.Planned {
		t.Errorf("reverted %d of %d planned", rep.Summary.Reverted, dry.Summary.Planned)
	}
	if c, _, code := env.checkJSON("--all", "--fail"); code != ExitOK {
		t.Errorf("check after revert: exit %d, findings %v", code, c.briefs())
	}
}
