package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// twoStackEnv: stacks App and Other recorded, then App's queue changed out
// of band (App drifts, Other is clean).
func twoStackEnv(t *testing.T) *sandboxEnv {
	t.Helper()
	w := appWorld(t, map[string][]appResource{
		"App":   {queue("Q", "q", map[string]any{"VisibilityTimeout": 30}, map[string]any{"DelaySeconds": 5})},
		"Other": {queue("Q", "other-q", map[string]any{"VisibilityTimeout": 30}, nil)},
	})
	e := startSandbox(t, w, testKey, testRegion)
	if _, stderr, code := e.run("record", "--yes", "--all"); code != ExitOK {
		t.Fatalf("record: exit %d %s", code, stderr)
	}
	e.change(sandbox.Change{Op: sandbox.OpSet, Type: "AWS::SQS::Queue", Identifier: queueURL("q"), Path: "DelaySeconds", Value: json.RawMessage(`9`)})
	return e
}

// TestCheckTotalQuietHideClean: a run of several stacks ends with a grand
// total; --hide-clean and --quiet leave the clean stack out (--quiet the
// info footer too) and keep the total.
func TestCheckTotalQuietHideClean(t *testing.T) {
	e := twoStackEnv(t)
	const total = "total: 2 stacks — 1 with drift (1 finding), 0 with potential drift (0), 1 clean, 0 errors"
	out, _, _ := e.run("check", "--all")
	if !strings.Contains(out, "Stack Other") || !strings.HasSuffix(out, total+"\n") {
		t.Errorf("check --all: want both stacks and the total last:\n%s", out)
	}
	for _, flag := range []string{"--hide-clean", "--quiet"} {
		out, _, _ := e.run("check", "--all", flag)
		if strings.Contains(out, "Stack Other") || !strings.Contains(out, "Stack App") || !strings.HasSuffix(out, total+"\n") {
			t.Errorf("check %s: want App only and the total:\n%s", flag, out)
		}
		if flag == "--quiet" && strings.Contains(out, "info:") {
			t.Errorf("check --quiet prints the info footer:\n%s", out)
		}
	}
}

// TestCheckOutputFile: -o writes the report to the file (atomically, no
// temporary left), stdout stays empty.
func TestCheckOutputFile(t *testing.T) {
	e := twoStackEnv(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "report.json")
	stdout, stderr, code := e.run("check", "--all", "--format", "json", "-o", p)
	if code != ExitOK || stdout != "" {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, stdout, stderr)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil || doc["stacks"] == nil {
		t.Errorf("report file is not the JSON report: %v\n%s", err, data)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("files left beside the report: %v", ents)
	}
	if _, stderr, code := e.run("check", "--all", "-o", filepath.Join(dir, "no", "such", "r.txt")); code != ExitError || !strings.Contains(stderr, "does not exist") {
		t.Errorf("-o into a missing directory: exit %d %q", code, stderr)
	}
	if _, stderr, code := e.run("check", "--all", "--format", "yaml"); code != ExitError || !strings.Contains(stderr, "--format") {
		t.Errorf("--format yaml: exit %d %q", code, stderr)
	}
}

// TestStackNameDidYouMean: a stack name that matches nothing suggests the
// closest deployed one.
func TestStackNameDidYouMean(t *testing.T) {
	e := twoStackEnv(t)
	_, stderr, code := e.run("check", "Otehr")
	if code != ExitError || !strings.Contains(stderr, "did you mean Other?") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestColorOn(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, tc := range []struct {
		name    string
		s       IO
		noColor bool
		want    bool
	}{
		{"terminal", IO{IsTTY: true, Getenv: env("TERM", "xterm-256color")}, false, true},
		{"pipe", IO{IsTTY: false, Getenv: env()}, false, false},
		{"--no-color", IO{IsTTY: true, Getenv: env()}, true, false},
		{"NO_COLOR", IO{IsTTY: true, Getenv: env("NO_COLOR", "1")}, false, false},
		{"TERM=dumb", IO{IsTTY: true, Getenv: env("TERM", "dumb")}, false, false},
	} {
		if got := colorOn(tc.s, tc.noColor); got != tc.want {
			t.Errorf("%s: colorOn = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestCheckFormatSARIFJUnit: check --format sarif puts App's drift on the
// line of the deployed template that declares the queue; junit parses.
func TestCheckFormatSARIFJUnit(t *testing.T) {
	e := twoStackEnv(t)
	out, stderr, code := e.run("check", "--all", "--format", "sarif")
	if code != ExitOK {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var log struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI string }    `json:"artifactLocation"`
						Region           struct{ StartLine int } `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if log.Version != "2.1.0" || len(log.Runs) != 1 || len(log.Runs[0].Results) != 1 {
		t.Fatalf("want one result:\n%s", out)
	}
	loc := log.Runs[0].Results[0].Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "" || log.Runs[0].Results[0].RuleID != "RD003" {
		t.Errorf("result at %s:%d rule %s, want no file (no --app: a logical location only) and RD003", loc.ArtifactLocation.URI, loc.Region.StartLine, log.Runs[0].Results[0].RuleID)
	}
	out, _, code = e.run("check", "--all", "--format", "junit")
	if code != ExitOK || !strings.HasPrefix(out, "<?xml") || !strings.Contains(out, `<testsuites name="realdrift" tests="3" failures="1" errors="0" skipped="0">`) {
		t.Errorf("junit: exit %d\n%s", code, out)
	}
}

// TestCheckFormatASFF: --format asff writes App's one drift as a Security
// Hub finding of App's account and region.
func TestCheckFormatASFF(t *testing.T) {
	e := twoStackEnv(t)
	out, stderr, code := e.run("check", "--all", "--format", "asff")
	if code != ExitOK {
		t.Fatalf("exit %d %s", code, stderr)
	}
	var fs []struct {
		AwsAccountID string `json:"AwsAccountId"`
		Region       string
		Severity     struct{ Label string }
	}
	if err := json.Unmarshal([]byte(out), &fs); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(fs) != 1 || fs[0].AwsAccountID != testAccount || fs[0].Region != testRegion || fs[0].Severity.Label != "MEDIUM" {
		t.Errorf("findings: %+v\n%s", fs, out)
	}
}

// TestCheckSeveralOutputs: one check writes the --format report to stdout
// and, with --output FORMAT://FILE (driftctl's convention), every other
// format to its file — the same reports separate runs write; a bad value
// is exit 2 before anything is written; a failed run leaves every file as
// it was.
func TestCheckSeveralOutputs(t *testing.T) {
	e := twoStackEnv(t)
	dir := t.TempDir()
	path := func(name string) string { return filepath.Join(dir, name) }
	args := []string{"check", "--all", "--format", "text"}
	for _, f := range []string{"sarif", "junit", "markdown", "json", "asff", "text"} {
		args = append(args, "--output", f+"://"+path("r."+f))
	}
	out, stderr, code := e.run(args[0], args[1:]...)
	if code != ExitOK || !strings.Contains(out, "Stack App") {
		t.Fatalf("exit %d, stdout %q, stderr %s", code, out, stderr)
	}
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(path(name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got := read("r.text"); got != out {
		t.Errorf("text://: %q, want stdout %q", got, out)
	}
	for _, f := range []string{"sarif", "junit", "markdown"} {
		alone, _, _ := e.run("check", "--all", "--format", f)
		if got := read("r." + f); got != alone {
			t.Errorf("%s://: differs from check --format %s:\n%s\n---\n%s", f, f, got, alone)
		}
	}
	var doc struct {
		Stacks []any `json:"stacks"`
	}
	if err := json.Unmarshal([]byte(read("r.json")), &doc); err != nil || len(doc.Stacks) != 2 {
		t.Errorf("json://: %v %+v", err, doc)
	}
	var asff []any
	if err := json.Unmarshal([]byte(read("r.asff")), &asff); err != nil || len(asff) != 1 {
		t.Errorf("asff://: %v %+v", err, asff)
	}
	// -o FILE and --output FORMAT://FILE together: stdout is empty.
	if out, stderr, code := e.run("check", "--all", "--format", "json", "-o", path("main.json"), "--output", "junit://"+path("main.xml")); code != ExitOK || out != "" {
		t.Errorf("-o FILE --output junit://FILE: exit %d, stdout %q, stderr %s", code, out, stderr)
	} else if !strings.HasPrefix(read("main.xml"), "<?xml") || !strings.HasPrefix(read("main.json"), "{") {
		t.Errorf("main.json / main.xml not written")
	}

	for _, bad := range [][]string{
		{"--output", "yaml://" + path("x")},
		{"--output", "sarif://"},
		{"-o", path("a"), "-o", path("b")},
		{"--output", "sarif://" + path("s"), "--output", "junit://" + path("s")},
	} {
		if _, stderr, code := e.run("check", append([]string{"--all"}, bad...)...); code != ExitError || !strings.Contains(stderr, "invalid value") {
			t.Errorf("check %v: exit %d %q, want 2 naming the value", bad, code, stderr)
		}
	}
	// A failed run (an unknown stack): every file keeps what it held.
	if err := os.WriteFile(path("r.sarif"), []byte("before"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, code := e.run("check", "NoSuchStack", "--output", "sarif://"+path("r.sarif"), "--output", "junit://"+path("r.junit")); code != ExitError {
		t.Errorf("unknown stack: exit %d, want 2", code)
	}
	if read("r.sarif") != "before" || !strings.HasPrefix(read("r.junit"), "<?xml") {
		t.Errorf("a failed run changed the files")
	}
	if m, _ := filepath.Glob(filepath.Join(dir, ".*.tmp")); len(m) > 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// TestCheckAppSARIFLocations: with --app and the cloud assembly under the
// working directory, a SARIF result sits in the synthesized template file
// on the resource's line, with the construct's source file and line from
// the assembly's metadata trace as a related location, and the tool
// names its version; without --app the result has a logical location
// only (account/region/stack/logical id), no invented file.
func TestCheckAppSARIFLocations(t *testing.T) {
	env := newAppEnv(t)
	repo := t.TempDir()
	t.Chdir(repo)
	out := filepath.Join(repo, "cdk.out")
	if err := os.MkdirAll(filepath.Join(repo, "lib"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "lib", "app-stack.ts"), []byte(strings.Repeat("// line\n", 30)), 0o644); err != nil {
		t.Fatal(err)
	}
	rs := appResources()
	rs[0].declared = map[string]any{"VisibilityTimeout": 99, "RedrivePolicy": rs[0].declared["RedrivePolicy"]}
	writeAssembly(t, out, rs)
	// CDK_DEBUG's trace on the queue's logicalId entry.
	mf := filepath.Join(out, "manifest.json")
	b, _ := os.ReadFile(mf)
	b = []byte(strings.Replace(string(b), `"type":"aws:cdk:logicalId"`, `"trace":["new Queue (`+repo+`/node_modules/aws-cdk-lib/aws-sqs/lib/queue.js:1:2)","new AppStack (`+repo+`/lib/app-stack.ts:17:5)"],"type":"aws:cdk:logicalId"`, 1))
	if err := os.WriteFile(mf, b, 0o644); err != nil {
		t.Fatal(err)
	}
	type location struct {
		PhysicalLocation *struct {
			ArtifactLocation struct{ URI string }    `json:"artifactLocation"`
			Region           struct{ StartLine int } `json:"region"`
		} `json:"physicalLocation"`
		LogicalLocations []struct {
			FullyQualifiedName string `json:"fullyQualifiedName"`
		} `json:"logicalLocations"`
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Version string } `json:"driver"`
			} `json:"tool"`
			Results []struct {
				Locations        []location `json:"locations"`
				RelatedLocations []location `json:"relatedLocations"`
			} `json:"results"`
		} `json:"runs"`
	}
	stdout, stderr, code := env.run("check", "--app", "cdk.out", "--pre-deploy", "--format", "sarif")
	if err := json.Unmarshal([]byte(stdout), &log); code != ExitOK || err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("exit %d %v\n%s\n%s", code, err, stdout, stderr)
	}
	if log.Runs[0].Tool.Driver.Version == "" {
		t.Errorf("no tool version")
	}
	r := log.Runs[0].Results[0]
	if pl := r.Locations[0].PhysicalLocation; pl == nil || pl.ArtifactLocation.URI != "cdk.out/App.template.json" || pl.Region.StartLine < 1 {
		t.Errorf("location %+v, want cdk.out/App.template.json on the queue's line", pl)
	}
	if len(r.RelatedLocations) != 1 || r.RelatedLocations[0].PhysicalLocation.ArtifactLocation.URI != "lib/app-stack.ts" || r.RelatedLocations[0].PhysicalLocation.Region.StartLine != 17 {
		t.Errorf("related locations %+v, want lib/app-stack.ts:17", r.RelatedLocations)
	}

	stdout, _, _ = env.run("check", "--all", "--no-baseline", "--format", "sarif")
	log.Runs = nil
	if err := json.Unmarshal([]byte(stdout), &log); err != nil || len(log.Runs) != 1 || len(log.Runs[0].Results) == 0 {
		t.Fatalf("%v\n%s", err, stdout)
	}
	for _, r := range log.Runs[0].Results {
		if r.Locations[0].PhysicalLocation != nil || !strings.HasPrefix(r.Locations[0].LogicalLocations[0].FullyQualifiedName, testAccount+"/"+testRegion+"/App/") {
			t.Errorf("without --app: %+v, want a logical location only", r.Locations[0])
		}
	}
}
