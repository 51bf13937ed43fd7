package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// selfDiff diffs every stack of w against its own deployed template, per
// account and region, and returns the number of stacks and of changes
// reported (each a false change).
func selfDiff(t *testing.T, w *sandbox.World, key func(account string) string) (stacks, changes int) {
	t.Helper()
	for _, a := range w.Accounts {
		for _, r := range a.Regions {
			if len(r.Stacks) == 0 {
				continue
			}
			dir := t.TempDir()
			arts := map[string]any{}
			for _, st := range r.Stacks {
				if st.Status == "DELETE_COMPLETE" {
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
			out, errs, code := env.run("diff", "--app", dir, "--all", "--json")
			if code != ExitOK {
				t.Errorf("%s/%s: exit %d\n%s", a.ID, r.Name, code, errs)
				continue
			}
			var got diffJSON
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%s/%s: %v", a.ID, r.Name, err)
			}
			for _, s := range got {
				stacks++
				for _, c := range s.Changes {
					changes++
					t.Errorf("false change: %s %s %s %+v", s.Stack, c.LogicalID, c.Action, c.Properties)
				}
				for _, o := range s.OutputChanges {
					changes++
					t.Errorf("false output change: %s %s", s.Stack, o.Name)
				}
			}
		}
	}
	return stacks, changes
}

// TestDiffSelfCorpusWorld: on the corpus-built world every stack's own
// deployed template diffs with no change.
func TestDiffSelfCorpusWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus world diff takes a while; skipped only with -short")
	}
	cases, err := corpus.LoadDirs(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	w, err := worldgen.FromCorpus(cases)
	if err != nil {
		t.Fatal(err)
	}
	stacks, changes := selfDiff(t, w, worldgen.AccessKey)
	t.Logf("corpus world: %d stacks, %d false changes", stacks, changes)
}

// TestDiffSelfDemoWorld: the same on the demo world as the demo runs it
// (its nested stack tree included: the parent and its nested stack each
// diff with no change).
func TestDiffSelfDemoWorld(t *testing.T) {
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
	stacks, changes := selfDiff(t, w, worldgen.DemoAccessKey)
	t.Logf("demo world: %d stacks, %d false changes", stacks, changes)
	if stacks != 14 {
		t.Errorf("%d stacks diffed, want 14 (12 and the nested tree's 2)", stacks)
	}
}
