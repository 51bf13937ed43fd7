package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/cfn/cfntest"
	"github.com/realdrift/realdrift/internal/drift"
)

// TestReadAssemblyRealCDK reads the real cloud assemblies: stack names,
// template files and construct paths from the metadata files.
func TestReadAssemblyRealCDK(t *testing.T) {
	cases := []struct {
		dir      string
		stacks   []string
		logical  string
		construc string
	}{
		{"api-lambda", []string{"ApiLambdaStack"}, "OrdersTable", ""},
		{"cross-stack", []string{"CrossStackConsumer", "CrossStackProducer"}, "", ""},
		{"nested", []string{"NestedParentStack"}, "", ""},
	}
	for _, c := range cases {
		t.Run(c.dir, func(t *testing.T) {
			a, err := readAssembly(filepath.Join(cfntest.Require(t), c.dir))
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, s := range a.stacks {
				names = append(names, s.name)
				if _, err := s.template(); err != nil {
					t.Errorf("%s: %v", s.name, err)
				}
				if len(s.paths) == 0 {
					t.Errorf("%s: no construct paths from the metadata", s.name)
				}
				for lid, p := range s.paths {
					if !strings.HasPrefix(p, s.name+"/") {
						t.Errorf("%s: %s → %q does not start with the stack", s.name, lid, p)
					}
				}
			}
			if diff := cmp.Diff(names, c.stacks); diff != "" {
				t.Errorf("stacks (-got +want):\n%s", diff)
			}
		})
	}
	if _, err := readAssembly(t.TempDir()); err == nil || !strings.Contains(err.Error(), "manifest.json") {
		t.Errorf("empty dir: %v, want a no-manifest error", err)
	}
}

// writeAssembly writes a one-stack cloud assembly for the test app whose
// template is the given resources' template.
func writeAssembly(t *testing.T, dir string, rs []appResource) {
	t.Helper()
	writeAssemblyIn(t, dir, "aws://unknown-account/unknown-region", rs)
}

func writeAssemblyIn(t *testing.T, dir, environment string, rs []appResource) {
	t.Helper()
	st := appStackOf(t, "App", rs)
	if err := os.WriteFile(filepath.Join(dir, "App.template.json"), []byte(st.TemplateBody), 0o644); err != nil {
		t.Fatal(err)
	}
	m := map[string]any{
		"version": "55.0.0",
		"artifacts": map[string]any{
			"App": map[string]any{
				"type":        "aws:cloudformation:stack",
				"environment": environment,
				"properties":  map[string]any{"templateFile": "App.template.json"},
				"metadata": map[string]any{
					"/App/Orders/Queue/Resource": []any{map[string]any{"type": "aws:cdk:logicalId", "data": "OrdersQueue1234"}},
				},
			},
		},
	}
	b, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestCheckApp(t *testing.T) {
	env := newAppEnv(t)
	// A second deployed stack that the app does not define.
	dir := t.TempDir()
	// The local code raised VisibilityTimeout; not deployed yet.
	rs := appResources()
	rs[0].declared = map[string]any{"VisibilityTimeout": 99, "RedrivePolicy": rs[0].declared["RedrivePolicy"]}
	writeAssembly(t, dir, rs)

	t.Run("assembly directory", func(t *testing.T) {
		rep, errs, code := env.checkJSON("--app", dir, "--fail")
		if code != ExitOK || len(rep.Stacks) != 1 || rep.Stacks[0].Stack != "App" {
			t.Fatalf("exit %d stacks %+v\n%s", code, rep.Stacks, errs)
		}
		// The deployed template still decides: no declared drift.
		if f, ok := rep.find("OrdersQueue1234", "VisibilityTimeout"); ok {
			t.Errorf("deployed-template check reported %+v", f)
		}
	})
	t.Run("pre-deploy compares the synthesized template", func(t *testing.T) {
		before, _ := os.ReadDir(env.stateDir)
		rep, errs, code := env.checkJSON("--app", dir, "--pre-deploy", "--fail")
		if code != ExitDrift {
			t.Fatalf("exit %d, want 1\n%s", code, errs)
		}
		f, ok := rep.find("OrdersQueue1234", "VisibilityTimeout")
		if !ok || f.Tier != drift.Declared {
			t.Errorf("VisibilityTimeout: %+v, want declared drift against the synthesized 99", f)
		}
		for _, s := range rep.Stacks {
			for _, f := range s.Findings {
				if f.Tier == drift.Undeclared || f.Tier == drift.Added || f.Tier == drift.AtDefault {
					t.Errorf("pre-deploy reported a live-only finding: %+v", f)
				}
			}
		}
		after, _ := os.ReadDir(env.stateDir)
		if len(after) != len(before) {
			t.Errorf("pre-deploy wrote state: %v → %v", before, after)
		}
	})
	t.Run("app command with CDK_OUTDIR", func(t *testing.T) {
		// A temporary directory of this test's own: other test processes
		// on the machine make and remove their assemblies in theirs.
		t.Setenv("TMPDIR", t.TempDir())
		before, _ := filepath.Glob(filepath.Join(os.TempDir(), "realdrift-cdkout-*"))
		rep, errs, code := env.checkJSON("--app", "cp '"+dir+"'/* \"$CDK_OUTDIR\"/", "--fail")
		if code != ExitOK || len(rep.Stacks) != 1 {
			t.Fatalf("exit %d stacks %d\n%s", code, len(rep.Stacks), errs)
		}
		if after, _ := filepath.Glob(filepath.Join(os.TempDir(), "realdrift-cdkout-*")); len(after) != len(before) {
			t.Errorf("the app's temporary assembly was left behind: %v", after)
		}
	})
	t.Run("a stack's pinned region needs no default", func(t *testing.T) {
		pinned := t.TempDir()
		writeAssemblyIn(t, pinned, "aws://"+testAccount+"/"+testRegion, appResources())
		e := *env
		e.region = ""
		rep, errs, code := e.checkJSON("--app", pinned)
		if code != ExitOK || len(rep.Stacks) != 1 || rep.Stacks[0].Region != testRegion {
			t.Errorf("exit %d stacks %+v\n%s", code, rep.Stacks, errs)
		}
		if _, errs, code := e.run("check", "--app", dir); code != ExitError || !strings.Contains(errs, "no region") {
			t.Errorf("environment-agnostic app without a region: exit %d %q", code, errs)
		}
	})
	t.Run("a pattern the app does not define", func(t *testing.T) {
		_, errs, code := env.run("check", "--app", dir, "Other")
		if code != ExitError || !strings.Contains(errs, "Other") {
			t.Errorf("exit %d stderr %q", code, errs)
		}
	})
	t.Run("failing app command", func(t *testing.T) {
		_, errs, code := env.run("check", "--app", "exit 3")
		if code != ExitError || !strings.Contains(errs, "--app") {
			t.Errorf("exit %d stderr %q", code, errs)
		}
	})
}
