package service

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/schema"
	"github.com/realdrift/realdrift/internal/store"
)

// countingRegistry stands in for DescribeType: it counts the types asked
// and knows only "Acme::Made::Thing".
type countingRegistry struct {
	mu    sync.Mutex
	asked map[string]int
}

func (r *countingRegistry) Lookup(_ context.Context, typeName string) (*schema.Facts, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.asked[typeName]++
	if typeName == "Acme::Made::Thing" {
		return &schema.Facts{ReadOnly: []string{"Arn"}}, nil
	}
	return nil, errors.New("TypeNotFoundException")
}

// TestSweepFactsOncePerRun: a type the snapshot holds never reaches
// DescribeType; a type it lacks is asked once per account-region in a run
// however many stacks look it up (an unknown one too), and again in the
// next run.
func TestSweepFactsOncePerRun(t *testing.T) {
	now := time.Unix(1_900_000_000, 0)
	s := &Service{store: store.StateDir(t.TempDir(), ""), now: func() time.Time { return now }, set: Settings{StateTTL: time.Hour}}
	snap, err := schema.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	reg := &countingRegistry{asked: map[string]int{}}
	ctx := t.Context()
	for _, run := range []string{"run-1", "run-2"} {
		for range 5 { // five stacks
			src := &sweepFacts{s: s, runID: run, account: "111111111111", region: "us-east-1", snap: snap, registry: reg}
			if f, err := src.Lookup(ctx, "AWS::SQS::Queue"); err != nil || f == nil {
				t.Fatalf("snapshot type: %v, %v", f, err)
			}
			if f, err := src.Lookup(ctx, "Acme::Made::Thing"); err != nil || len(f.ReadOnly) != 1 {
				t.Fatalf("registry type: %+v, %v", f, err)
			}
			if _, err := src.Lookup(ctx, "Acme::Unknown::Thing"); err == nil {
				t.Fatal("an unknown type answered")
			}
		}
	}
	want := map[string]int{"Acme::Made::Thing": 2, "Acme::Unknown::Thing": 2}
	if len(reg.asked) != 2 || reg.asked["Acme::Made::Thing"] != want["Acme::Made::Thing"] || reg.asked["Acme::Unknown::Thing"] != want["Acme::Unknown::Thing"] {
		t.Errorf("DescribeType asked %v, want %v (once per run, never for a snapshot type)", reg.asked, want)
	}
}
