package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/report/reporttest"
)

// reportVerbs are the verbs that write a JSON report (report.schema.json):
// corpus --json one a line, schema stats --json one.
var reportVerbs = []string{"check", "diff", "revert", "corpus", "schema"}

// runVerb is Run for the tests: it runs args and validates every JSON
// report the run wrote — to stdout (--json, --format json) or to a file
// (-o json://FILE, -o FILE with --format json) — against
// report.schema.json. Every test in this package runs verbs through it
// (TestRunsValidateReports).
func runVerb(t testing.TB, ctx context.Context, s IO, args []string) int {
	t.Helper()
	var before int
	if b, ok := s.Stdout.(interface{ String() string }); ok {
		before = len(b.String())
	}
	// A file the run leaves as it was (an interrupted run writes none) is
	// not its report.
	old := map[string][]byte{}
	for _, p := range jsonFiles(args) {
		if b, err := os.ReadFile(p); err == nil {
			old[p] = b
		}
	}
	code := Run(ctx, s, args)
	if len(args) == 0 || !slices.Contains(reportVerbs, args[0]) || slices.Contains(args, "--help") || slices.Contains(args, "-h") {
		return code
	}
	what := "realdrift " + strings.Join(args, " ")
	if b, ok := s.Stdout.(interface{ String() string }); ok && len(b.String()) >= before {
		out := bytes.TrimSpace([]byte(b.String()[before:]))
		if len(out) > 0 && (wantsJSON(args) || isReport(out)) {
			for i, doc := range documents(args[0], out) {
				reporttest.Validate(t, fmt.Sprintf("%s (stdout, document %d)", what, i+1), doc)
			}
		}
	}
	for _, p := range jsonFiles(args) {
		b, err := os.ReadFile(p)
		if prev, ok := old[p]; err != nil || ok && bytes.Equal(b, prev) {
			continue // the run did not write it
		}
		reporttest.Validate(t, what+" ("+filepath.Base(p)+")", b)
	}
	return code
}

// documents are the JSON documents of a verb's stdout: one a line for
// corpus (JSON lines), else the whole output.
func documents(verb string, out []byte) [][]byte {
	if verb != "corpus" {
		return [][]byte{out}
	}
	var docs [][]byte
	for _, line := range bytes.Split(out, []byte("\n")) {
		if line = bytes.TrimSpace(line); len(line) > 0 {
			docs = append(docs, line)
		}
	}
	return docs
}

// wantsJSON reports whether args ask for the JSON report on stdout:
// --json or --format json, and no -o FILE taking the primary report.
func wantsJSON(args []string) bool {
	if !wantsJSONFormat(args) {
		return false
	}
	for i := range args {
		if v, ok := outputValue(args, i); ok && !strings.Contains(v, "://") {
			return false
		}
	}
	return true
}

// isReport: out is a JSON object naming a schemaVersion, as only the
// JSON reports do (SARIF and ASFF do not).
func isReport(out []byte) bool {
	if len(out) == 0 || out[0] != '{' {
		return false
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(out, &probe) != nil {
		return false
	}
	_, ok := probe["schemaVersion"]
	return ok
}

// jsonFiles are the files args send a JSON report to: -o json://FILE,
// and -o FILE when the format is json.
func jsonFiles(args []string) []string {
	var out []string
	for i := range args {
		v, ok := outputValue(args, i)
		if !ok {
			continue
		}
		if p, found := strings.CutPrefix(v, "json://"); found {
			out = append(out, p)
		} else if !strings.Contains(v, "://") && wantsJSONFormat(args) {
			out = append(out, v)
		}
	}
	return out
}

// outputValue is the value of an -o / --output flag at args[i].
func outputValue(args []string, i int) (string, bool) {
	a := args[i]
	switch {
	case (a == "-o" || a == "--output") && i+1 < len(args):
		return args[i+1], true
	case strings.HasPrefix(a, "-o="), strings.HasPrefix(a, "--output="):
		return a[strings.Index(a, "=")+1:], true
	}
	return "", false
}

// wantsJSONFormat: --json or --format json.
func wantsJSONFormat(args []string) bool {
	i := slices.Index(args, "--format")
	return slices.Contains(args, "--json") || slices.Contains(args, "--format=json") || i >= 0 && i+1 < len(args) && args[i+1] == "json"
}

// runCall is a direct call of Run in a test file.
var runCall = regexp.MustCompile(`(^|[^.\w])Run\(`)

// TestRunsValidateReports: the package's tests run verbs through runVerb,
// so every JSON report they produce is validated against
// report.schema.json. Only the files that run the binary's main in a
// child process (with real files as stdio) call Run themselves.
func TestRunsValidateReports(t *testing.T) {
	own := map[string]bool{
		"reportjson_test.go":             true, // runVerb
		"action_test.go":                 true, // the action's child-process main
		"prompt_interrupt_linux_test.go": true, // a child-process main
		"pty_linux_test.go":              true, // stdio on a pseudo-terminal
	}
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if own[f] {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if runCall.MatchString(line) && !strings.Contains(line, "func ") {
				t.Errorf("%s:%d calls Run directly; use runVerb so its JSON reports are validated: %s", f, i+1, strings.TrimSpace(line))
			}
		}
	}
}
