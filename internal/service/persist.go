package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
)

// persistedState is record-stack's decision, written before the run record
// so a retried persist answers the same.
type persistedState struct {
	Changed     bool                `json:"changed"`
	Fingerprint string              `json:"fingerprint,omitempty"`
	Previous    string              `json:"previous,omitempty"`
	Counts      statemachine.Counts `json:"counts,omitempty"`
	FinishedAt  time.Time           `json:"finishedAt"`
}

// maxReason bounds a failed run's stored reason.
const maxReason = 2000

// Persist is the persist function; PersistTask.Action selects what it
// records (see statemachine.PersistTask).
func (s *Service) Persist(ctx context.Context, in statemachine.PersistTask) (any, error) {
	if in.RunID == "" {
		return nil, fmt.Errorf("persist: no run id")
	}
	var out any
	var err error
	switch in.Action {
	case statemachine.ActionRecordStack:
		out, err = s.recordStack(ctx, in)
	case statemachine.ActionRecordFailure:
		out, err = struct{}{}, s.recordFailure(ctx, in)
	case statemachine.ActionCloseRun:
		out, err = s.closeRun(ctx, in.RunID)
	default:
		return nil, fmt.Errorf("persist: unknown action %q", in.Action)
	}
	return out, stepError(err)
}

func (s *Service) recordStack(ctx context.Context, in statemachine.PersistTask) (statemachine.Persisted, error) {
	if in.Stack == nil {
		return statemachine.Persisted{}, fmt.Errorf("persist record-stack: no stack")
	}
	stack := *in.Stack
	findings, err := s.loadFindings(ctx, in.RunID, in.FindingsKey)
	if err != nil {
		return statemachine.Persisted{}, err
	}
	started, err := s.startedAt(ctx, in.RunID, stack)
	if err != nil {
		return statemachine.Persisted{}, err
	}
	var ps persistedState
	ok, err := s.getJSON(ctx, in.RunID, stateKey(keyPersisted, stack), &ps)
	if err != nil {
		return statemachine.Persisted{}, err
	}
	if !ok {
		prev, err := s.previousFingerprint(ctx, stack)
		if err != nil {
			return statemachine.Persisted{}, err
		}
		ps = persistedState{
			Fingerprint: notify.Fingerprint(findings),
			Previous:    prev,
			Counts:      in.Counts,
			FinishedAt:  s.now().UTC(),
		}
		ps.Changed = ps.Fingerprint != ps.Previous
		if err := s.putJSON(ctx, in.RunID, stateKey(keyPersisted, stack), ps); err != nil {
			return statemachine.Persisted{}, err
		}
	}
	counts := map[drift.Tier]int{}
	for _, f := range findings {
		counts[f.Tier]++
	}
	var ds desiredState
	if err := s.mustJSON(ctx, in.RunID, stateKey(keyDesired, stack), &ds); err != nil {
		return statemachine.Persisted{}, err
	}
	declared := 0
	if ds.Desired != nil {
		declared = len(ds.Desired.Resources)
	}
	verdict := drift.Judge(findings, drift.Resources(declared, findings), false)
	rec := store.RunRecord{
		RunID: in.RunID, Stack: stack, StartedAt: started, FinishedAt: ps.FinishedAt,
		Status: store.RunOK, Counts: counts, Fingerprint: ps.Fingerprint,
		Verdict: verdict.Outcome(), Resources: verdict.Resources(), NotRead: verdict.Unread(),
	}
	if err := s.store.PutRun(ctx, rec, findings); err != nil {
		return statemachine.Persisted{}, err
	}
	if err := s.index(ctx, ds.Desired, stack); err != nil {
		return statemachine.Persisted{}, err
	}
	return statemachine.Persisted{Changed: ps.Changed}, nil
}

// previousFingerprint is the drift set the stack's alerts last reported:
// the fingerprint notify last sent for it, else (never alerted, or
// forgotten) the latest run's. An alert that could not be delivered thus
// stays "changed" on the next check, which alerts again.
func (s *Service) previousFingerprint(ctx context.Context, stack drift.StackRef) (string, error) {
	var sent notifiedState
	ok, err := s.getJSON(ctx, alertsRun, stateKey(keyAlerted, stack), &sent)
	if err != nil {
		return "", fmt.Errorf("persist %s: %w", stack, err)
	}
	if ok {
		return sent.Fingerprint, nil
	}
	latest, _, err := s.store.LatestFindings(ctx, stack)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "", fmt.Errorf("persist %s: %w", stack, err)
	}
	return latest.Fingerprint, nil
}

// index writes the resource index entries of the stack's resources, so the
// trigger maps a changed resource back to its stack.
func (s *Service) index(ctx context.Context, d *scan.Desired, stack drift.StackRef) error {
	if d == nil {
		return nil
	}
	now := s.now().UTC()
	var entries []store.IndexEntry
	for _, r := range d.Resources {
		if r.PhysicalID == "" {
			continue
		}
		entries = append(entries, store.IndexEntry{
			PhysicalID: r.PhysicalID, Type: r.Type, Stack: stack, LogicalID: r.LogicalID,
			IndexedAt: now, ExpiresAt: now.Add(s.set.IndexTTL),
		})
	}
	if len(entries) == 0 {
		return nil
	}
	if err := s.store.PutIndex(ctx, entries); err != nil {
		return fmt.Errorf("index %s: %w", stack, err)
	}
	return nil
}

// loadFindings reads stored findings keeping numbers exact.
func (s *Service) loadFindings(ctx context.Context, runID, key string) ([]drift.Finding, error) {
	if key == "" {
		return nil, fmt.Errorf("run %s: no findings key", runID)
	}
	b, err := s.getState(ctx, runID, key)
	if err != nil {
		return nil, err
	}
	var fs []drift.Finding
	if err := decodeNumbers(b, &fs); err != nil {
		return nil, fmt.Errorf("decode state %s: %w", key, err)
	}
	return fs, nil
}

func (s *Service) recordFailure(ctx context.Context, in statemachine.PersistTask) error {
	f := failure{Error: in.Error, Cause: in.Cause}
	switch {
	case in.Stack != nil:
		stack := *in.Stack
		started, err := s.startedAt(ctx, in.RunID, stack)
		if err != nil {
			return err
		}
		if err := s.putJSON(ctx, in.RunID, stateKey(keyFailed, stack), f); err != nil {
			return err
		}
		rec := store.RunRecord{
			RunID: in.RunID, Stack: stack, StartedAt: started, FinishedAt: s.now().UTC(),
			Status: store.RunFailed, Reason: failureReason(in.Error, in.Cause), Verdict: drift.Failed,
		}
		return s.store.PutRun(ctx, rec, nil)
	case in.Account != "":
		return s.putJSON(ctx, in.RunID, keyAccountFailed+in.Account, f)
	}
	return fmt.Errorf("persist record-failure: neither a stack nor an account")
}

// failureReason renders a caught error: its type and, when the cause is a
// Lambda error object, its message.
func failureReason(errType, cause string) string {
	var lambdaErr struct {
		Message string `json:"errorMessage"`
	}
	msg := cause
	if json.Unmarshal([]byte(cause), &lambdaErr) == nil && lambdaErr.Message != "" {
		msg = lambdaErr.Message
	}
	r := strings.TrimSpace(errType)
	if msg = strings.TrimSpace(msg); msg != "" {
		r += ": " + msg
	}
	if len(r) > maxReason {
		r = r[:maxReason] + "…"
	}
	return r
}

// closeRun counts the run's outcomes from its run state: every discovered
// stack is checked (persisted), failed or missing.
func (s *Service) closeRun(ctx context.Context, runID string) (statemachine.RunSummary, error) {
	var run runState
	if err := s.mustJSON(ctx, runID, keyRun, &run); err != nil {
		return statemachine.RunSummary{}, err
	}
	sum := statemachine.RunSummary{RunID: runID, Accounts: len(run.Accounts), Counts: statemachine.Counts{}}
	var targets []drift.StackRef
	for _, a := range run.Accounts {
		var as accountState
		ok, err := s.getJSON(ctx, runID, keyAccount+a, &as)
		if err != nil {
			return statemachine.RunSummary{}, err
		}
		if !ok {
			sum.AccountsFailed++
			continue
		}
		targets = append(targets, as.Targets...)
	}
	sum.Stacks = len(targets)

	var mu sync.Mutex
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(16)
	for _, t := range targets {
		g.Go(func() error {
			var f failure
			failed, err := s.getJSON(gctx, runID, stateKey(keyFailed, t), &f)
			if err != nil {
				return err
			}
			var ps persistedState
			checked := false
			if !failed {
				if checked, err = s.getJSON(gctx, runID, stateKey(keyPersisted, t), &ps); err != nil {
					return err
				}
			}
			mu.Lock()
			defer mu.Unlock()
			switch {
			case failed:
				sum.Failed++
			case checked:
				sum.Checked++
				if ps.Changed {
					sum.Changed++
				}
				for k, n := range ps.Counts {
					sum.Counts[k] += n
				}
			default:
				sum.Missing++
			}
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return statemachine.RunSummary{}, fmt.Errorf("close run %s: %w", runID, err)
	}
	return sum, nil
}
