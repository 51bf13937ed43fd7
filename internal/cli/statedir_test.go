package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestCheckMissingStateDir: a mistyped --state-dir is an error (exit 2,
// naming the directory and the way out), not a silent check against no
// baseline; --no-baseline checks without one, and record creates it.
func TestCheckMissingStateDir(t *testing.T) {
	w := appWorld(t, map[string][]appResource{"App": {queue("Q", "q", map[string]any{"VisibilityTimeout": 30}, map[string]any{"DelaySeconds": 5})}})
	e := startSandbox(t, w, testKey, testRegion)
	typo := filepath.Join(e.stateDir, ".realdrfit")
	_, stderr, code := e.run("check", "--state-dir", typo, "--fail", "--undeclared-only", "App")
	if code != ExitError || !strings.Contains(stderr, typo+" does not exist") || !strings.Contains(stderr, "--no-baseline") {
		t.Fatalf("check with a missing state dir: exit %d, stderr %q; want 2 naming %s and --no-baseline", code, stderr, typo)
	}
	if _, stderr, code := e.run("record", "--yes", "App"); code != ExitOK {
		t.Fatalf("record: exit %d, stderr %s", code, stderr)
	}
	e.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("q"), Path: "DelaySeconds", Value: json.RawMessage(`9`)})
	if _, stderr, code := e.run("check", "--fail", "--undeclared-only", "App"); code != ExitDrift {
		t.Fatalf("check against the recorded baseline: exit %d, want 1; stderr %s", code, stderr)
	}
	// The typo is an error, never a clean run against no baseline.
	if _, stderr, code := e.run("check", "--state-dir", typo, "--fail", "--undeclared-only", "App"); code != ExitError {
		t.Fatalf("check with the typo: exit %d, want 2; stderr %s", code, stderr)
	}
	stdout, stderr, code := e.run("check", "--state-dir", typo, "--no-baseline", "--undeclared-only", "App")
	if code != ExitOK || !strings.Contains(stdout, "Q.DelaySeconds") {
		t.Fatalf("check --no-baseline: exit %d, want 0 listing Q.DelaySeconds\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, stderr, code := e.run("record", "--state-dir", typo, "--yes", "App"); code != ExitOK {
		t.Fatalf("record into a new state dir: exit %d, stderr %s", code, stderr)
	}
	if stdout, stderr, code := e.run("check", "--state-dir", typo, "--fail", "--undeclared-only", "App"); code != ExitOK {
		t.Fatalf("check after record: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestRecordUnchangedLeavesFile: a second record with nothing new leaves
// the baseline byte for byte (capturedAt included) and says so.
func TestRecordUnchangedLeavesFile(t *testing.T) {
	w := appWorld(t, map[string][]appResource{"App": {queue("Q", "q", map[string]any{"VisibilityTimeout": 30}, map[string]any{"DelaySeconds": 5})}})
	e := startSandbox(t, w, testKey, testRegion)
	if _, stderr, code := e.run("record", "--yes", "App"); code != ExitOK {
		t.Fatalf("record: exit %d, stderr %s", code, stderr)
	}
	files, err := filepath.Glob(filepath.Join(e.stateDir, "baselines", "*.json"))
	if err != nil || len(files) != 1 {
		t.Fatalf("baselines: %v %v", files, err)
	}
	before, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	// A written capturedAt of another time: the second record must not
	// replace it when nothing else changes.
	old := regexp.MustCompile(`"capturedAt": *"[^"]*"`).ReplaceAll(before, []byte(`"capturedAt": "2001-01-01T00:00:00Z"`))
	if bytes.Equal(old, before) {
		t.Fatal("no capturedAt in the baseline")
	}
	if err := os.WriteFile(files[0], old, 0o644); err != nil {
		t.Fatal(err)
	}
	stdout, stderr, code := e.run("record", "--yes", "App")
	if code != ExitOK || !strings.Contains(stdout, "unchanged") {
		t.Fatalf("second record: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	after, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, old) {
		t.Errorf("second record rewrote the baseline:\n%s\nwant\n%s", after, old)
	}
	// A real change is still recorded.
	e.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("q"), Path: "DelaySeconds", Value: json.RawMessage(`9`)})
	if stdout, _, code := e.run("record", "--yes", "App"); code != ExitOK || !strings.Contains(stdout, "recorded") {
		t.Fatalf("record after a change: exit %d, stdout %q", code, stdout)
	}
	if changed, _ := os.ReadFile(files[0]); bytes.Equal(changed, old) {
		t.Error("record after a change left the file as it was")
	}
}

// TestFirstCheckInFreshDirectory: the first check where no .realdrift
// exists yet works (exit 0, the report printed) and says on stderr that
// there is no baseline yet and what to run; after record it says nothing
// of the kind. Only a named state directory must exist (above).
func TestFirstCheckInFreshDirectory(t *testing.T) {
	w := appWorld(t, map[string][]appResource{"App": {queue("Q", "q", map[string]any{"VisibilityTimeout": 30}, map[string]any{"DelaySeconds": 5})}})
	e := startSandbox(t, w, testKey, testRegion)
	root := t.TempDir()
	t.Chdir(root)
	run := func(verb string, args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		full := append([]string{verb, "--endpoint-url", e.url}, args...)
		code := runVerb(t, t.Context(), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: e.getenv}, full)
		return out.String(), errb.String(), code
	}
	stdout, stderr, code := run("check", "App")
	if code != ExitOK || !strings.Contains(stdout, "Stack App") {
		t.Fatalf("first check: exit %d, want 0 with the report\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stderr, "no baseline yet for App") || !strings.Contains(stderr, "realdrift record App") {
		t.Errorf("first check's stderr does not say there is no baseline yet and what to run:\n%s", stderr)
	}
	if _, err := os.Stat(filepath.Join(root, ".realdrift")); err == nil {
		t.Error("check created .realdrift; only record writes it")
	}
	if _, stderr, code := run("record", "--yes", "App"); code != ExitOK {
		t.Fatalf("record: exit %d, stderr %s", code, stderr)
	}
	if _, stderr, code := run("check", "--fail", "App"); code != ExitOK || strings.Contains(stderr, "no baseline yet") {
		t.Errorf("check after record: exit %d, stderr %q; want 0 and no first-check note", code, stderr)
	}
}
