package cli

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/deadlinetest"
)

// TestRealdriftMainChild is the realdrift binary for scripts run by the
// tests (TestActionScript): under REALDRIFT_TEST_MAIN=1 it runs the
// arguments after -- as realdrift's main does and exits with its status.
func TestRealdriftMainChild(t *testing.T) {
	if os.Getenv("REALDRIFT_TEST_MAIN") != "1" {
		return // only as a child of TestActionScript
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadlinetest.Scale(t, 2*time.Minute))
	code := Run(ctx, StdIO(os.Stdin, os.Stdout, os.Stderr, os.Getenv), flag.Args())
	cancel()
	os.Exit(code)
}

// TestActionScript runs the GitHub Action's shell steps
// (scripts/action.sh check) as a workflow would, with a fake GITHUB_*
// environment, against the sandbox: App has drifted, Other is clean. One
// invocation writes the SARIF report, the JUnit report, the Markdown
// report appended to the job summary, and the step outputs; --fail makes
// exit-code 1 while the script itself succeeds (the action's last step
// fails the job, after the SARIF upload).
func TestActionScript(t *testing.T) {
	e := twoStackEnv(t)
	tmp := t.TempDir()
	wrapper := realdriftBinary(t, tmp)
	out := filepath.Join(tmp, "runner", "realdrift")
	summary, outputs := filepath.Join(tmp, "summary.md"), filepath.Join(tmp, "output")
	for _, f := range []string{summary, outputs} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("bash", "../../scripts/action.sh", "check")
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + tmp, "CI=true", "NO_COLOR=1",
		"GITHUB_ACTIONS=true", "GITHUB_STEP_SUMMARY=" + summary, "GITHUB_OUTPUT=" + outputs,
		"GITHUB_ACTION_PATH=" + filepath.Join("..", ".."), "RUNNER_TEMP=" + filepath.Join(tmp, "runner"),
		"RUNNER_OS=Linux", "RUNNER_ARCH=X64",
		"AWS_ACCESS_KEY_ID=" + e.key, "AWS_SECRET_ACCESS_KEY=sandbox-secret", "AWS_REGION=" + e.region,
		"AWS_CONFIG_FILE=" + filepath.Join(tmp, "no-such-aws-config"), "AWS_SHARED_CREDENTIALS_FILE=" + filepath.Join(tmp, "no-such-credentials"),
		"REALDRIFT=" + wrapper,
		"RD_STACKS=App Other", "RD_FAIL=true", "RD_FORMAT=text",
		"RD_ARGS=--endpoint-url " + e.url + " --state-dir " + e.stateDir,
	}
	log, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/action.sh check: %v\n%s", err, log)
	}
	if !strings.Contains(string(log), "Stack App") || !strings.Contains(string(log), "::group::realdrift check (text)") {
		t.Errorf("the log lacks the text report:\n%s", log)
	}

	got := map[string]string{}
	b, _ := os.ReadFile(outputs)
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		k, v, _ := strings.Cut(l, "=")
		got[k] = v
	}
	want := map[string]string{
		"sarif": filepath.Join(out, "realdrift.sarif"), "junit": filepath.Join(out, "realdrift.xml"),
		"markdown": filepath.Join(out, "realdrift.md"), "exit-code": "1", "verdict": "DRIFT",
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("output %s = %q, want %q", k, got[k], v)
		}
	}

	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID string `json:"ruleId"`
			} `json:"results"`
		} `json:"runs"`
	}
	if b, err := os.ReadFile(want["sarif"]); err != nil || json.Unmarshal(b, &sarif) != nil || sarif.Version != "2.1.0" || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) == 0 {
		t.Errorf("realdrift.sarif: %v %+v", err, sarif)
	}
	var junit struct {
		Failures int `xml:"failures,attr"`
		Tests    int `xml:"tests,attr"`
	}
	if b, err := os.ReadFile(want["junit"]); err != nil || xml.Unmarshal(b, &junit) != nil || junit.Failures == 0 {
		t.Errorf("realdrift.xml: %v %+v\n%s", err, junit, b)
	}
	md, _ := os.ReadFile(want["markdown"])
	sum, _ := os.ReadFile(summary)
	if !strings.HasPrefix(string(md), "## realdrift check: DRIFT\n") || !strings.Contains(string(md), "### Stack `App (") ||
		!strings.Contains(string(md), "**Clean (1):** `Other (") || string(sum) != string(md) {
		t.Errorf("markdown report / job summary:\n%s\n---\n%s", md, sum)
	}
	if b, _ := os.ReadFile(filepath.Join(tmp, "invocations")); string(b) != "check\n" {
		t.Errorf("the script ran realdrift %q, want one check for every report", b)
	}
	t.Logf("job summary:\n%s", sum)
}

// realdriftBinary writes dir/realdrift, an executable that runs this test
// binary as realdrift (TestRealdriftMainChild) and appends the verb of each
// run to dir/invocations, and returns its path.
func realdriftBinary(t *testing.T, dir string) string {
	t.Helper()
	wrapper := filepath.Join(dir, "realdrift")
	script := "#!/bin/sh\necho \"$1\" >>" + shellQuote(filepath.Join(dir, "invocations")) +
		"\nREALDRIFT_TEST_MAIN=1 exec " + shellQuote(os.Args[0]) + " -test.run='^TestRealdriftMainChild$' -- \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrapper
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
