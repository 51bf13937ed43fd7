package service

import (
	"context"
	"fmt"

	"golang.org/x/sync/errgroup"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/statemachine"
)

// EnumerateChildren is the enumerate-children function: pass 1.6 for one
// batch of the resolved model's parents, through the account's read role.
// An enumeration that fails is recorded as the parent's reason (a skipped
// finding), never an error.
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
	out := make([]scan.Children, len(parents))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(s.set.Concurrency)
	for i, p := range parents {
		g.Go(func() error {
			out[i] = scan.EnumerateChildren(gctx, c, p, rs.Desired)
			return nil
		})
	}
	_ = g.Wait()
	if err := ctx.Err(); err != nil {
		return struct{}{}, fmt.Errorf("enumerate children of %s: %w", in.Stack, err)
	}
	if err := s.putJSON(ctx, in.RunID, batchKey(keyChildren, in.Stack, in.Batch), out); err != nil {
		return struct{}{}, stepError(err)
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
