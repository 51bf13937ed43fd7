package service

import (
	"context"
	"fmt"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/statemachine"
)

// liveState maps logical id → live read result.
type liveState map[string]live.Result

// ReadResources is the read-resources function: pass 1 for one batch of
// the stored desired model's resources, read through the account's read
// role; the results are stored per batch, with the secrets' live values
// withheld (withholdLives). A resource that cannot be read is a skipped
// result, never an error.
func (s *Service) ReadResources(ctx context.Context, in statemachine.ReadBatch) (struct{}, error) {
	var ds desiredState
	if err := s.mustJSON(ctx, in.RunID, in.DesiredKey, &ds); err != nil {
		return struct{}{}, stepError(err)
	}
	rs := ds.Desired.Resources
	lo, hi, err := batchRange(in.Batch, len(rs), ds.ReadBatch)
	if err != nil {
		return struct{}{}, fmt.Errorf("read %s: %w", in.Stack, err)
	}
	c := s.clients(in.Stack.Account, in.Stack.Region)
	lives, err := s.readAll(ctx, c, rs[lo:hi], ds.factsFunc())
	if err != nil {
		return struct{}{}, stepError(err)
	}
	withholdLives(rs[lo:hi], lives)
	if err := s.putJSON(ctx, in.RunID, batchKey(keyLive, in.Stack, in.Batch), lives); err != nil {
		return struct{}{}, stepError(err)
	}
	return struct{}{}, nil
}

// readAll reads rs with at most Settings.Concurrency reads in flight.
func (s *Service) readAll(ctx context.Context, c *scan.Clients, rs []scan.Resource, facts scan.FactsFunc) (liveState, error) {
	out := liveState{}
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.set.Concurrency)
	for _, r := range rs {
		g.Go(func() error {
			res := scan.ReadResource(gctx, c, r, facts)
			mu.Lock()
			out[r.LogicalID] = res
			mu.Unlock()
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("read resources: %w", err)
	}
	return out, nil
}

// loadLives reads every read batch of a stack back into one map.
func (s *Service) loadLives(ctx context.Context, runID string, stack drift.StackRef, ds *desiredState) (liveState, error) {
	lives := liveState{}
	for _, b := range batches(len(ds.Desired.Resources), ds.ReadBatch) {
		var part liveState
		if err := s.mustJSON(ctx, runID, batchKey(keyLive, stack, b), &part); err != nil {
			return nil, err
		}
		for id, r := range part {
			lives[id] = r
		}
	}
	readBack(lives)
	return lives, nil
}
