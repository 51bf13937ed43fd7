package service

import (
	"context"
	"errors"
	"fmt"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/revert"
	"github.com/realdrift/realdrift/statemachine"
)

// storedWrite is one item's write as run state (revert.Write keeps its
// error out of JSON).
type storedWrite struct {
	ID       string `json:"id"`
	Attempts int    `json:"attempts"`
	Error    string `json:"error,omitempty"`
}

// RevertWrite is the revert-write function: it re-reads one resource of
// the stored plan and refuses the items whose live value changed since the
// plan (ErrStalePlan, staleItems), then writes the others (revert.Apply: the Cloud Control patch, the
// SDK writer or the delete, transient failures retried for RevertWait)
// through the member account's revert role, and stores each item's write.
// A failed write is recorded, not returned: the re-check reports it. A
// retried invocation answers with the writes already stored.
func (s *Service) RevertWrite(ctx context.Context, in statemachine.RevertWriteTask) (statemachine.RevertWritten, error) {
	key := batchKey(keyRevertWrite, in.Stack, in.Resource)
	var done []storedWrite
	if ok, err := s.getJSON(ctx, in.RunID, key, &done); err != nil || ok {
		return written(in.Resource, done), stepError(err)
	}
	if s.set.ReadRoleName != "" && s.set.RevertRoleName == "" {
		return statemachine.RevertWritten{}, ErrRevertOff
	}
	ps, err := s.loadPlan(ctx, in.RunID, in.PlanKey)
	if err != nil {
		return statemachine.RevertWritten{}, stepError(err)
	}
	groups := resourceGroups(ps.Plan)
	if in.Resource < 0 || in.Resource >= len(groups) {
		return statemachine.RevertWritten{}, fmt.Errorf("revert-write: resource %d is out of range (%d in the plan)", in.Resource, len(groups))
	}
	// Before the write, the resource is read again: an item whose live
	// value changed since the plan (the approval approved what the plan
	// showed) is refused, not written.
	stale, err := s.staleItems(ctx, ps, groups[in.Resource])
	if err != nil {
		return statemachine.RevertWritten{}, stepError(fmt.Errorf("revert-write: re-read before the write: %w", err))
	}
	sub := &revert.Plan{Stack: ps.Plan.Stack}
	for _, it := range groups[in.Resource] {
		if stale[it.ID] == nil {
			sub.Items = append(sub.Items, it)
		}
	}
	read := s.clients(in.Stack.Account, in.Stack.Region)
	w := live.NewWriters(s.reverters.config(in.Stack.Account, in.Stack.Region), read.Live)
	// A write that completes after the call (a Route 53 change) is polled
	// to its end within RevertWait, as the CLI's --wait does.
	w.Wait = s.set.RevertWait > 0
	writes := revert.Apply(ctx, w, sub, revert.ApplyOptions{
		Wait: s.set.RevertWait, Now: s.now, Sleep: revert.SleepContext, Resources: revert.Resources(ps.Desired, nil), Concurrency: 1,
	})
	if ctx.Err() != nil {
		return statemachine.RevertWritten{}, ctx.Err()
	}
	done = make([]storedWrite, 0, len(groups[in.Resource]))
	for _, it := range groups[in.Resource] {
		if err := stale[it.ID]; err != nil {
			done = append(done, storedWrite{ID: it.ID, Error: err.Error()})
		}
	}
	for _, wr := range writes {
		sw := storedWrite{ID: wr.ID, Attempts: wr.Attempts}
		if wr.Err != nil {
			sw.Error = wr.Err.Error()
		}
		done = append(done, sw)
	}
	if err := s.putRevert(ctx, in.RunID, key, done); err != nil {
		return statemachine.RevertWritten{}, stepError(err)
	}
	return written(in.Resource, done), nil
}

func written(resource int, ws []storedWrite) statemachine.RevertWritten {
	out := statemachine.RevertWritten{Resource: resource, Items: len(ws)}
	for _, w := range ws {
		if w.Error != "" {
			out.Failed++
		}
	}
	return out
}

// errNotWritten is an item whose write step left no record.
var errNotWritten = errors.New("not written: the write step did not finish")

// RevertConverge is the revert-converge function: it checks the stack
// again, reconciled as the plan was, and decides each item's outcome
// (revert.Verify, re-checking while a written item still reads as
// drifted): reverted, still drifted with the live value, or
// failed with the AWS error. The outcomes are stored for the audit.
func (s *Service) RevertConverge(ctx context.Context, in statemachine.RevertConvergeTask) (statemachine.RevertConverged, error) {
	ps, err := s.loadPlan(ctx, in.RunID, in.PlanKey)
	if err != nil {
		return statemachine.RevertConverged{}, stepError(err)
	}
	writes, err := s.loadWrites(ctx, in.RunID, in.Stack, ps.Plan)
	if err != nil {
		return statemachine.RevertConverged{}, stepError(err)
	}
	// Re-checked again while a written item still reads as drifted
	// (revert.Verify): AWS's reads may lag its writes.
	outcomes := revert.Verify(ctx, ps.Plan, writes, revert.VerifyOptions{Recheck: func(ctx context.Context) ([]drift.Finding, error) {
		re, _, err := s.recheck(ctx, in.Stack)
		if err != nil {
			return nil, err
		}
		return re.Findings, nil
	}})
	key := stateKey(keyRevertOutcomes, in.Stack)
	if err := s.putRevert(ctx, in.RunID, key, outcomes); err != nil {
		return statemachine.RevertConverged{}, stepError(err)
	}
	return statemachine.RevertConverged{Key: key, Counts: outcomeCounts(outcomes)}, nil
}

// loadWrites reads every resource's stored writes; an item with none is a
// failed write.
func (s *Service) loadWrites(ctx context.Context, runID string, stack drift.StackRef, p *revert.Plan) ([]revert.Write, error) {
	var out []revert.Write
	for i, g := range resourceGroups(p) {
		var ws []storedWrite
		ok, err := s.getJSON(ctx, runID, batchKey(keyRevertWrite, stack, i), &ws)
		if err != nil {
			return nil, err
		}
		byID := map[string]storedWrite{}
		for _, w := range ws {
			byID[w.ID] = w
		}
		for _, it := range g {
			w, found := byID[it.ID]
			rw := revert.Write{ID: it.ID, Attempts: w.Attempts}
			switch {
			case !ok || !found:
				rw.Err = errNotWritten
			case w.Error != "":
				rw.Err = errors.New(w.Error)
			}
			out = append(out, rw)
		}
	}
	return out, nil
}

func outcomeCounts(os []revert.Outcome) statemachine.Counts {
	c := statemachine.Counts{}
	for _, o := range os {
		c[o.Status.String()]++
	}
	return c
}
