package service

import (
	"context"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/statemachine"
)

// resolvedState is resolve's run state: the desired model re-resolved with
// live attributes, the pass-1.5 re-reads, and the declared parents whose
// children are enumerated (in the stack's resource order).
type resolvedState struct {
	Desired     *scan.Desired `json:"desired"`
	Reread      liveState     `json:"reread,omitempty"`
	Parents     []string      `json:"parents"`
	ParentBatch int           `json:"parentBatch"`
}

// Resolve is the resolve function: it re-resolves every declared value now
// that the live attributes are read (scan.Resolve), re-reads the resources
// that waited on one (pass 1.5), stores the result and returns the parent
// batches for enumerate-children.
func (s *Service) Resolve(ctx context.Context, in statemachine.ResolveTask) (statemachine.Resolved, error) {
	var ds desiredState
	if err := s.mustJSON(ctx, in.RunID, in.DesiredKey, &ds); err != nil {
		return statemachine.Resolved{}, stepError(err)
	}
	lives, err := s.loadLives(ctx, in.RunID, in.Stack, &ds)
	if err != nil {
		return statemachine.Resolved{}, stepError(err)
	}
	d := ds.Desired
	reread, err := scan.Resolve(d, lives)
	if err != nil {
		return statemachine.Resolved{}, err
	}
	var again []scan.Resource
	for _, id := range reread {
		if r, ok := resourceByID(d, id); ok {
			again = append(again, r)
		}
	}
	rs := resolvedState{Desired: d, ParentBatch: s.set.ParentBatch, Parents: []string{}}
	if len(again) > 0 {
		c := s.clients(in.Stack.Account, in.Stack.Region)
		if rs.Reread, _, err = s.readAll(ctx, c, again, ds.factsFunc()); err != nil {
			return statemachine.Resolved{}, stepError(err)
		}
		withholdLives(again, rs.Reread)
		for id, r := range rs.Reread {
			lives[id] = r
		}
	}
	for _, r := range d.Resources {
		if scan.HasChildren(r) && lives[r.LogicalID].Status == live.Found {
			rs.Parents = append(rs.Parents, r.LogicalID)
		}
	}
	key := stateKey(keyResolved, in.Stack)
	if err := s.putJSON(ctx, in.RunID, key, rs); err != nil {
		return statemachine.Resolved{}, stepError(err)
	}
	return statemachine.Resolved{Key: key, ParentBatches: batches(len(rs.Parents), rs.ParentBatch)}, nil
}

// resourceByID returns the desired resource with logical id id.
func resourceByID(d *scan.Desired, id string) (scan.Resource, bool) {
	for _, r := range d.Resources {
		if r.LogicalID == id {
			return r, true
		}
	}
	return scan.Resource{}, false
}

// allLives is the final live state of a stack: pass 1 overlaid with the
// pass-1.5 re-reads.
func (s *Service) allLives(ctx context.Context, runID string, stack drift.StackRef, ds *desiredState, rs *resolvedState) (liveState, error) {
	lives, err := s.loadLives(ctx, runID, stack, ds)
	if err != nil {
		return nil, err
	}
	readBack(rs.Reread)
	for id, r := range rs.Reread {
		lives[id] = r
	}
	return lives, nil
}
