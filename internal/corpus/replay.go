package corpus

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/classify"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/normalize"
)

// Replay classifies the case through classify.Resource, the function the
// CLI and the Lambdas call.
func Replay(c *Case) []drift.Finding {
	return ReplayWith(c, nil)
}

// ReplayWith replays the case with a given known-values table (nil: the
// embedded one); cross-validation uses it.
func ReplayWith(c *Case, known *classify.KnownTable) []drift.Finding {
	opts := c.Options()
	opts.Known = known
	return classify.Resource(subject(c), c.LiveRaw, &c.Schema, opts)
}

// Canonical renders a finding as canonical JSON (sorted keys, absent fields
// omitted): two findings are equal when their canonical forms are.
func Canonical(f drift.Finding) string {
	b, err := json.Marshal(f)
	if err != nil {
		return fmt.Sprintf("<unmarshalable finding %s: %v>", f.Key(), err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return string(b)
	}
	return normalize.Canonical(v)
}

// Result is the comparison of one case's produced findings with its
// expected ones.
type Result struct {
	File     string
	Got      []drift.Finding
	Want     []drift.Finding
	Exact    bool
	KeyMatch int // expected findings produced with the same tier and path
	Full     int // expected findings produced identically
	// Diff is a readable difference, empty when exact.
	Diff string
}

// Compare sorts both lists by "tier path" and compares them finding by
// finding, as the corpus README describes.
func Compare(file string, got, want []drift.Finding) Result {
	res := Result{File: file, Got: sortFindings(got), Want: sortFindings(want)}
	gm := map[string]drift.Finding{}
	for _, f := range res.Got {
		gm[f.Key()] = f
	}
	wm := map[string]bool{}
	var b strings.Builder
	for _, w := range res.Want {
		wm[w.Key()] = true
		g, ok := gm[w.Key()]
		if !ok {
			fmt.Fprintf(&b, "  - missing   %s\n", Canonical(w))
			continue
		}
		res.KeyMatch++
		if cw, cg := Canonical(w), Canonical(g); cw == cg {
			res.Full++
		} else {
			fmt.Fprintf(&b, "  ~ differs   want %s\n              got  %s\n", cw, cg)
		}
	}
	for _, g := range res.Got {
		if !wm[g.Key()] {
			fmt.Fprintf(&b, "  + unexpected %s\n", Canonical(g))
		}
	}
	res.Diff = b.String()
	res.Exact = res.Diff == "" && len(res.Got) == len(res.Want)
	return res
}

func sortFindings(fs []drift.Finding) []drift.Finding {
	out := append([]drift.Finding(nil), fs...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Key() < out[j].Key() })
	return out
}

// TierCount is expected / produced / matched for one tier.
type TierCount struct {
	Expected, Produced, Matched int
}

// Summary aggregates replay results.
type Summary struct {
	Cases, Exact                int
	CasesWithFindings           int
	ExactWithFindings           int
	Findings, KeyMatch, Full    int
	Tiers                       map[drift.Tier]*TierCount
	FalseDeclared, FalseUndecl  int
	MissedDeclared, MissedUndec int
	// Unreadable counts the case files that could not be read (set by the
	// caller): each counts as a case, never exact.
	Unreadable int
}

// Summarize aggregates results.
func Summarize(results []Result) Summary {
	s := Summary{Tiers: map[drift.Tier]*TierCount{}}
	for _, t := range []drift.Tier{drift.Declared, drift.Undeclared, drift.AtDefault} {
		s.Tiers[t] = &TierCount{}
	}
	for _, r := range results {
		s.Cases++
		if r.Exact {
			s.Exact++
		}
		if len(r.Want) > 0 {
			s.CasesWithFindings++
			if r.Exact {
				s.ExactWithFindings++
			}
		}
		s.Findings += len(r.Want)
		s.KeyMatch += r.KeyMatch
		s.Full += r.Full
		wantKeys := map[string]drift.Finding{}
		for _, w := range r.Want {
			wantKeys[w.Key()] = w
			if tc := s.Tiers[w.Tier]; tc != nil {
				tc.Expected++
			}
		}
		gotKeys := map[string]bool{}
		for _, g := range r.Got {
			gotKeys[g.Key()] = true
			tc := s.Tiers[g.Tier]
			if tc != nil {
				tc.Produced++
			}
			w, ok := wantKeys[g.Key()]
			if ok && tc != nil && Canonical(w) == Canonical(g) {
				tc.Matched++
			}
			if !ok {
				switch g.Tier {
				case drift.Declared:
					s.FalseDeclared++
				case drift.Undeclared:
					s.FalseUndecl++
				}
			}
		}
		for _, w := range r.Want {
			if gotKeys[w.Key()] {
				continue
			}
			switch w.Tier {
			case drift.Declared:
				s.MissedDeclared++
			case drift.Undeclared:
				s.MissedUndec++
			}
		}
	}
	return s
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

// Line renders the one-line summary; unreadable cases count in the cases
// total and are named at the end.
func (s Summary) Line() string {
	tc := func(t drift.Tier) string {
		c := s.Tiers[t]
		return fmt.Sprintf("%s %d/%d/%d", t, c.Expected, c.Produced, c.Matched)
	}
	cases := s.Cases + s.Unreadable
	line := fmt.Sprintf("corpus: %d/%d cases exact (%.1f%%), %d/%d with findings; findings %d/%d by (tier,path), %d/%d in full; expected/produced/matched: %s, %s, %s; false drift: declared %d, undeclared %d",
		s.Exact, cases, pct(s.Exact, cases), s.ExactWithFindings, s.CasesWithFindings,
		s.KeyMatch, s.Findings, s.Full, s.Findings,
		tc(drift.Declared), tc(drift.Undeclared), tc(drift.AtDefault),
		s.FalseDeclared, s.FalseUndecl)
	if s.Unreadable > 0 {
		line += fmt.Sprintf("; unreadable cases: %d", s.Unreadable)
	}
	return line
}
