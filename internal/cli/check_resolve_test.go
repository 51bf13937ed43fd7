package cli

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// decideCount runs check --all on a terminal that answers "d" and then
// ends: the number of findings the per-finding prompt would ask about
// (nothing is chosen, nothing written).
func decideCount(t *testing.T, env *sandboxEnv) int {
	t.Helper()
	env.tty, env.stdoutTTY, env.stdin = true, true, "d\n"
	out, errs, code := env.run("check", "--all")
	m := regexp.MustCompile(`Decide per finding \((\d+);`).FindStringSubmatch(out)
	if code != ExitOK || m == nil || !strings.Contains(out, "chosen: 0 to record, 0 to revert, 0 to ignore") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// decideOptions returns the actions the per-finding prompt offers for
// each finding, in order, from a pass that answers Enter to every one (so
// nothing is chosen or written). The env is left on a terminal.
func decideOptions(t *testing.T, env *sandboxEnv) []string {
	t.Helper()
	n := decideCount(t, env)
	env.stdin = "d\n" + strings.Repeat("\n", n)
	out, _, _ := env.run("check", "--all")
	var opts []string
	for _, m := range regexp.MustCompile(`(?m)^ +\[Enter\] nothing([^:]*):`).FindAllStringSubmatch(out, -1) {
		opts = append(opts, m[1])
	}
	if len(opts) != n || !strings.Contains(out, fmt.Sprintf("%d left as they are", n)) {
		t.Fatalf("%d per-finding prompts, want %d:\n%s", len(opts), n, out)
	}
	return opts
}

// TestCheckResolveRevert: on the demo world (recorded, then drifted), a
// terminal check offers Revert and Decide per finding beside Record and
// Ignore, Nothing first; Enter writes nothing; the bulk revert leads to
// revert's own selection and, all chosen, check --fail is clean after;
// deciding per finding reverts exactly the finding answered "v" (after the
// confirmation) and ignores the one answered "i".
func TestCheckResolveRevert(t *testing.T) {
	t.Run("enter writes nothing", func(t *testing.T) {
		env := demoEnv(t)
		env.tty, env.stdoutTTY, env.stdin = true, true, "\n"
		env.srv.ResetCalls()
		out, errs, code := env.run("check", "--all")
		if code != ExitOK || !strings.Contains(out, "Resolve now? [Enter] nothing") || !strings.Contains(out, "· v revert drift (") || !strings.Contains(out, "· d decide per finding") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		if n := writeCalls(env.srv); n != 0 {
			t.Errorf("Enter made %d write calls", n)
		}
	})
	t.Run("bulk revert", func(t *testing.T) {
		env := demoEnv(t)
		env.tty, env.stdoutTTY, env.stdin = true, true, "v\n"+strings.Repeat("a\n", 20)
		out, errs, code := env.run("check", "--all")
		if code != ExitOK || !strings.Contains(out, "Items to write for") || !strings.Contains(out, "reverted: ") || strings.Contains(out, "FAILED") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		env.tty, env.stdoutTTY = false, false
		if c, _, code := env.checkJSON("--all", "--fail"); code != ExitOK {
			t.Errorf("check after the inline revert: exit %d %v", code, c.briefs())
		}
	})
	t.Run("decide per finding", func(t *testing.T) {
		env := demoEnv(t)
		env.tty, env.stdoutTTY = false, false
		before, _, _ := env.checkJSON("--all")
		// Answer v to the first finding that can be reverted and i to
		// the next one that can be ignored.
		opts := decideOptions(t, env)
		answers := make([]string, len(opts))
		rev, ign := -1, -1
		for i, o := range opts {
			switch {
			case rev < 0 && strings.Contains(o, "v revert"):
				answers[i], rev = "v", i
			case ign < 0 && strings.Contains(o, "i ignore"):
				answers[i], ign = "i", i
			}
		}
		if rev < 0 || ign < 0 {
			t.Fatalf("no finding to revert (%d) or ignore (%d): %v", rev, ign, opts)
		}
		env.srv.ResetCalls()
		env.stdin = "d\n" + strings.Join(answers, "\n") + "\ny\n"
		out, errs, code := env.run("check", "--all")
		if code != ExitOK || !strings.Contains(out, "chosen: 0 to record, 1 to revert, 1 to ignore") || !strings.Contains(out, "added 1 ignore rule") ||
			strings.Count(out, "  reverted: ") != 1 {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		env.tty, env.stdoutTTY = false, false
		after, _, _ := env.checkJSON("--all")
		if got, want := countDrift(after), countDrift(before)-2; got != want {
			t.Errorf("drift after deciding: %d, want %d (%v)", got, want, after.briefs())
		}
	})
	t.Run("decide, not confirmed, writes nothing to AWS", func(t *testing.T) {
		env := demoEnv(t)
		var answers []string
		for _, o := range decideOptions(t, env) {
			a := ""
			if strings.Contains(o, "v revert") {
				a = "v"
			}
			answers = append(answers, a)
		}
		env.stdin = "d\n" + strings.Join(answers, "\n") + "\nn\n"
		env.srv.ResetCalls()
		out, _, _ := env.run("check", "--all")
		if !strings.Contains(out, "not confirmed: nothing written to AWS") {
			t.Errorf("no refusal:\n%s", out)
		}
		if c := writeCalls(env.srv); c != 0 {
			t.Errorf("%d write calls without confirmation", c)
		}
	})
}

// countDrift counts the drift findings of a JSON report.
func countDrift(r jsonReport) int {
	n := 0
	for _, bs := range r.briefs() {
		for _, b := range bs {
			switch b.Tier {
			case "declared", "undeclared", "added", "deleted":
				if !b.Unrecorded {
					n++
				}
			}
		}
	}
	return n
}

// TestCheckResolveFirstBaseline (seed 002 R141): a stack with no baseline
// yet is offered Record on a terminal even when it is clean, and the
// chosen record writes its first baseline, after which a clean check
// prompts nothing; with declared drift the offer says the drift stays
// reported.
func TestCheckResolveFirstBaseline(t *testing.T) {
	t.Run("clean stack", func(t *testing.T) {
		e := startSandbox(t, appWorld(t, map[string][]appResource{
			"App": {queue("Q", "q", map[string]any{"VisibilityTimeout": 30, "QueueName": "q", "MaximumMessageSize": 262144}, nil)},
		}), testKey, testRegion)
		e.tty, e.stdoutTTY, e.stdin = true, true, "r\n"
		out, errs, code := e.run("check", "App")
		if code != ExitOK || !strings.Contains(out, "· r record the current state as the first baseline (1 stack without one; start watching undeclared state)") ||
			strings.Contains(out, "declared drift stays reported") || !strings.Contains(out, "recorded ") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		e.baselineOf("App") // fails the test when none was written
		e.stdin = "\n"
		out, _, code = e.run("check", "App")
		if code != ExitOK || strings.Contains(out, "Resolve now?") {
			t.Errorf("a clean stack with a baseline prompts: exit %d\n%s", code, out)
		}
	})
	t.Run("declared drift", func(t *testing.T) {
		e := startSandbox(t, appWorld(t, map[string][]appResource{
			"App": {queue("Q", "q", map[string]any{"VisibilityTimeout": 30, "QueueName": "q", "MaximumMessageSize": 262144}, nil)},
		}), testKey, testRegion)
		e.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("q"), Path: "VisibilityTimeout", Value: json.RawMessage(`99`)})
		e.tty, e.stdoutTTY, e.stdin = true, true, "\n"
		out, errs, _ := e.run("check", "App")
		if !strings.Contains(out, "first baseline (1 stack without one; start watching undeclared state) — declared drift stays reported: revert or ignore it separately") {
			t.Fatalf("offer with declared drift:\n%s\n%s", out, errs)
		}
	})
}
