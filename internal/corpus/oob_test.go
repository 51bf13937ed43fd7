package corpus

import (
	"sort"
	"testing"

	"github.com/realdrift/realdrift/internal/corpus/corpustest"
	"github.com/realdrift/realdrift/internal/drift"
)

func TestMutateKeepsShape(t *testing.T) {
	for in, want := range map[string]string{
		"arn:aws:kms:us-east-1:111111111111:key/b902a1ca-f": "arn:aws:kms:us-east-1:111111111111:key/b902a1ca-e",
		"Enabled": "Enablee", "9": "0", "--": "--x",
	} {
		if got := mutateString(in); got != want {
			t.Errorf("mutateString(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestOutOfBandRecall applies one out-of-band change per folded or matching
// value of every dev case and counts how many surface as drift. The rate is
// logged; the floor only guards against regressions.
func TestOutOfBandRecall(t *testing.T) {
	cases, err := LoadDirs(corpustest.Dir(t))
	if err != nil {
		t.Fatal(err)
	}
	ms := OutOfBand(cases)
	byTier := map[drift.Tier][2]int{}
	var hidden []string
	for _, m := range ms {
		c := byTier[m.Tier]
		c[1]++
		if m.Surfaced {
			c[0]++
		} else {
			hidden = append(hidden, m.File+" "+m.Path)
		}
		byTier[m.Tier] = c
	}
	surfaced := len(ms) - len(hidden)
	t.Logf("out-of-band mutations surfaced as drift: %d/%d (%.1f%%)", surfaced, len(ms), 100*float64(surfaced)/float64(len(ms)))
	for tier, c := range byTier {
		t.Logf("  on %s values: %d/%d", tier, c[0], c[1])
	}
	sort.Strings(hidden)
	for i, h := range hidden {
		if i >= 40 {
			t.Logf("  … %d more hidden", len(hidden)-40)
			break
		}
		t.Logf("  hidden: %s", h)
	}
	if len(ms) < 1000 {
		t.Fatalf("only %d mutations generated", len(ms))
	}
	const floor = 0.975
	if rate := float64(surfaced) / float64(len(ms)); rate < floor {
		t.Errorf("out-of-band recall %.3f below floor %.3f", rate, floor)
	}
}
