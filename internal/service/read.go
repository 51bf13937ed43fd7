package service

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/pace"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/statemachine"
)

// liveState maps logical id → live read result.
type liveState map[string]live.Result

// ReadResources is the read-resources function: pass 1 for one batch of
// the stored desired model's resources, read through the account's read
// role (paced by the sweep's shared rate per account-region); the results
// are stored per batch, with the secrets' live values withheld
// (withholdLives). A resource that cannot be read is a skipped result,
// never an error — except a read still throttled after the SDK's retries
// while the stack's read deadline (Settings.ReadDeadline after its check
// started) has not passed and the workflow has retries left
// (statemachine.ThrottledRetries): then the batch's other results are
// stored, the throttled ones noted as pending, and the step fails
// Throttled, so Step Functions retries it with backoff and jitter and the
// retry reads only the pending ones. At the deadline or the last retry a
// still-throttled read is skipped with its reason; never drift, never
// dropped.
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
	started, err := s.startedAt(ctx, in.RunID, in.Stack)
	if err != nil {
		return struct{}{}, stepError(err)
	}
	liveKey, progressKey := batchKey(keyLive, in.Stack, in.Batch), batchKey(keyReading, in.Stack, in.Batch)
	var prog readProgress
	if _, err := s.getJSON(ctx, in.RunID, progressKey, &prog); err != nil {
		return struct{}{}, stepError(err)
	}
	todo, lives := rs[lo:hi], liveState{}
	if len(prog.Pending) > 0 {
		// A retry: keep what the earlier attempts read, read the rest.
		if err := s.mustJSON(ctx, in.RunID, liveKey, &lives); err != nil {
			return struct{}{}, stepError(err)
		}
		todo = pendingOf(todo, prog.Pending)
	}
	c := s.clients(in.Stack.Account, in.Stack.Region)
	got, throttled, err := s.readAll(ctx, c, todo, ds.factsFunc())
	if err != nil {
		return struct{}{}, stepError(err)
	}
	withholdLives(todo, got)
	prog.Attempts++
	giveUp := !s.now().Before(started.Add(s.set.ReadDeadline)) || prog.Attempts > statemachine.ThrottledRetries
	if len(throttled) > 0 && giveUp {
		for _, id := range throttled {
			r := got[id]
			r.Reason = fmt.Sprintf("throttled until the read deadline (%d attempts): %s", prog.Attempts, r.Reason)
			got[id] = r
		}
		throttled = nil
	}
	for id, r := range got {
		lives[id] = r
	}
	// The batch is stored complete on every attempt (a throttled read as
	// skipped), so a run that ends here still reports every resource.
	if err := s.putJSON(ctx, in.RunID, liveKey, lives); err != nil {
		return struct{}{}, stepError(err)
	}
	prog.Pending = throttled
	if err := s.putJSON(ctx, in.RunID, progressKey, prog); err != nil {
		return struct{}{}, stepError(err)
	}
	if len(throttled) > 0 {
		return struct{}{}, &statemachine.Throttled{Err: fmt.Errorf("%s batch %d: %d of %d reads still throttled (attempt %d; retried until %s)",
			in.Stack, in.Batch, len(throttled), hi-lo, prog.Attempts, started.Add(s.set.ReadDeadline).UTC().Format(time.RFC3339))}
	}
	return struct{}{}, nil
}

// readProgress is one read batch's progress over the workflow's retries.
type readProgress struct {
	// Attempts are the invocations so far.
	Attempts int `json:"attempts"`
	// Pending are the logical ids still throttled after the last one.
	Pending []string `json:"pending,omitempty"`
}

// pendingOf is the resources of rs named in ids.
func pendingOf(rs []scan.Resource, ids []string) []scan.Resource {
	var out []scan.Resource
	for _, r := range rs {
		if slices.Contains(ids, r.LogicalID) {
			out = append(out, r)
		}
	}
	return out
}

// readAll reads rs with at most Settings.Concurrency reads in flight and
// returns the results and the logical ids (sorted) of the resources whose
// read came back skipped because a call was still throttled after the
// SDK's retries.
func (s *Service) readAll(ctx context.Context, c *scan.Clients, rs []scan.Resource, facts scan.FactsFunc) (liveState, []string, error) {
	out := liveState{}
	var throttled []string
	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.set.Concurrency)
	for _, r := range rs {
		g.Go(func() error {
			rctx, tr := pace.Track(gctx)
			res := scan.ReadResource(rctx, c, r, facts)
			mu.Lock()
			out[r.LogicalID] = res
			if res.Status == live.Skipped && tr.Throttled() {
				throttled = append(throttled, r.LogicalID)
			}
			mu.Unlock()
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, fmt.Errorf("read resources: %w", err)
	}
	slices.Sort(throttled)
	return out, throttled, nil
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
