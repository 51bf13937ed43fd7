package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/eventbridge"
	ebtypes "github.com/aws/aws-sdk-go-v2/service/eventbridge/types"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/internal/revert"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
)

// RevertDetailType is the EventBridge detail-type of a finished revert.
const RevertDetailType = "Drift Revert Finished"

// RevertExpired is the audit status of a revert nobody decided on in time.
const RevertExpired = "expired"

// Audit is a revert's audit item: who asked, who decided and how, what
// each item was before, what it was written to and what the re-check
// found after, and what could not be reverted. It is kept AuditRetention
// under the execution's run id in the store's write-once audit partition
// (AUDIT#<execution>, revert-audit.<stack>): no function that writes
// findings or run state may touch it, and it is never overwritten.
type Audit struct {
	RunID     string                   `json:"runId"`
	Execution string                   `json:"execution"`
	Stack     drift.StackRef           `json:"stack"`
	Status    string                   `json:"status"`
	Request   statemachine.RevertInput `json:"request"`
	// Approval is the decision (nil: none was made).
	Approval      *statemachine.Approval `json:"approval,omitempty"`
	PlannedAt     time.Time              `json:"plannedAt,omitzero"`
	FinishedAt    time.Time              `json:"finishedAt"`
	Items         []AuditItem            `json:"items"`
	NotRevertable []revert.Unrevertable  `json:"notRevertable"`
	Counts        statemachine.Counts    `json:"counts"`
	Error         string                 `json:"error,omitempty"`
	Cause         string                 `json:"cause,omitempty"`
}

// AuditItem is one planned item and its outcome.
type AuditItem struct {
	ID           string `json:"id"`
	Kind         string `json:"kind"`
	Call         string `json:"call"`
	LogicalID    string `json:"logicalId"`
	ResourceType string `json:"resourceType"`
	PhysicalID   string `json:"physicalId"`
	Path         string `json:"path,omitempty"`
	// Before is the live value the plan saw; Target what was written
	// (Remove: removed); After what the re-check read (the target when
	// reverted, the live value when still drifted).
	Before   any    `json:"before,omitempty"`
	Target   any    `json:"target,omitempty"`
	Remove   bool   `json:"remove,omitempty"`
	After    any    `json:"after,omitempty"`
	Status   string `json:"status"`
	Error    string `json:"error,omitempty"`
	Attempts int    `json:"attempts,omitempty"`
}

// RevertAudit is the revert-audit function: it writes the execution's
// audit item (RevertAuditTask says which outcome) once, conditionally on
// there being none (store.Audits), and returns its key and counts, the
// execution's output. A retry finds the item written and answers with it.
func (s *Service) RevertAudit(ctx context.Context, in statemachine.RevertAuditTask) (statemachine.RevertAudited, error) {
	stack := in.Request.Ref()
	if in.RunID == "" || stack.Name == "" {
		return statemachine.RevertAudited{}, errors.New("revert-audit: want a run id and the execution input")
	}
	a := Audit{
		RunID: in.RunID, Execution: in.Execution, Stack: stack, Status: in.Status, Request: in.Request,
		Approval: in.Approval, FinishedAt: s.now().UTC(), Items: []AuditItem{}, NotRevertable: []revert.Unrevertable{},
		Counts: statemachine.Counts{}, Error: in.Error, Cause: clip(in.Cause, maxReason),
	}
	ps, perr := s.loadPlan(ctx, in.RunID, stateKey(keyRevertPlan, stack))
	if perr == nil {
		a.PlannedAt, a.NotRevertable = ps.PlannedAt, ps.Plan.NotRevertable
	}
	switch in.Status {
	case statemachine.RevertApplied:
		if perr != nil {
			return statemachine.RevertAudited{}, stepError(perr)
		}
		var outs []revert.Outcome
		b, err := s.store.GetState(ctx, in.RunID, stateKey(keyRevertOutcomes, stack))
		if err == nil {
			err = decodeNumbers(b, &outs)
		}
		if err != nil {
			return statemachine.RevertAudited{}, stepError(fmt.Errorf("revert-audit %s: outcomes: %w", stack, err))
		}
		a.Items, a.Counts = auditItems(ps.Plan, outs), outcomeCounts(outs)
	case statemachine.RevertRejected:
		if in.Error == "States.Timeout" {
			a.Status = RevertExpired
		}
		var ap statemachine.Approval
		if json.Unmarshal([]byte(in.Cause), &ap) == nil && ap.Approver != "" {
			a.Approval, a.Cause = &ap, ""
		}
		if perr == nil {
			a.Items = auditItems(ps.Plan, nil)
		}
	case statemachine.RevertFailed:
		if perr == nil {
			a.Items = auditItems(ps.Plan, nil)
		}
	default:
		return statemachine.RevertAudited{}, fmt.Errorf("revert-audit: unknown status %q", in.Status)
	}
	key := stateKey(keyRevertAudit, stack)
	exists, err := s.putAuditOnce(ctx, in.RunID, key, a)
	if err != nil {
		return statemachine.RevertAudited{}, stepError(err)
	}
	if exists {
		// A retry: the first write stands.
		if a, err = s.LoadAudit(ctx, in.RunID, key); err != nil {
			return statemachine.RevertAudited{}, stepError(err)
		}
	}
	return statemachine.RevertAudited{RunID: in.RunID, Stack: stack, Status: a.Status, Key: key, Counts: a.Counts}, nil
}

// putAuditOnce writes an audit item (a revert's or an accept's) in the
// store's write-once audit partition, kept AuditRetention: a PutItem
// conditional on its absence (store.Audits). exists reports that an item
// was already there, which stays as it was.
func (s *Service) putAuditOnce(ctx context.Context, runID, key string, v any) (exists bool, err error) {
	b, err := json.Marshal(v)
	if err != nil {
		return false, fmt.Errorf("encode audit %s: %w", key, err)
	}
	switch err := s.store.PutAudit(ctx, runID, key, b, s.now().Add(AuditRetention)); {
	case errors.Is(err, store.ErrExists):
		return true, nil
	case err != nil:
		return false, err
	}
	return false, nil
}

// auditItems pairs the plan's items with their outcomes (none: nothing
// was written).
func auditItems(p *revert.Plan, outs []revert.Outcome) []AuditItem {
	byID := map[string]revert.Outcome{}
	for _, o := range outs {
		byID[o.ID] = o
	}
	items := make([]AuditItem, 0, len(p.Items))
	for _, it := range p.Items {
		ai := AuditItem{
			ID: it.ID, Kind: it.Kind.String(), Call: it.Call, LogicalID: it.LogicalID, ResourceType: it.ResourceType,
			PhysicalID: it.PhysicalID, Path: it.Path, Before: it.Current, Target: it.Target, Remove: it.Remove,
			Status: "notWritten",
		}
		if o, ok := byID[it.ID]; ok {
			ai.Status, ai.Error, ai.Attempts = o.Status.String(), o.Error, o.Attempts
			switch o.Status {
			case revert.Reverted:
				ai.After = it.Target
			case revert.StillDrifted:
				ai.After = o.Live
			}
		}
		items = append(items, ai)
	}
	return items
}

// LoadAudit reads a revert's audit item.
func (s *Service) LoadAudit(ctx context.Context, runID, key string) (Audit, error) {
	var a Audit
	b, err := s.store.GetAudit(ctx, runID, key)
	if err != nil {
		return a, fmt.Errorf("audit %s of %s: %w", key, runID, err)
	}
	if err := decodeNumbers(b, &a); err != nil {
		return a, fmt.Errorf("decode audit %s: %w", key, err)
	}
	return a, nil
}

// notifyRevert tells the channels a revert's outcome: a message on SNS and
// Slack, an event on the bus. A delivery failure is logged.
func (s *Service) notifyRevert(ctx context.Context, in statemachine.NotifyTask) error {
	a, err := s.LoadAudit(ctx, in.RunID, in.AuditKey)
	if err != nil {
		return err
	}
	m := notify.Message{Stack: a.Stack, Title: revertTitle(a), Context: "realdrift revert · execution " + a.Execution}
	if a.Approval != nil {
		verb := "rejected"
		if a.Approval.Approved {
			verb = "approved"
		}
		m.Lines = append(m.Lines, fmt.Sprintf("%s by %s (%s) at %s", verb, a.Approval.Approver, a.Approval.Via, a.Approval.At))
	}
	for _, it := range a.Items {
		if it.Status == "notWritten" {
			continue
		}
		line := it.Status + ": " + itemLine(it.LogicalID, it.Path, it.PhysicalID, it.Before, it.Target, it.Remove, it.Kind, it.Call)
		if it.Error != "" {
			line += " — " + clip(it.Error, 200)
		}
		m.Lines = append(m.Lines, line)
	}
	if a.Error != "" && a.Approval == nil {
		m.Lines = append(m.Lines, "error: "+a.Error+" "+clip(a.Cause, 300))
	}
	s.sendMessage(ctx, m)
	if s.events == nil {
		return nil
	}
	detail, err := json.Marshal(map[string]any{
		"runId": a.RunID, "execution": a.Execution, "stack": a.Stack, "status": a.Status, "counts": a.Counts, "approval": a.Approval,
	})
	if err != nil {
		return err
	}
	out, err := s.events.PutEvents(ctx, &eventbridge.PutEventsInput{Entries: []ebtypes.PutEventsRequestEntry{{
		Source: aws.String(notify.Source), DetailType: aws.String(RevertDetailType), Detail: aws.String(string(detail)), EventBusName: aws.String(s.set.EventBus),
	}}})
	if err == nil && out.FailedEntryCount > 0 {
		err = errors.New("event rejected")
	}
	if err != nil {
		s.logger().WarnContext(ctx, "realdrift revert event not delivered", "stack", a.Stack.String(), "error", err.Error())
	}
	return nil
}

func revertTitle(a Audit) string {
	switch a.Status {
	case statemachine.RevertApplied:
		var parts []string
		for _, st := range []string{"reverted", "stillDrifted", "failed"} {
			if n := a.Counts[st]; n > 0 {
				parts = append(parts, fmt.Sprintf("%d %s", n, st))
			}
		}
		return "Revert finished: " + a.Stack.Name + " (" + strings.Join(parts, ", ") + ")"
	case statemachine.RevertRejected:
		return "Revert rejected: " + a.Stack.Name + " (nothing written)"
	case RevertExpired:
		return "Revert expired unapproved: " + a.Stack.Name + " (nothing written)"
	}
	return "Revert failed: " + a.Stack.Name
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}
