package classify_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// mutate returns v changed the way an out-of-band edit would change it,
// or ok=false when v has no meaningful change.
func mutate(v any) (any, bool) {
	switch t := v.(type) {
	case bool:
		return !t, true
	case float64:
		return t + 7, true
	case string:
		if t == "" {
			return "oob-value", true
		}
		return t + "-oob", true
	case []any:
		return append(append([]any(nil), t...), "oob-item"), true
	case map[string]any:
		m := make(map[string]any, len(t)+1)
		for k, e := range t {
			m[k] = e
		}
		m["OobKey"] = "oob"
		return m, true
	}
	return nil, false
}

type oobResult struct {
	file, path string
	surfaced   bool
}

// oobChanges applies one change to each top-level live property the read
// returns (readOnly and writeOnly ones excluded: no template sets them) and
// reports whether the classifier surfaces it as drift.
func oobChanges(c *corpus.Case) []oobResult {
	ro := map[string]bool{}
	for _, p := range append(append([]string(nil), c.Schema.ReadOnly...), c.Schema.WriteOnly...) {
		ro[p] = true
	}
	base := map[string]string{}
	for _, f := range corpus.Replay(c) {
		base[f.Key()] = corpus.Canonical(f)
	}
	keys := make([]string, 0, len(c.LiveRaw))
	for k := range c.LiveRaw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []oobResult
	for _, k := range keys {
		// A value AWS assigns folds on a first check (within its family)
		// and is watched by the baseline (measured by TestOOBAfterRecord).
		_, declared := c.Resource.Declared[k]
		if ro[k] || k == "Tags" || classify.Assigned(c.Resource.ResourceType, k) ||
			(!declared && classify.AssignedValue(c.Resource.ResourceType, k, c.LiveRaw[k])) {
			continue
		}
		nv, ok := mutate(c.LiveRaw[k])
		if !ok {
			continue
		}
		mc := *c
		mc.LiveRaw = normalize.Clone(c.LiveRaw).(map[string]any)
		mc.LiveRaw[k] = nv
		surfaced := false
		for _, f := range corpus.Replay(&mc) {
			if !f.Tier.IsDrift() || base[f.Key()] == corpus.Canonical(f) {
				continue
			}
			if f.Path == k || strings.HasPrefix(f.Path, k+".") || strings.HasPrefix(f.Path, k+"[") {
				surfaced = true
			}
		}
		out = append(out, oobResult{c.File, k, surfaced})
	}
	return out
}

// TestOutOfBandChangesSurface checks that a change made out of band to a
// live property still surfaces as drift: folds are equality-gated.
func TestOutOfBandChangesSurface(t *testing.T) {
	cases := loadCorpus(t)
	var f struct {
		OOBSurfacedPermille int `json:"oobSurfacedPermille"`
	}
	b, err := os.ReadFile(filepath.Join("testdata", "floor.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	total, surfaced := 0, 0
	var missed []string
	for _, c := range cases {
		for _, r := range oobChanges(c) {
			total++
			if r.surfaced {
				surfaced++
			} else {
				missed = append(missed, r.file+" "+r.path)
			}
		}
	}
	permille := 1000 * surfaced / max(total, 1)
	t.Logf("out-of-band changes surfaced: %d/%d (%.1f%%)", surfaced, total, float64(permille)/10)
	if testing.Verbose() {
		for _, m := range missed {
			t.Logf("missed: %s", m)
		}
	}
	if permille < f.OOBSurfacedPermille {
		t.Errorf("surfaced %d‰, below the floor %d‰", permille, f.OOBSurfacedPermille)
	}
	_ = drift.Declared
}
