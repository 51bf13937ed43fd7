package service

import (
	"context"
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/internal/scan"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
)

// keyAcceptAudit is the accept's audit item, under the run id of the
// execution's name in the store's write-once audit partition (kept
// AuditRetention).
const keyAcceptAudit = "accept-audit."

// AcceptAudit is an accept's audit item: which execution accepted what
// (each value's recorded value before, if any, and the live value now
// recorded), what could not be read, and the outcome. Step Functions does
// not pass the caller to the execution; the execution's ARN names it, and
// CloudTrail's StartExecution event for that ARN names who started it.
type AcceptAudit struct {
	RunID     string                   `json:"runId"`
	Execution string                   `json:"execution"`
	Stack     drift.StackRef           `json:"stack"`
	Status    string                   `json:"status"`
	Request   statemachine.AcceptInput `json:"request"`
	At        time.Time                `json:"at"`
	Accepted  []AcceptedValue          `json:"accepted"`
	// NotRead lists what the check could not read: its recorded entries
	// were kept unchanged.
	NotRead []string `json:"notRead"`
	// Entries is the size of the baseline after the accept.
	Entries int    `json:"entries"`
	Error   string `json:"error,omitempty"`
	Cause   string `json:"cause,omitempty"`
}

// AcceptedValue is one undeclared value or added child an accept
// recorded. Secrets are written as drift.Redacted (their JSON form).
type AcceptedValue struct {
	Tier         string `json:"tier"`
	LogicalID    string `json:"logicalId"`
	ResourceType string `json:"resourceType"`
	PhysicalID   string `json:"physicalId,omitempty"`
	Path         string `json:"path,omitempty"`
	// Before is the recorded value it replaces (none: it was not
	// recorded); Value the live value now recorded (none: a recorded value
	// that is gone, whose entry is dropped).
	Before any    `json:"before,omitempty"`
	Value  any    `json:"value,omitempty"`
	Note   string `json:"note,omitempty"`
}

// Accept is the accept function. Action record checks the stack afresh
// through the member read role (scan.Check, as `realdrift check` does),
// records its undeclared values and added children — every one, or those
// matching the request's findings globs — into the stack's baseline in the
// table exactly as `realdrift record --yes` does (baseline.Record under a
// conditional write, merged again after a concurrent writer's), and writes
// the audit item once, in the write-once audit partition as revert-audit
// does (store.Audits: conditional on its absence, so nothing — not the
// functions that write findings, not this one again — can alter it). What
// cannot be read keeps its recorded entries, and is named in the audit. A
// retried record answers with the audit already written. Action
// record-failure writes the audit of a failed accept.
func (s *Service) Accept(ctx context.Context, in statemachine.AcceptTask) (statemachine.AcceptAudited, error) {
	stack := in.Request.Ref()
	if in.RunID == "" {
		return statemachine.AcceptAudited{}, errors.New("accept: no run id")
	}
	key := AcceptAuditKey(stack)
	switch in.Action {
	case statemachine.AcceptRecordFailure:
		a := AcceptAudit{
			RunID: in.RunID, Execution: in.Execution, Stack: stack, Status: statemachine.AcceptFailed, Request: in.Request,
			At: s.now().UTC(), Accepted: []AcceptedValue{}, NotRead: []string{}, Error: in.Error, Cause: clip(in.Cause, maxReason),
		}
		return s.putAcceptAudit(ctx, key, a)
	case statemachine.AcceptRecord:
	default:
		return statemachine.AcceptAudited{}, fmt.Errorf("accept: unknown action %q", in.Action)
	}
	if stack.Account == "" || stack.Region == "" || stack.Name == "" {
		return statemachine.AcceptAudited{}, fmt.Errorf("accept: the input needs account, region and stack (got %+v)", stack)
	}
	for _, g := range in.Request.Findings {
		if _, err := path.Match(g, ""); err != nil {
			return statemachine.AcceptAudited{}, fmt.Errorf("accept: findings %q: %w", g, err)
		}
	}
	switch done, err := s.LoadAcceptAudit(ctx, in.RunID, key); {
	case err == nil:
		// A retry after the audit was written: it stands.
		return done.result(key), nil
	case !errors.Is(err, store.ErrNotFound):
		return statemachine.AcceptAudited{}, stepError(err)
	}
	a, err := s.accept(ctx, stack, in.Request)
	if err != nil {
		return statemachine.AcceptAudited{}, stepError(err)
	}
	a.RunID, a.Execution = in.RunID, in.Execution
	return s.putAcceptAudit(ctx, key, a)
}

// putAcceptAudit writes an accept's audit item once, conditionally on
// there being none (store.Audits), and answers with the item that stands:
// a retried or concurrent write finds the first one and returns it.
func (s *Service) putAcceptAudit(ctx context.Context, key string, a AcceptAudit) (statemachine.AcceptAudited, error) {
	exists, err := s.putAuditOnce(ctx, a.RunID, key, a)
	if err != nil {
		return statemachine.AcceptAudited{}, stepError(err)
	}
	if exists {
		if a, err = s.LoadAcceptAudit(ctx, a.RunID, key); err != nil {
			return statemachine.AcceptAudited{}, stepError(err)
		}
	}
	return a.result(key), nil
}

func (a AcceptAudit) result(key string) statemachine.AcceptAudited {
	return statemachine.AcceptAudited{
		RunID: a.RunID, Stack: a.Stack, Status: a.Status, Key: key,
		Accepted: len(a.Accepted), Entries: a.Entries, NotRead: len(a.NotRead),
	}
}

// accept checks the stack and records the chosen part of its live-only
// state into its stored baseline.
func (s *Service) accept(ctx context.Context, stack drift.StackRef, req statemachine.AcceptInput) (AcceptAudit, error) {
	c := s.clients(stack.Account, stack.Region)
	src, err := c.FactsSource(false)
	if err != nil {
		return AcceptAudit{}, err
	}
	res, err := scan.Check(ctx, c, stack, scan.Options{Concurrency: s.set.Concurrency, Schema: src})
	if err != nil {
		return AcceptAudit{}, fmt.Errorf("check %s: %w", stack, err)
	}
	rules, err := s.ignoreRules(ctx)
	if err != nil {
		return AcceptAudit{}, fmt.Errorf("ignore rules: %w", err)
	}
	ref := res.Desired.Stack
	now := s.now().UTC()
	a := AcceptAudit{Stack: ref, Status: statemachine.AcceptRecorded, Request: req, At: now, Accepted: []AcceptedValue{}, NotRead: scan.NotRead(ref.Name, res.Findings)}
	written, err := baseline.UpdateStored(ctx, s.store, ref, func(cur *baseline.Baseline) (*baseline.Baseline, error) {
		// The delta is what a check against cur reports as live-only
		// drift or potential drift; the chosen part of it is recorded,
		// the rest keeps its recorded entries (as record's prompt does).
		inDelta, chosen := map[acceptKey]bool{}, map[acceptKey]bool{}
		a.Accepted = a.Accepted[:0]
		for _, f := range Reconcile(res.Desired, res.Findings, cur, rules) {
			if f.Tier != drift.Undeclared && f.Tier != drift.Added {
				continue
			}
			k := acceptKey{baseline.EntryID(f), f.Path}
			inDelta[k] = true
			if !acceptChosen(f, req.Findings) {
				continue
			}
			chosen[k] = true
			a.Accepted = append(a.Accepted, AcceptedValue{
				Tier: f.Tier.String(), LogicalID: f.LogicalID, ResourceType: f.ResourceType, PhysicalID: f.PhysicalID,
				Path: f.Path, Before: f.Desired, Value: f.Actual, Note: f.Note,
			})
		}
		return baseline.Record(cur, baseline.Snapshot{
			Stack:        ref,
			Findings:     ignore.Apply(res.Findings, ref, rules),
			Resources:    res.Desired.BaselineResources(),
			Scanned:      res.ScannedParents(),
			TemplateHash: baseline.TemplateHash([]byte(res.Desired.TemplateBody)),
			CapturedAt:   now,
			Select: func(id, p string) bool {
				k := acceptKey{id, p}
				return !inDelta[k] || chosen[k]
			},
		}, baseline.Options{}), nil
	})
	if err != nil {
		return AcceptAudit{}, fmt.Errorf("record the baseline of %s: %w", ref, err)
	}
	a.Entries = len(written.Entries)
	return a, nil
}

// acceptKey is a recordable value: its baseline entry id and path.
type acceptKey struct{ id, path string }

// acceptChosen reports whether a live-only finding is one the request
// accepts: every one without globs, else those whose "<logicalId>.<path>"
// (or logical id, for an added child) matches one.
func acceptChosen(f drift.Finding, globs []string) bool {
	if len(globs) == 0 {
		return true
	}
	name := f.LogicalID
	if f.Path != "" {
		name += "." + f.Path
	}
	for _, g := range globs {
		if ok, _ := path.Match(g, name); ok {
			return true
		}
		if ok, _ := path.Match(g, f.LogicalID); ok && f.Path == "" {
			return true
		}
	}
	return false
}

// AcceptAuditKey is the audit key of a stack's accept audit item (under
// the execution's run id).
func AcceptAuditKey(stack drift.StackRef) string { return stateKey(keyAcceptAudit, stack) }

// LoadAcceptAudit reads an accept's audit item.
func (s *Service) LoadAcceptAudit(ctx context.Context, runID, key string) (AcceptAudit, error) {
	var a AcceptAudit
	b, err := s.store.GetAudit(ctx, runID, key)
	if err != nil {
		return a, fmt.Errorf("accept audit %s of %s: %w", key, runID, err)
	}
	if err := decodeNumbers(b, &a); err != nil {
		return a, fmt.Errorf("decode accept audit %s: %w", key, err)
	}
	return a, nil
}

// liveOnlyDrift reports whether findings hold undeclared drift or added
// children in the drift set: what an accept records (a drift alert offers
// the Accept… link only then).
func liveOnlyDrift(findings []drift.Finding) bool {
	for _, f := range findings {
		if (f.Tier == drift.Undeclared || f.Tier == drift.Added) && notify.InDriftSet(f) {
			return true
		}
	}
	return false
}
