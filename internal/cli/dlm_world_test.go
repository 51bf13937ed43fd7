package cli

import (
	"encoding/json"
	"testing"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// TestDLMDefaultPolicyWorld: a DLM default policy (the template's
// DefaultPolicy VOLUME or INSTANCE) on a world built from the dev corpus's
// default-policy cases is served as AWS serves one (GetLifecyclePolicy's
// DefaultPolicy true, the resource type and intervals inside
// PolicyDetails) and read back into the template's shape: the first check
// reports each case exactly as recorded (DefaultPolicy compared equal, not
// a read gap), and after record an out-of-band change of the retention
// interval AWS defaulted is confirmed drift at RetainInterval.
func TestDLMDefaultPolicyWorld(t *testing.T) {
	all, err := corpus.LoadDirs(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	var cases []*corpus.Case
	for _, c := range all {
		if _, ok := c.Resource.Declared["DefaultPolicy"].(string); ok && c.Resource.ResourceType == "AWS::DLM::LifecyclePolicy" {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		t.Fatal("the dev corpus has no DLM default-policy case")
	}
	w, err := worldgen.FromCorpus(cases)
	if err != nil {
		t.Fatal(err)
	}
	places, err := worldgen.Placements(w)
	if err != nil {
		t.Fatal(err)
	}
	env := startSandbox(t, w, "", "")
	for _, c := range cases {
		p := places[c.File]
		env.key, env.region = worldgen.AccessKey(p.Account), p.Region
		first, errs, _ := env.checkJSON(p.Stack)
		var got []drift.Finding
		for _, s := range first.Stacks {
			for _, f := range s.Findings {
				if f.LogicalID == p.LogicalID {
					got = append(got, f)
				}
			}
		}
		if r := corpus.Compare(c.File, got, c.Expected); !r.Exact {
			t.Fatalf("%s: first check differs from the recording:\n%s\n%s", c.File, r.Diff, errs)
		}
		if _, errs, code := env.run("record", p.Stack, "--yes"); code != ExitOK {
			t.Fatalf("%s: record: exit %d\n%s", c.File, code, errs)
		}
		retain, ok := c.LiveRaw["RetainInterval"].(float64)
		if !ok {
			t.Fatalf("%s: the recording has no RetainInterval", c.File)
		}
		b, _ := json.Marshal(retain + 7)
		env.change(sandbox.Change{Op: sandbox.OpSet, Account: p.Account, Region: p.Region, Type: c.Resource.ResourceType,
			Identifier: c.Resource.PhysicalID, Path: "RetainInterval", Value: b})
		after, errs, code := env.checkJSON(p.Stack, "--fail")
		if code != ExitDrift {
			t.Fatalf("%s: check after the change: exit %d, want 1\n%s", c.File, code, errs)
		}
		f, ok := after.find(p.LogicalID, "RetainInterval")
		if !ok || !f.Tier.IsDrift() || f.Unrecorded || !jsonEqual(f.Actual, retain+7) {
			t.Errorf("%s: RetainInterval after the change: %+v (found %v), want confirmed drift to %v", c.File, f, ok, retain+7)
		}
		if f, ok := after.find(p.LogicalID, "DefaultPolicy"); ok {
			t.Errorf("%s: DefaultPolicy after the change: %+v, want no finding", c.File, f)
		}
	}
}

// jsonEqual reports whether a and b have the same JSON text.
func jsonEqual(a, b any) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(ja) == string(jb)
}
