package classify_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/realdrift/realdrift/internal/corpus"
	"github.com/realdrift/realdrift/internal/corpus/corpustest"
)

func loadCorpus(t testing.TB) []*corpus.Case {
	t.Helper()
	dir := corpustest.Dir(t)
	cases, err := corpus.LoadDirs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no cases in %s", dir)
	}
	return cases
}

// floor is the agreement the repository has reached; the test fails below
// it. Ratchet it up (never down) as agreement improves.
type floor struct {
	ExactCases     int `json:"exactCases"`
	FullFindings   int `json:"fullFindings"`
	MaxFalseDecl   int `json:"maxFalseDeclared"`
	MaxFalseUndecl int `json:"maxFalseUndeclared"`
	MissedDrift    int `json:"maxMissedDrift"`
}

func TestCorpusReplay(t *testing.T) {
	cases := loadCorpus(t)
	var f floor
	b, err := os.ReadFile(filepath.Join("testdata", "floor.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatalf("floor.json: %v", err)
	}
	results := make([]corpus.Result, 0, len(cases))
	for _, c := range cases {
		res := corpus.Compare(c.File, corpus.Replay(c), c.Expected)
		results = append(results, res)
		if !res.Exact && testing.Verbose() {
			t.Logf("FAIL %s\n%s", c.File, res.Diff)
		}
	}
	s := corpus.Summarize(results)
	t.Log(s.Line())
	if s.Exact < f.ExactCases {
		t.Errorf("exact cases %d, below the floor %d", s.Exact, f.ExactCases)
	}
	if s.Full < f.FullFindings {
		t.Errorf("findings matched in full %d, below the floor %d", s.Full, f.FullFindings)
	}
	if s.FalseDeclared > f.MaxFalseDecl {
		t.Errorf("false declared drift %d, above the ceiling %d", s.FalseDeclared, f.MaxFalseDecl)
	}
	if s.FalseUndecl > f.MaxFalseUndecl {
		t.Errorf("false undeclared drift %d, above the ceiling %d", s.FalseUndecl, f.MaxFalseUndecl)
	}
	if missed := s.MissedDeclared + s.MissedUndec; missed > f.MissedDrift {
		t.Errorf("expected drift findings not produced: %d, above the ceiling %d", missed, f.MissedDrift)
	}
}

// BenchmarkCorpus classifies every dev case through the function the CLI
// and the Lambdas call; inputs are parsed once, outside the timer. It
// reports us/case and allocs/case.
func BenchmarkCorpus(b *testing.B) {
	cases := loadCorpus(b)
	b.ReportAllocs()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, c := range cases {
			_ = corpus.Replay(c)
		}
	}
	b.StopTimer()
	runtime.ReadMemStats(&after)
	n := float64(b.N * len(cases))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/n, "us/case")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/case")
}
