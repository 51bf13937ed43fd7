package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
)

func baselineFile(env *sandboxEnv) string {
	return filepath.Join(env.stateDir, "baselines", "App."+testAccount+"."+testRegion+".json")
}

func TestRecordModes(t *testing.T) {
	t.Run("CI without --yes refuses", func(t *testing.T) {
		env := newAppEnv(t)
		env.ci = true
		_, errs, code := env.run("record", "App")
		if code != ExitError || !strings.Contains(errs, "--yes") {
			t.Errorf("exit %d stderr %q, want 2 asking for --yes", code, errs)
		}
		if _, err := os.Stat(baselineFile(env)); err == nil {
			t.Error("a baseline was written in CI mode without --yes")
		}
		if _, errs, code := env.run("record", "App", "--yes"); code != ExitOK {
			t.Errorf("CI with --yes: exit %d\n%s", code, errs)
		}
	})
	t.Run("non-terminal stdin records everything", func(t *testing.T) {
		env := newAppEnv(t)
		out, errs, code := env.run("record", "App")
		if code != ExitOK {
			t.Fatalf("exit %d\n%s", code, errs)
		}
		if !strings.Contains(out, "recorded App") {
			t.Errorf("stdout %q", out)
		}
		rep, _, code := env.checkJSON("App", "--fail")
		if code != ExitOK || rep.Verdict != "clean" {
			t.Errorf("after record: exit %d verdict %s findings %v", code, rep.Verdict, rep.briefs())
		}
	})
	t.Run("terminal chooses from the delta", func(t *testing.T) {
		env := newAppEnv(t)
		env.tty, env.stdoutTTY = true, true
		env.stdin = "nonsense\n1\n" // one bad answer, then the first item
		out, errs, code := env.run("record", "App")
		if code != ExitOK {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		for _, want := range []string{"new or changed live-only values", "Fn.CodeSha256", "Orders/Queue.MaximumMessageSize", "not a number or range", "recorded App (111111111111/us-east-1): 1 of 3"} {
			if !strings.Contains(out, want) {
				t.Errorf("prompt output lacks %q:\n%s", want, out)
			}
		}
		// Only the first item (Fn.CodeSha256, in report order) is recorded.
		rep, _, _ := env.checkJSON("App")
		if f, ok := rep.find("Fn", "CodeSha256"); ok {
			t.Errorf("chosen value still reported: %+v", f)
		}
		if f, ok := rep.find("OrdersQueue1234", "MaximumMessageSize"); !ok || !f.Unrecorded {
			t.Errorf("declined value: %+v, want still unrecorded", f)
		}
		// A second record shows only what is still new; empty answer: none.
		env.stdin = "\n"
		out, _, _ = env.run("record", "App")
		if !strings.Contains(out, "2 new or changed") || !strings.Contains(out, ": 0 of 2") {
			t.Errorf("second record:\n%s", out)
		}
	})
	t.Run("--yes on a terminal does not ask", func(t *testing.T) {
		env := newAppEnv(t)
		env.tty, env.stdoutTTY = true, true
		out, errs, code := env.run("record", "App", "-y")
		if code != ExitOK || strings.Contains(out, "Enter numbers") {
			t.Errorf("exit %d\n%s\n%s", code, out, errs)
		}
	})
	t.Run("recording a change keeps watching it", func(t *testing.T) {
		env := newAppEnv(t)
		env.run("record", "App", "--yes")
		env.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("App-Jobs-1"), Path: "MaximumMessageSize", Value: json.RawMessage(`4096`)})
		if _, _, code := env.run("check", "App", "--fail"); code != ExitDrift {
			t.Fatalf("changed value: exit %d, want 1", code)
		}
		env.run("record", "App", "--yes")
		if _, errs, code := env.run("check", "App", "--fail"); code != ExitOK {
			t.Errorf("after re-record: exit %d, want 0\n%s", code, errs)
		}
	})
}

func TestIgnoreVerb(t *testing.T) {
	t.Run("--path appends a scoped rule", func(t *testing.T) {
		env := newAppEnv(t)
		env.writeState("ignore.yaml", "# why: tuned by the platform team\nignore:\n  - path: '*.DelaySeconds'\n")
		out, errs, code := env.run("ignore", "App", "--path", "Orders/Queue.MaximumMessageSize", "--account", testAccount)
		if code != ExitOK {
			t.Fatalf("exit %d\n%s", code, errs)
		}
		if !strings.Contains(out, "added 1 ignore rule") {
			t.Errorf("stdout %q", out)
		}
		data, _ := os.ReadFile(filepath.Join(env.stateDir, "ignore.yaml"))
		for _, want := range []string{"# why: tuned by the platform team", "*.DelaySeconds", "path: 'Orders/Queue.MaximumMessageSize'", "stack: 'App'", "account: '111111111111'"} {
			if !strings.Contains(string(data), want) {
				t.Errorf("ignore.yaml lacks %q:\n%s", want, data)
			}
		}
		rep, _, _ := env.checkJSON("App")
		if f, _ := rep.find("OrdersQueue1234", "MaximumMessageSize"); f.Tier.String() != "ignored" {
			t.Errorf("after ignore: %+v", f)
		}
		// The same rule again adds nothing.
		if out, _, code := env.run("ignore", "App", "--path", "Orders/Queue.MaximumMessageSize", "--account", testAccount); code != ExitOK || !strings.Contains(out, "no new rule") {
			t.Errorf("repeat: exit %d %q", code, out)
		}
	})
	t.Run("--all-findings ignores every finding", func(t *testing.T) {
		env := newAppEnv(t)
		out, errs, code := env.run("ignore", "App", "--all-findings", "--scope", "stack,region")
		if code != ExitOK {
			t.Fatalf("exit %d\n%s", code, errs)
		}
		if !strings.Contains(out, "added 3 ignore rule") || !strings.Contains(out, "stack=App region=us-east-1") {
			t.Errorf("stdout:\n%s", out)
		}
		rep, _, code := env.checkJSON("App", "--fail")
		if code != ExitOK || rep.Verdict != "clean" {
			t.Errorf("after ignoring all: exit %d verdict %s %v", code, rep.Verdict, rep.briefs())
		}
	})
	t.Run("terminal chooses findings", func(t *testing.T) {
		env := newAppEnv(t)
		env.tty, env.stdoutTTY, env.stdin = true, true, "2\n"
		out, errs, code := env.run("ignore", "App")
		if code != ExitOK || !strings.Contains(out, "added 1 ignore rule") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
	})
	errCases := []struct {
		name string
		args []string
		want string
	}{
		{"nothing chosen off a terminal", []string{"App"}, "--all-findings"},
		{"--stack without --path", []string{"App", "--stack", "X", "--all-findings"}, "--path"},
		{"two stacks with --path", []string{"A", "B", "--path", "x"}, "at most one"},
		{"bad scope", []string{"App", "--all-findings", "--scope", "planet"}, "planet"},
	}
	for _, c := range errCases {
		t.Run(c.name, func(t *testing.T) {
			env := newAppEnv(t)
			_, errs, code := env.run("ignore", c.args...)
			if code != ExitError || !strings.Contains(errs, c.want) {
				t.Errorf("exit %d stderr %q, want 2 mentioning %q", code, errs, c.want)
			}
		})
	}
	t.Run("malformed ignore file: exit 2, nothing written", func(t *testing.T) {
		env := newAppEnv(t)
		bad := "ignore:\n  - path: x\n    colour: blue\n"
		p := env.writeState("ignore.yaml", bad)
		for _, args := range [][]string{{"--path", "Queue.X"}, {"App", "--all-findings"}} {
			_, errs, code := env.run("ignore", args...)
			if code != ExitError || !strings.Contains(errs, "ignore.yaml") {
				t.Errorf("%v: exit %d stderr %q, want 2 naming ignore.yaml", args, code, errs)
			}
		}
		if got, _ := os.ReadFile(p); string(got) != bad {
			t.Errorf("ignore.yaml rewritten:\n%s", got)
		}
	})
}
