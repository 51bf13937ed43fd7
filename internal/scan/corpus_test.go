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
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/schema"
)

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
// pipeline has: the stack's (name, tags, KMS aliases, the sibling facts it
// derives) and the schema facts the case's account region serves
// (faithful: differences there are the pipeline's own).
// Each case that differs from expected is logged with its cause and diff.
func TestCorpusWorld(t *testing.T) {
	cases, err := corpus.LoadDirs(corpustest.Dir(t))
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

	exact, faithful, total, stacks := 0, 0, 0, 0
	var pipelineDiffs, classifierDiffs, factDiffs []string
	for _, a := range w.Accounts {
		for _, reg := range a.Regions {
			c := clientsIn(t, url, worldgen.AccessKey(a.ID), reg.Name)
			for _, st := range reg.Stacks {
				stacks++
				files, err := worldgen.CorpusCases(st)
				if err != nil {
					t.Fatal(err)
				}
				if len(files) == 0 {
					t.Fatalf("stack %s names no corpus case", st.Name)
				}
				// The corpus world's DescribeType serves the schema facts
				// each case recorded (per region): ask it for every type.
				res, err := scan.Check(ctx, c, drift.StackRef{Account: a.ID, Region: reg.Name, Name: st.Name}, scan.Options{LiveSchema: true})
				if err != nil {
					t.Fatalf("check %s: %v", st.Name, err)
				}
				sibling := scan.SiblingFacts(res.Desired, res.Lives)
				for logical, file := range files {
					cs := byFile[file]
					if cs == nil {
						t.Fatalf("stack %s: %s names no corpus case", st.Name, file)
					}
					total++
					var got []drift.Finding
					for _, f := range res.Findings {
						if f.LogicalID == logical || strings.HasPrefix(f.LogicalID, logical+"/") {
							got = append(got, f)
						}
					}
					// The direct replay with the facts a stack gives the pipeline.
					opts := classify.OptionsFromMap(cs.Opts)
					opts.StackName = st.Name
					opts.StackTags = res.Desired.StackTags
					opts.KMSAliasTargets, opts.OAICanonicalIDs = res.Desired.KMSAliasTargets, nil
					opts.Sibling = sibling
					subj := classify.Subject{Ref: drift.ResourceRef{LogicalID: cs.Resource.LogicalID, Type: cs.Resource.ResourceType, PhysicalID: cs.Resource.PhysicalID, ConstructPath: cs.Resource.ConstructPath},
						Declared: cs.Resource.Declared, SiblingPolicyNames: cs.Resource.SiblingPolicyNames}
					// The account region serves its own facts over the world's.
					facts := cs.Schema
					if f := reg.Schemas[cs.Resource.ResourceType]; f != nil {
						facts = *f
					} else if f := w.Schemas[cs.Resource.ResourceType]; f != nil {
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
							line := fmt.Sprintf("%s (stack %s/%s/%s): %s\n%s", file, a.ID, reg.Name, st.Name, missingFacts(cs, st.Name, res.Desired.StackTags, res.Desired.KMSAliasTargets, sibling, facts), cmp.Diff(g, want))
							if cmp.Equal(full, want) {
								factDiffs = append(factDiffs, line)
							} else {
								classifierDiffs = append(classifierDiffs, line)
							}
						}
						continue
					}
					pipelineDiffs = append(pipelineDiffs, fmt.Sprintf("%s: pipeline vs replay (-pipeline +replay):\n%s", file, cmp.Diff(g, r)))
				}
			}
		}
	}
	t.Logf("corpus world: %d cases in %d stacks; pipeline = expected for %d (%.1f%%); pipeline = direct replay for %d (%.1f%%)",
		total, stacks, exact, pct(exact, total), faithful, pct(faithful, total))
	if total != len(cases) {
		t.Errorf("the world holds %d cases, the corpus %d", total, len(cases))
	}
	sort.Strings(factDiffs)
	sort.Strings(classifierDiffs)
	t.Logf("%d cases differ from expected because the world lacks a fact the case recorded (-pipeline +expected):", len(factDiffs))
	for _, d := range factDiffs {
		t.Logf("world fact: %s", d)
	}
	t.Logf("%d cases differ from expected because the classifier does, even with the case's own facts:", len(classifierDiffs))
	for _, d := range classifierDiffs {
		t.Logf("classifier: %s", d)
	}
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

// missingFacts names the recorded options of a case that the stack does
// not give the pipeline (or gives differently), so each remaining
// difference is explained in the log.
func missingFacts(cs *corpus.Case, stackName string, stackTags, kms map[string]string, sibling map[string]any, served schema.Facts) string {
	var why []string
	if !cmp.Equal(served, cs.Schema, cmpopts.EquateEmpty()) {
		why = append(why, "the account region serves other schema facts for the type")
	}
	if s, _, _ := strings.Cut(cs.Resource.ConstructPath, "/"); s != "" && s != stackName {
		why = append(why, "stack name "+stackName+" is not the original "+s)
	}
	keys := make([]string, 0, len(cs.Opts))
	for k := range cs.Opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := cs.Opts[k]
		if b, _ := json.Marshal(v); string(b) == "{}" || string(b) == "[]" || string(b) == "null" {
			continue
		}
		switch k {
		case "accountId", "region":
		case "stackTags":
			if !cmp.Equal(classify.OptionsFromMap(cs.Opts).StackTags, stackTags, cmpopts.EquateEmpty()) {
				why = append(why, "stack tags differ")
			}
		case "kmsAliasTargets":
			if kms == nil && usesAlias(cs.Resource.Declared) {
				why = append(why, "KMS aliases not looked up")
			}
		case "oaiCanonicalIds":
			why = append(why, "oaiCanonicalIds (an account lookup the pipeline does not make)")
		default:
			got, ok := sibling[k]
			switch {
			case !ok:
				why = append(why, k+" (no sibling resource in the stack gives it)")
			case !cmp.Equal(jsonValue(got), jsonValue(v)):
				why = append(why, k+" (the stack's siblings give another value)")
			}
		}
	}
	if len(why) == 0 {
		return "no missing fact found"
	}
	return strings.Join(why, "; ")
}

func jsonValue(v any) any {
	b, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(b, &out)
	return out
}

func usesAlias(v any) bool {
	b, _ := json.Marshal(v)
	return strings.Contains(string(b), "alias/aws/")
}
