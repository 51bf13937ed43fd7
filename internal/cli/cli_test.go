package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func runArgs(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runVerb(t, context.Background(), IO{Stdout: &out, Stderr: &errb}, args)
	return out.String(), errb.String(), code
}

func TestUnknownCommandAndFlags(t *testing.T) {
	if _, errs, code := runArgs(t, "frobnicate"); code != ExitError || !strings.Contains(errs, "unknown command") {
		t.Errorf("unknown command: code %d stderr %q", code, errs)
	}
	for _, c := range commands() {
		if _, errs, code := runArgs(t, c.name, "--no-such-flag"); code != ExitError || !strings.Contains(errs, "no-such-flag") {
			t.Errorf("%s --no-such-flag: code %d stderr %q", c.name, code, errs)
		}
	}
}

func TestHelpEveryCommand(t *testing.T) {
	if out, _, code := runArgs(t, "--help"); code != ExitOK || !strings.Contains(out, "Commands:") {
		t.Errorf("--help: code %d out %q", code, out)
	}
	for _, c := range commands() {
		if out, _, code := runArgs(t, c.name, "--help"); code != ExitOK || !strings.Contains(out, "Usage: realdrift "+c.name) {
			t.Errorf("%s --help: code %d out %q", c.name, code, out)
		}
	}
}
