package cli

import (
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestCheckInterruptSaysWhat: an interrupted check (Other hangs) reports
// App, exits 130 and names what was checked and what was not.
func TestCheckInterruptSaysWhat(t *testing.T) {
	e := twoStackEnv(t)
	if err := e.srv.SetFaults([]sandbox.FaultRule{{Service: "cloudformation", Action: "GetTemplate", Match: "StackName=Other&", Hang: true}}); err != nil {
		t.Fatal(err)
	}
	ctx := deadlinetest.Context(t, 3*time.Second)
	out, stderr, code := e.runCtx(ctx, "check", "--all")
	if code != ExitInterrupt || !strings.Contains(out, "Stack App") {
		t.Fatalf("exit %d, want 130 with App reported\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
	}
	if !strings.Contains(stderr, "interrupted — 1 of 2 stacks checked and reported; not checked: Other") {
		t.Errorf("stderr does not say what was and was not checked:\n%s", stderr)
	}
	ctx2 := deadlinetest.Context(t, 3*time.Second)
	_, stderr, code = e.runCtx(ctx2, "ignore", "--all", "--all-findings")
	if code != ExitInterrupt || !strings.Contains(stderr, "nothing written") {
		t.Errorf("ignore interrupted: exit %d\n%s", code, stderr)
	}
	// record names the baselines it wrote and the ones it left as they
	// were: App's is written (or already current), Other's stays as it was.
	ctx3 := deadlinetest.Context(t, 3*time.Second)
	_, stderr, code = e.runCtx(ctx3, "record", "--all")
	if code != ExitInterrupt || !strings.Contains(stderr, "interrupted — 1 baselines written or current (App); not recorded, their baselines unchanged: Other") {
		t.Errorf("record interrupted: exit %d, stderr does not say what was and was not recorded:\n%s", code, stderr)
	}
}
