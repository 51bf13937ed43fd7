package scan_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/scan"
)

// corpusDir returns the dev corpus: $REALDRIFT_CORPUS_DIR, else
// ../shared/corpus/dev beside the repository. Missing, the test fails when
// CI=true and is skipped otherwise.
func corpusDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("REALDRIFT_CORPUS_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "corpus", "dev")
	}
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("golden corpus not found at %s (set REALDRIFT_CORPUS_DIR): %v", dir, err)
		}
		t.Skipf("golden corpus not found at %s (set REALDRIFT_CORPUS_DIR); CI=true makes this a failure", dir)
	}
	return dir
}

// floor is the agreement the corpus end-to-end test must keep.
type floor struct {
	// Exact is the number of cases whose findings through the whole
	// pipeline equal the case's expected findings.
	Exact int `json:"exact"`
	// Faithful is the number of cases whose pipeline findings equal a
	// direct classifier replay given the facts the pipeline has.
	Faithful int `json:"faithful"`
}

// canon renders findings in the corpus compare form: sorted by tier and
// path, as JSON values (key order and number types do not matter).
func canon(t *testing.T, fs []drift.Finding) []any {
	t.Helper()
	fs = append([]drift.Finding(nil), fs...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Key() < fs[j].Key() })
	b, err := json.Marshal(fs)
	if err != nil {
		t.Fatal(err)
	}
	var out []any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCorpusWorld checks every stack of a sandbox world generated from the
// dev corpus through the real pipeline (scan.Check over HTTP with the
// production clients) and compares each case's findings with the expected
// ones. It reports two agreements: with the corpus's expected findings
// (exact), and with a direct classifier replay given only the facts the
// pipeline has: the stack's, and the world's one schema per type (faithful:
// differences there are the pipeline's own).
// Each differing case is logged with the side it differs on.
func TestCorpusWorld(t *testing.T) {
	cases, err := corpus.LoadDirs(corpusDir(t))
	if err != nil {
		t.Fatal(err)
	}
	w, err := worldgen.FromCorpus(cases)
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string]*corpus.Case{}
	for _, c := range cases {
		byFile[c.File] = c
	}
	_, url := startSandbox(t, w)
	ctx := testCtx(t)

	exact, faithful, total := 0, 0, 0
	var pipelineDiffs, classifierDiffs, factDiffs []string
	for _, a := range w.Accounts {
		for _, reg := range a.Regions {
			c := clientsIn(t, url, worldgen.AccessKey(a.ID), reg.Name)
			for _, st := range reg.Stacks {
				file := ""
				for _, tag := range st.Tags {
					if tag.Key == worldgen.CaseTag {
						file = tag.Value
					}
				}
				cs := byFile[file]
				if cs == nil {
					t.Fatalf("stack %s names no corpus case", st.Name)
				}
				total++
				res, err := scan.Check(ctx, c, drift.StackRef{Account: a.ID, Region: reg.Name, Name: st.Name}, scan.Options{})
				if err != nil {
					t.Fatalf("check %s: %v", st.Name, err)
				}
				var got []drift.Finding
				for _, f := range res.Findings {
					if f.LogicalID == cs.Resource.LogicalID || strings.HasPrefix(f.LogicalID, cs.Resource.LogicalID+"/") {
						got = append(got, f)
					}
				}
				// The direct replay with the facts a stack gives the pipeline.
				opts := classify.OptionsFromMap(cs.Opts)
				opts.StackName = st.Name
				opts.StackTags = res.Desired.StackTags
				opts.KMSAliasTargets, opts.OAICanonicalIDs, opts.Sibling = nil, nil, nil
				subj := classify.Subject{Ref: drift.ResourceRef{LogicalID: cs.Resource.LogicalID, Type: cs.Resource.ResourceType, PhysicalID: cs.Resource.PhysicalID, ConstructPath: cs.Resource.ConstructPath},
					Declared: cs.Resource.Declared, SiblingPolicyNames: cs.Resource.SiblingPolicyNames}
				// The world serves one schema per type (its first case's).
				facts := cs.Schema
				if f := w.Schemas[cs.Resource.ResourceType]; f != nil {
					facts = *f
				}
				replay := classify.Resource(subj, cs.LiveRaw, &facts, opts)

				g, want, r := canon(t, got), canon(t, cs.Expected), canon(t, replay)
				if cmp.Equal(g, want) {
					exact++
				}
				if cmp.Equal(g, r) {
					faithful++
					if !cmp.Equal(g, want) {
						// With the case's own opts and schema, does the classifier agree?
						own := cs.Schema
						full := canon(t, classify.Resource(subj, cs.LiveRaw, &own, classify.OptionsFromMap(cs.Opts)))
						if cmp.Equal(full, want) {
							factDiffs = append(factDiffs, file)
						} else {
							classifierDiffs = append(classifierDiffs, file)
						}
					}
					continue
				}
				pipelineDiffs = append(pipelineDiffs, fmt.Sprintf("%s: pipeline vs replay (-pipeline +replay):\n%s", file, cmp.Diff(g, r)))
			}
		}
	}
	t.Logf("corpus world: %d stacks; pipeline = expected for %d (%.1f%%); pipeline = direct replay for %d (%.1f%%)",
		total, exact, pct(exact, total), faithful, pct(faithful, total))
	t.Logf("%d cases differ from expected because the world lacks a fact the case recorded (its own schema version, stack name, KMS aliases, sibling facts): %s",
		len(factDiffs), strings.Join(factDiffs, " "))
	t.Logf("%d cases differ from expected because the classifier does, even with the case's own facts: %s",
		len(classifierDiffs), strings.Join(classifierDiffs, " "))
	for _, d := range pipelineDiffs {
		t.Logf("pipeline difference: %s", d)
	}

	var fl floor
	b, err := os.ReadFile(filepath.Join("testdata", "corpus_floor.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &fl); err != nil {
		t.Fatal(err)
	}
	if exact < fl.Exact {
		t.Errorf("exact agreement %d fell below the floor %d", exact, fl.Exact)
	}
	if faithful < fl.Faithful {
		t.Errorf("pipeline faithfulness %d fell below the floor %d", faithful, fl.Faithful)
	}
}

func pct(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return 100 * float64(n) / float64(d)
}
