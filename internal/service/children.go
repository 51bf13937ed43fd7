package service

import (
	"context"
	"fmt"
	"slices"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/pace"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/statemachine"
)

// EnumerateChildren is the enumerate-children function: pass 1.6 for one
// batch of the resolved model's parents, through the account's read role.
// An enumeration that fails is recorded as the parent's reason (a skipped
// finding), never an error — except one still throttled after the SDK's
// retries, which the workflow retries first (as ReadResources does).
func (s *Service) EnumerateChildren(ctx context.Context, in statemachine.EnumerateBatch) (struct{}, error) {
	var rs resolvedState
	if err := s.mustJSON(ctx, in.RunID, in.ResolvedKey, &rs); err != nil {
		return struct{}{}, stepError(err)
	}
	lo, hi, err := batchRange(in.Batch, len(rs.Parents), rs.ParentBatch)
	if err != nil {
		return struct{}{}, fmt.Errorf("enumerate %s: %w", in.Stack, err)
	}
	c := s.clients(in.Stack.Account, in.Stack.Region)
	parents := make([]scan.Resource, 0, hi-lo)
	for _, id := range rs.Parents[lo:hi] {
		p, ok := resourceByID(rs.Desired, id)
		if !ok {
			return struct{}{}, fmt.Errorf("enumerate %s: parent %s is not in the resolved model", in.Stack, id)
		}
		parents = append(parents, p)
	}
	started, err := s.startedAt(ctx, in.RunID, in.Stack)
	if err != nil {
		return struct{}{}, stepError(err)
	}
	key, progressKey := batchKey(keyChildren, in.Stack, in.Batch), batchKey(keyEnumerating, in.Stack, in.Batch)
	var prog readProgress
	if _, err := s.getJSON(ctx, in.RunID, progressKey, &prog); err != nil {
		return struct{}{}, stepError(err)
	}
	out := make([]scan.Children, len(parents))
	todo := make([]bool, len(parents))
	for i := range todo {
		todo[i] = true
	}
	if len(prog.Pending) > 0 {
		// A retry: keep what the earlier attempts enumerated.
		if err := s.mustJSON(ctx, in.RunID, key, &out); err != nil {
			return struct{}{}, stepError(err)
		}
		if len(out) != len(parents) {
			return struct{}{}, fmt.Errorf("enumerate %s: stored batch %d holds %d parents, want %d", in.Stack, in.Batch, len(out), len(parents))
		}
		for i, p := range parents {
			todo[i] = slices.Contains(prog.Pending, p.LogicalID)
		}
	}
	throttled := make([]bool, len(parents))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.set.Concurrency)
	for i, p := range parents {
		if !todo[i] {
			continue
		}
		g.Go(func() error {
			pctx, tr := pace.Track(gctx)
			out[i] = scan.EnumerateChildren(pctx, c, p, rs.Desired)
			throttled[i] = tr.Throttled()
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return struct{}{}, fmt.Errorf("enumerate children of %s: %w", in.Stack, err)
	}
	// As read-resources: a parent whose enumeration was throttled past the
	// SDK's retries is retried by the workflow until the stack's read
	// deadline or the last retry, then left with its skipped reason.
	prog.Attempts++
	giveUp := !s.now().Before(started.Add(s.set.ReadDeadline)) || prog.Attempts > statemachine.ThrottledRetries
	prog.Pending = nil
	for i, p := range parents {
		if throttled[i] && !giveUp {
			prog.Pending = append(prog.Pending, p.LogicalID)
		}
	}
	if err := s.putJSON(ctx, in.RunID, key, out); err != nil {
		return struct{}{}, stepError(err)
	}
	if err := s.putJSON(ctx, in.RunID, progressKey, prog); err != nil {
		return struct{}{}, stepError(err)
	}
	if len(prog.Pending) > 0 {
		return struct{}{}, &statemachine.Throttled{Err: fmt.Errorf("%s parent batch %d: %d of %d enumerations still throttled (attempt %d; retried until %s)",
			in.Stack, in.Batch, len(prog.Pending), len(parents), prog.Attempts, started.Add(s.set.ReadDeadline).UTC().Format(time.RFC3339))}
	}
	return struct{}{}, nil
}

// loadChildren reads every enumerate batch back, in parent order.
func (s *Service) loadChildren(ctx context.Context, runID string, stack drift.StackRef, rs *resolvedState) ([]scan.Children, error) {
	var all []scan.Children
	for _, b := range batches(len(rs.Parents), rs.ParentBatch) {
		var part []scan.Children
		if err := s.mustJSON(ctx, runID, batchKey(keyChildren, stack, b), &part); err != nil {
			return nil, err
		}
		all = append(all, part...)
	}
	return all, nil
}
