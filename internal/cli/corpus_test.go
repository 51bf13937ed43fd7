package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// A tiny case: one declared drift, one default, an extra top-level key.
const corpusCase = `{
  "corpusVersion": 1,
  "futureKey": {"kept": true},
  "resource": {"logicalId": "Q", "resourceType": "AWS::SQS::Queue", "physicalId": "q",
    "declared": {"DelaySeconds": 5}},
  "liveRaw": {"DelaySeconds": 9, "Path": "/"},
  "schema": {"readOnly": [], "writeOnly": [], "createOnly": [], "readOnlyPaths": [], "writeOnlyPaths": [],
    "createOnlyPaths": [], "defaults": {"Path": "/"}},
  "opts": {"accountId": "111111111111", "region": "us-east-1", "kmsAliasTargets": {}},
  "expected": [
    {"tier": "declared", "logicalId": "Q", "resourceType": "AWS::SQS::Queue", "physicalId": "q", "path": "DelaySeconds", "desired": 5, "actual": 9},
    {"tier": "atDefault", "logicalId": "Q", "resourceType": "AWS::SQS::Queue", "physicalId": "q", "path": "Path", "actual": "/"}
  ]
}`

func writeCase(t *testing.T, body string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "AWS__SQS__Queue.Q.json"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCorpusVerb(t *testing.T) {
	dir := writeCase(t, corpusCase)
	out, errs, code := runArgs(t, "corpus", dir)
	if code != ExitOK {
		t.Fatalf("corpus: code %d stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	if !strings.HasPrefix(last, "corpus: 1/1 cases exact") || !strings.Contains(last, "false drift: declared 0, undeclared 0") {
		t.Errorf("summary line %q", last)
	}

	// A mismatch still exits 0 and prints a readable diff.
	wrong := strings.Replace(corpusCase, `"desired": 5, "actual": 9`, `"desired": 5, "actual": 8`, 1)
	out, _, code = runArgs(t, "corpus", writeCase(t, wrong))
	if code != ExitOK || !strings.Contains(out, "FAIL AWS__SQS__Queue.Q.json") || !strings.Contains(out, "differs") {
		t.Errorf("mismatch: code %d out %q", code, out)
	}

	// --json: one line per case, findings in the corpus shape, each line a
	// report of report.schema.json (runVerb validates it).
	out, errs, code = runArgs(t, "corpus", "--json", dir)
	if code != ExitOK {
		t.Fatalf("corpus --json: code %d stderr %q", code, errs)
	}
	var line struct {
		Report   string           `json:"report"`
		File     string           `json:"file"`
		Findings []map[string]any `json:"findings"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(out)), &line); err != nil {
		t.Fatalf("--json line %q: %v", out, err)
	}
	if line.Report != "corpus" || line.File != "AWS__SQS__Queue.Q.json" || len(line.Findings) != 2 || line.Findings[0]["tier"] != "declared" {
		t.Errorf("--json line %+v", line)
	}
}

func TestCorpusVerbBadInput(t *testing.T) {
	if _, _, code := runArgs(t, "corpus"); code != ExitError {
		t.Errorf("no args: code %d", code)
	}
	if _, _, code := runArgs(t, "corpus", filepath.Join(t.TempDir(), "missing")); code != ExitError {
		t.Errorf("missing dir: code %d", code)
	}
	if _, _, code := runArgs(t, "corpus", writeCase(t, `{"resource": `)); code != ExitError {
		t.Errorf("malformed case: code %d", code)
	}
	if _, _, code := runArgs(t, "corpus", t.TempDir()); code != ExitError {
		t.Errorf("empty dir: code %d", code)
	}
}

// badCases writes the tiny good case and two bad ones (accountId a number;
// no liveRaw, declared a list) into one directory.
func badCases(t *testing.T) string {
	t.Helper()
	dir := writeCase(t, corpusCase)
	bad := map[string]string{
		"AWS__SQS__Queue.Account.json": strings.Replace(corpusCase, `"accountId": "111111111111"`, `"accountId": 111111111111`, 1),
		"AWS__SQS__Queue.Shape.json": strings.Replace(strings.Replace(corpusCase,
			`"liveRaw": {"DelaySeconds": 9, "Path": "/"},`, ``, 1),
			`"declared": {"DelaySeconds": 5}`, `"declared": [5]`, 1),
	}
	for name, body := range bad {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A bad case is reported with its path and every problem, the run goes on
// with the other cases, and the exit status is 2 at the end.
func TestCorpusVerbGoesOnPastBadCases(t *testing.T) {
	dir := badCases(t)
	out, errs, code := runArgs(t, "corpus", dir)
	if code != ExitError {
		t.Errorf("exit %d, want 2", code)
	}
	for _, want := range []string{
		filepath.Join(dir, "AWS__SQS__Queue.Account.json") + ": opts.accountId: got a number, want a string\n",
		filepath.Join(dir, "AWS__SQS__Queue.Shape.json") + ": resource.declared: got an array, want an object\n",
		filepath.Join(dir, "AWS__SQS__Queue.Shape.json") + ": liveRaw: missing\n",
	} {
		if !strings.Contains(errs, "realdrift corpus: "+want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "corpus: 1/3 cases exact") || !strings.HasSuffix(last, "; unreadable cases: 2") {
		t.Errorf("summary line %q", last)
	}
}

// sandbox world --from-corpus leaves bad cases out of the world it writes
// and exits 2.
func TestSandboxWorldGoesOnPastBadCases(t *testing.T) {
	dir := badCases(t)
	out := filepath.Join(t.TempDir(), "world.json")
	_, errs, code := runArgs(t, "sandbox", "world", "--from-corpus", dir, "-o", out)
	if code != ExitError {
		t.Errorf("exit %d, want 2", code)
	}
	if !strings.Contains(errs, "realdrift sandbox world: "+filepath.Join(dir, "AWS__SQS__Queue.Account.json")+": opts.accountId:") ||
		!strings.Contains(errs, filepath.Join(dir, "AWS__SQS__Queue.Shape.json")+": liveRaw: missing") {
		t.Errorf("stderr:\n%s", errs)
	}
	w, err := sandbox.LoadWorld(out)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			for _, s := range r.Stacks {
				n += len(s.Resources)
			}
		}
	}
	if n != 1 {
		t.Errorf("world has %d resources, want the good case's 1", n)
	}
}
