package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/realdrift/realdrift/internal/cfn"
	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// worldDiff is diff --json as selfDiff reads it: the whole nested tree.
type worldDiff struct {
	Stack   string `json:"stack"`
	Changes []struct {
		LogicalID  string `json:"logicalId"`
		Action     string `json:"action"`
		Properties []struct {
			Path string `json:"path"`
		} `json:"properties"`
	} `json:"changes"`
	OutputChanges []struct {
		Name string `json:"name"`
	} `json:"outputChanges"`
	Children []worldDiff `json:"children"`
	Error    string      `json:"error"`
}

// selfDiff diffs every stack of w against its own deployed template, per
// account and region, as a cloud assembly holds them: a nested stack is
// not an artifact but the asset file its parent's stack resource names
// (aws:asset:path), reached by diff --recursive. It returns the number of
// stacks diffed (nested ones included) and of changes reported (each a
// false change).
func selfDiff(t *testing.T, w *sandbox.World, key func(account string) string) (stacks, changes int) {
	t.Helper()
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			if len(r.Stacks) == 0 {
				continue
			}
			dir := t.TempDir()
			byID := map[string]*sandbox.Stack{}
			for _, st := range r.Stacks {
				byID[st.ID] = st
			}
			// The nested stacks, written where their parent's template
			// says the synthesized nested template is.
			nested := map[string]bool{}
			for _, st := range r.Stacks {
				tm, err := cfn.Parse([]byte(st.TemplateBody))
				if err != nil {
					t.Fatalf("%s: %v", st.Name, err)
				}
				for _, res := range st.Resources {
					child := byID[res.PhysicalID]
					if res.Type != sandbox.NestedStackType || child == nil || tm.Resources[res.LogicalID] == nil {
						continue
					}
					asset, _ := tm.Resources[res.LogicalID].Metadata["aws:asset:path"].(string)
					if asset == "" {
						continue
					}
					if err := os.WriteFile(filepath.Join(dir, asset), []byte(child.TemplateBody), 0o644); err != nil {
						t.Fatal(err)
					}
					nested[child.ID] = true
				}
			}
			arts := map[string]any{}
			for _, st := range r.Stacks {
				if st.Status == "DELETE_COMPLETE" || nested[st.ID] {
					continue
				}
				file := st.Name + ".template.json"
				if err := os.WriteFile(filepath.Join(dir, file), []byte(st.TemplateBody), 0o644); err != nil {
					t.Fatal(err)
				}
				arts[st.Name] = map[string]any{"type": "aws:cloudformation:stack", "environment": "aws://" + a.ID + "/" + r.Name, "properties": map[string]any{"templateFile": file}}
			}
			b, _ := json.Marshal(map[string]any{"version": "55.0.0", "artifacts": arts})
			if err := os.WriteFile(filepath.Join(dir, "manifest.json"), b, 0o644); err != nil {
				t.Fatal(err)
			}
			env := startSandbox(t, w, key(a.ID), r.Name)
			out, errs, code := env.run("diff", "--app", dir, "--all", "--recursive", "--json")
			if code != ExitOK {
				t.Errorf("%s/%s: exit %d\n%s", a.ID, r.Name, code, errs)
				continue
			}
			var rep struct {
				Stacks []worldDiff `json:"stacks"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("%s/%s: %v", a.ID, r.Name, err)
			}
			got := rep.Stacks
			var walk func(s worldDiff)
			walk = func(s worldDiff) {
				stacks++
				if s.Error != "" {
					t.Errorf("%s: %s", s.Stack, s.Error)
				}
				for _, c := range s.Changes {
					changes++
					t.Errorf("false change: %s %s %s %+v", s.Stack, c.LogicalID, c.Action, c.Properties)
				}
				for _, o := range s.OutputChanges {
					changes++
					t.Errorf("false output change: %s %s", s.Stack, o.Name)
				}
				for _, c := range s.Children {
					walk(c)
				}
			}
			for _, s := range got {
				walk(s)
			}
		}
	}
	return stacks, changes
}

// corpusWorld is the corpus-built world with the demo's nested stack tree
// added in the corpus account's us-east-1 (the corpus recorded no nested
// stack).
func corpusWorld(t *testing.T) *sandbox.World {
	t.Helper()
	w := devCorpusWorld(t)
	if err := worldgen.DemoNested(w, worldgen.CorpusAccount, "us-east-1"); err != nil {
		t.Fatal(err)
	}
	return w
}

// demoWorld is the demo world as the demo runs it, its nested stack tree
// included.
func demoWorld(t *testing.T) *sandbox.World {
	t.Helper()
	cases, err := corpus.LoadDirs(corpustest.Subset(t))
	if err != nil {
		t.Fatal(err)
	}
	w, err := worldgen.Demo(cases)
	if err != nil {
		t.Fatal(err)
	}
	if err := worldgen.DemoNested(w, worldgen.DemoDefaultAccount, demoDiffRegion); err != nil {
		t.Fatal(err)
	}
	return w
}

// countStacks counts w's stacks that are not deleted.
func countStacks(w *sandbox.World) int {
	n := 0
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			for _, st := range r.Stacks {
				if st.Status != "DELETE_COMPLETE" {
					n++
				}
			}
		}
	}
	return n
}

// TestDiffSelfCorpusWorld: on the corpus-built world (with a nested
// stack tree) every stack's own deployed template diffs with no change,
// the nested stack reached through its parent with --recursive.
func TestDiffSelfCorpusWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus world diff takes a while; skipped only with -short")
	}
	w := corpusWorld(t)
	stacks, changes := selfDiff(t, w, worldgen.AccessKey)
	t.Logf("corpus world: %d stacks, %d false changes", stacks, changes)
	if want := countStacks(w); stacks != want {
		t.Errorf("%d stacks diffed, want every one of the world's %d", stacks, want)
	}
}

// TestDiffSelfDemoWorld: the same on the demo world as the demo runs it
// (its nested stack tree included: the parent and, under it, its nested
// stack each diff with no change).
func TestDiffSelfDemoWorld(t *testing.T) {
	w := demoWorld(t)
	stacks, changes := selfDiff(t, w, worldgen.DemoAccessKey)
	t.Logf("demo world: %d stacks, %d false changes", stacks, changes)
	if stacks != 14 {
		t.Errorf("%d stacks diffed, want 14 (12 and the nested tree's 2)", stacks)
	}
}

// TestCheckAllNestedDrift: on the corpus-built world and the demo world,
// an out-of-band change inside the nested stack is found by check --all:
// declared drift of the nested stack, reported once, under its parent,
// and the nested stack resource itself is no drift.
func TestCheckAllNestedDrift(t *testing.T) {
	for _, tc := range []struct {
		name, account, region string
		world                 func(*testing.T) *sandbox.World
		key                   func(string) string
	}{
		{"corpus world", worldgen.CorpusAccount, "us-east-1", corpusWorld, worldgen.AccessKey},
		{"demo world", worldgen.DemoDefaultAccount, demoDiffRegion, demoWorld, worldgen.DemoAccessKey},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.world(t)
			queue, child := "", ""
			for _, a := range w.Accounts {
				for _, r := range a.Regions {
					for _, st := range r.Stacks {
						for _, res := range st.Resources {
							if a.ID == tc.account && r.Name == tc.region && res.LogicalID == worldgen.DemoBacklogQueue {
								queue, child = res.PhysicalID, st.Name
							}
						}
					}
				}
			}
			if queue == "" {
				t.Fatal("no nested backlog queue in the world")
			}
			e := startSandbox(t, w, tc.key(tc.account), tc.region)
			e.change(sandbox.Change{Op: sandbox.OpSet, Account: tc.account, Region: tc.region, Type: "AWS::SQS::Queue", Identifier: queue, Path: "VisibilityTimeout", Value: json.RawMessage(`300`)})
			rep := e.nestedCheck(t, ExitDrift, "--all", "--no-baseline", "--fail")
			seen := 0
			for _, s := range rep.Stacks {
				for _, f := range s.Findings {
					if f.ResourceType == sandbox.NestedStackType && f.Tier.IsDrift() {
						t.Errorf("%s: the stack resource reported as drift: %+v", s.Stack, f)
					}
				}
				if s.Stack != child {
					continue
				}
				seen++
				if s.Parent != worldgen.DemoNestedRoot || s.ParentLogicalID != worldgen.DemoNestedChild {
					t.Errorf("%s: parent %q (%q), want %s (%s)", child, s.Parent, s.ParentLogicalID, worldgen.DemoNestedRoot, worldgen.DemoNestedChild)
				}
				found := false
				for _, f := range s.Findings {
					found = found || (f.Tier == drift.Declared && f.LogicalID == worldgen.DemoBacklogQueue && f.Path == "VisibilityTimeout")
				}
				if !found {
					t.Errorf("%s: no declared VisibilityTimeout drift on %s: %+v", child, worldgen.DemoBacklogQueue, s.Findings)
				}
			}
			if seen != 1 {
				t.Errorf("the nested stack %s reported %d times, want once", child, seen)
			}
			t.Logf("%s: check --all over %d stacks found the nested stack's drift under %s", tc.name, len(rep.Stacks), worldgen.DemoNestedRoot)
		})
	}
}
