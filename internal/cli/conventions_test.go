package cli

import (
	"bytes"
	"context"
	"os/exec"
	"runtime/debug"
	"strings"
	"testing"
)

// runArgs runs realdrift in-process with no environment.
func runPlain(t testing.TB, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runVerb(t, context.Background(), IO{Stdout: &out, Stderr: &errb}, args)
	return out.String(), errb.String(), code
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		out, _, code := runPlain(t, args...)
		if code != ExitOK || !strings.HasPrefix(out, "realdrift ") {
			t.Errorf("%v: exit %d, %q", args, code, out)
		}
	}
	got := versionOf(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-01-02T03:04:05Z"}, {Key: "vcs.modified", Value: "true"}}}, stamp{})
	if want := "realdrift v1.2.3 (commit 0123456789ab, modified, 2026-01-02T03:04:05Z) go1.26.8"; got != want {
		t.Errorf("versionOf = %q, want %q", got, want)
	}
	// A release build without VCS stamping (-buildvcs=false, -trimpath)
	// prints the tag and commit the linker was given.
	got = versionOf(&debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "(devel)"}}, stamp{"v1.4.0", "fedcba9876543210", "2026-03-04T05:06:07Z"})
	if want := "realdrift v1.4.0 (commit fedcba987654, 2026-03-04T05:06:07Z) go1.26.8"; got != want {
		t.Errorf("versionOf with a release stamp = %q, want %q", got, want)
	}
}

// TestHelpVerb: help VERB prints the verb's help, not the top-level one;
// flags are spelled --all as the README spells them.
func TestHelpVerb(t *testing.T) {
	out, _, code := runPlain(t, "help", "check")
	if code != ExitOK || !strings.HasPrefix(out, "Usage: realdrift check") {
		t.Fatalf("help check: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, "\n  --all\n") || strings.Contains(out, "\n  -all\n") {
		t.Errorf("help check shows -all, not --all:\n%s", out)
	}
	if !strings.Contains(out, "  --region string") {
		t.Errorf("help check lacks --region string:\n%s", out)
	}
	if _, errs, code := runPlain(t, "help", "chek"); code != ExitError || !strings.Contains(errs, "did you mean check?") {
		t.Errorf("help chek: exit %d, %q", code, errs)
	}
}

func TestDidYouMean(t *testing.T) {
	if _, errs, code := runPlain(t, "recrod"); code != ExitError || !strings.Contains(errs, "did you mean record?") {
		t.Errorf("verb typo: exit %d, %q", code, errs)
	}
	if _, errs, code := runPlain(t, "check", "--regoin", "x"); code != ExitError || !strings.Contains(errs, "did you mean --region?") {
		t.Errorf("flag typo: exit %d, %q", code, errs)
	}
	if _, errs, _ := runPlain(t, "zzzzzz"); strings.Contains(errs, "did you mean") {
		t.Errorf("no suggestion expected: %q", errs)
	}
	for _, tc := range []struct{ got, want string }{
		{"chekc", "check"}, {"Prod-Api", "Prod-API"}, {"revrt", "revert"}, {"x", ""}, {"AppStak", "AppStack"},
	} {
		if s := suggest(tc.got, []string{"check", "record", "revert", "Prod-API", "AppStack"}); s != tc.want {
			t.Errorf("suggest(%q) = %q, want %q", tc.got, s, tc.want)
		}
	}
}

func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		out, errs, code := runPlain(t, "completion", sh)
		if code != ExitOK {
			t.Fatalf("completion %s: exit %d %s", sh, code, errs)
		}
		for _, want := range []string{"check", "record", "all", "state-dir", "no-baseline"} {
			if !strings.Contains(out, want) {
				t.Errorf("completion %s lacks %q", sh, want)
			}
		}
		if path, err := exec.LookPath(sh); err == nil {
			cmd := exec.Command(path, "-n")
			if sh == "fish" {
				cmd = exec.Command(path, "--no-execute")
			}
			cmd.Stdin = strings.NewReader(out)
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("%s -n: %v\n%s", sh, err, b)
			}
		}
	}
	out, _, _ := runPlain(t, "completion", "bash")
	if !strings.Contains(out, `check) COMPREPLY=($(compgen -W "--all`) {
		t.Errorf("bash completion: check's flags missing:\n%s", out)
	}
	if _, errs, code := runPlain(t, "completion", "bsh"); code != ExitError || !strings.Contains(errs, "did you mean bash?") {
		t.Errorf("completion bsh: exit %d %q", code, errs)
	}
}
