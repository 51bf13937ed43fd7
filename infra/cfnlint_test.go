package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestCfnLint runs cfn-lint (installed on these machines; .ci/run installs
// it with the test dependencies) on every synthesized template — the
// central stack and each StackSet's template body — and fails on any error
// and on W3037 (an IAM action that does not exist: the misspelt
// cloudcontrol:GetResource kind of mistake). Warnings are logged. Without
// cfn-lint it fails under CI=true and skips with a note elsewhere.
func TestCfnLint(t *testing.T) {
	bin, err := exec.LookPath("cfn-lint")
	if err != nil {
		if ci := os.Getenv("CI"); ci != "" && ci != "false" && ci != "0" {
			t.Fatalf("cfn-lint not installed: %v", err)
		}
		t.Skip("cfn-lint not installed (CI=true makes this a failure)")
	}
	dir := t.TempDir()
	files := map[string]string{}
	b, err := json.Marshal(central)
	if err != nil {
		t.Fatal(err)
	}
	files["central.json"] = string(b)
	for _, r := range resourcesOf(central, "AWS::CloudFormation::StackSet") {
		body, _ := r.props["TemplateBody"].(string)
		if body == "" {
			t.Fatalf("StackSet %s has no literal template body", r.id)
		}
		files[r.id+".json"] = body
	}
	var paths []string
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	out, err := exec.Command(bin, append([]string{"--format", "parseable"}, paths...)...).CombinedOutput()
	if err != nil {
		if _, exit := err.(*exec.ExitError); !exit {
			t.Fatalf("cfn-lint: %v\n%s", err, out)
		}
	}
	warnings := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if line == "" {
			continue
		}
		// file:line:col:endline:endcol:RULE:message
		parts := strings.SplitN(line, ":", 7)
		if len(parts) < 7 {
			t.Errorf("cfn-lint: unexpected output %q", line)
			continue
		}
		rule := parts[5]
		switch {
		case strings.HasPrefix(rule, "E"), rule == "W3037":
			t.Errorf("cfn-lint %s %s: %s (%s:%s)", rule, filepath.Base(parts[0]), parts[6], parts[1], parts[2])
		default:
			warnings[rule]++
		}
	}
	t.Logf("cfn-lint on %d templates: no errors; warnings by rule %v", len(paths), warnings)
}
