package service

import (
	"context"
	"fmt"

	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/schema"
	"github.com/realdrift/realdrift/statemachine"
)

// desiredState is load-desired's run state: the desired model and the
// schema facts of its types, looked up once for the whole check.
type desiredState struct {
	Desired *scan.Desired            `json:"desired"`
	Facts   map[string]*schema.Facts `json:"facts,omitempty"`
	// ReadBatch is the batch size the batches were cut with.
	ReadBatch int `json:"readBatch"`
}

// factsFunc serves the stored facts to the scan steps.
func (d *desiredState) factsFunc() scan.FactsFunc {
	return func(t string) (*schema.Facts, bool) {
		f, ok := d.Facts[t]
		return f, ok && f != nil
	}
}

// LoadDesired is the load-desired function: it reads the stack's deployed
// template, parameters and physical ids (scan.LoadDesired) through the
// account's read role, looks up the schema facts of its resource types as
// the CLI's default --schema snapshot does (the embedded snapshot;
// DescribeType only for the types it lacks, once per type and
// account-region per run: sweepFacts), stores both, and returns the key and
// the read batches.
func (s *Service) LoadDesired(ctx context.Context, in statemachine.StackTask) (statemachine.Desired, error) {
	if _, err := s.startedAt(ctx, in.RunID, in.Stack); err != nil {
		return statemachine.Desired{}, stepError(err)
	}
	c := s.clients(in.Stack.Account, in.Stack.Region)
	d, err := scan.LoadDesired(ctx, c, in.Stack)
	if err != nil {
		return statemachine.Desired{}, stepError(err)
	}
	reg, err := c.Schema()
	if err != nil {
		return statemachine.Desired{}, err
	}
	snap, err := schema.Embedded()
	if err != nil {
		return statemachine.Desired{}, fmt.Errorf("schema facts: %w", err)
	}
	src := &sweepFacts{s: s, runID: in.RunID, account: in.Stack.Account, region: in.Stack.Region, snap: snap, registry: reg}
	facts, err := scan.FactsByType(ctx, src, d, s.set.Concurrency)
	if err != nil {
		return statemachine.Desired{}, stepError(err)
	}
	key := stateKey(keyDesired, in.Stack)
	if err := s.putJSON(ctx, in.RunID, key, desiredState{Desired: d, Facts: facts, ReadBatch: s.set.ReadBatch}); err != nil {
		return statemachine.Desired{}, stepError(err)
	}
	return statemachine.Desired{Key: key, Resources: len(d.Resources), Batches: batches(len(d.Resources), s.set.ReadBatch)}, nil
}

// batches numbers the batches of n items, size per batch: 0..k-1.
func batches(n, size int) []int {
	out := []int{}
	for i := 0; i*size < n; i++ {
		out = append(out, i)
	}
	return out
}

// batchRange is the [lo, hi) range of batch b of n items.
func batchRange(b, n, size int) (int, int, error) {
	lo := b * size
	if b < 0 || lo >= n {
		return 0, 0, fmt.Errorf("batch %d is out of range (%d items, %d per batch)", b, n, size)
	}
	return lo, min(lo+size, n), nil
}
