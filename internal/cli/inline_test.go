package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckResolveInline: on a terminal, check offers to record or ignore
// after reporting; Enter does nothing; automation flags never prompt.
func TestCheckResolveInline(t *testing.T) {
	terminal := func(t *testing.T, stdin string) *sandboxEnv {
		env := newAppEnv(t)
		env.tty, env.stdoutTTY, env.stdin = true, true, stdin
		return env
	}
	t.Run("enter does nothing", func(t *testing.T) {
		env := terminal(t, "\n")
		out, errs, code := env.run("check", "App")
		if code != ExitOK || !strings.Contains(out, "Resolve now?") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		if entries, _ := os.ReadDir(env.stateDir); len(entries) != 0 {
			t.Errorf("state written: %v", entries)
		}
	})
	t.Run("record through check", func(t *testing.T) {
		env := terminal(t, "r\na\n")
		out, errs, code := env.run("check", "App")
		if code != ExitOK || !strings.Contains(out, "recorded App") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		env.tty = false
		if rep, _, code := env.checkJSON("App", "--fail"); code != ExitOK || rep.Verdict != "clean" {
			t.Errorf("after inline record: exit %d verdict %s %v", code, rep.Verdict, rep.briefs())
		}
	})
	t.Run("ignore through check", func(t *testing.T) {
		env := terminal(t, "i\n1\n")
		out, errs, code := env.run("check", "App")
		if code != ExitOK || !strings.Contains(out, "added 1 ignore rule") {
			t.Fatalf("exit %d\n%s\n%s", code, out, errs)
		}
		if _, err := os.Stat(filepath.Join(env.stateDir, "ignore.yaml")); err != nil {
			t.Error(err)
		}
	})
	for _, flag := range []string{"--fail", "--json", "--show-all"} {
		t.Run("no prompt with "+flag, func(t *testing.T) {
			env := terminal(t, "r\na\n")
			out, _, _ := env.run("check", "App", flag)
			if strings.Contains(out, "Resolve now?") {
				t.Errorf("%s prompted:\n%s", flag, out)
			}
		})
	}
	t.Run("no prompt when stdout is not a terminal", func(t *testing.T) {
		env := terminal(t, "r\na\n")
		env.stdoutTTY = false
		if out, _, _ := env.run("check", "App"); strings.Contains(out, "Resolve now?") {
			t.Errorf("prompted:\n%s", out)
		}
	})
	t.Run("scoped check offers no record", func(t *testing.T) {
		env := terminal(t, "r\n\n")
		out, _, _ := env.run("check", "App", "--undeclared-only")
		if strings.Contains(out, "r record") || strings.Contains(out, "recorded App") {
			t.Errorf("scoped check offered record:\n%s", out)
		}
	})
}
