package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	sfntypes "github.com/aws/aws-sdk-go-v2/service/sfn/types"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/notify"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
)

// taskSender is the Step Functions calls a decision makes.
type taskSender interface {
	SendTaskSuccess(ctx context.Context, in *sfn.SendTaskSuccessInput, optFns ...func(*sfn.Options)) (*sfn.SendTaskSuccessOutput, error)
	SendTaskFailure(ctx context.Context, in *sfn.SendTaskFailureInput, optFns ...func(*sfn.Options)) (*sfn.SendTaskFailureOutput, error)
}

var _ taskSender = (*sfn.Client)(nil)

// approvalState is a revert waiting for its decision: the task token to
// answer and what the approver is shown.
type approvalState struct {
	TaskToken   string         `json:"taskToken"`
	Execution   string         `json:"execution"`
	Stack       drift.StackRef `json:"stack"`
	PlanKey     string         `json:"planKey"`
	Items       int            `json:"items"`
	RequestedAt time.Time      `json:"requestedAt"`
}

// Errors of a decision callers tell apart.
var (
	// ErrNoApproval: no approval was asked for under that execution (an
	// unknown name, a dry run, or not at the approval step yet).
	ErrNoApproval = errors.New("no approval is pending for this execution")
	// ErrDecided: someone decided already.
	ErrDecided = errors.New("the revert was already decided")
	// ErrNotPending: Step Functions no longer waits (timed out, or the
	// execution ended).
	ErrNotPending = errors.New("the approval is no longer pending (it timed out or the execution ended)")
)

// RequestApproval is the request-approval function, invoked with a task
// token: it stores the token for the execution (so `realdrift approve` can
// answer it) and sends the plan with the approval commands to the
// configured channels: `realdrift approve RUN --url` (an IAM-signed call
// to the approve-link function's URL) when Settings.ApprovalURL is set,
// else `realdrift approve RUN --store`. The message carries no link that
// decides: reading the channel approves nothing. A channel that fails is
// logged; the approval stays possible from the CLI.
func (s *Service) RequestApproval(ctx context.Context, in statemachine.ApprovalTask) (struct{}, error) {
	if in.RunID == "" || in.TaskToken == "" {
		return struct{}{}, errors.New("request-approval: want a run id and a task token")
	}
	ps, err := s.loadPlan(ctx, in.RunID, in.PlanKey)
	if err != nil {
		return struct{}{}, stepError(err)
	}
	st := approvalState{
		TaskToken: in.TaskToken, Execution: in.Execution, Stack: in.Stack, PlanKey: in.PlanKey, Items: len(ps.Plan.Items),
		RequestedAt: s.now().UTC(),
	}
	if err := s.putRevert(ctx, in.RunID, keyApproval, st); err != nil {
		return struct{}{}, stepError(err)
	}
	m := notify.Message{
		Stack:   in.Stack,
		Title:   "Revert waiting for approval: " + in.Stack.Name,
		Lines:   planLines(ps),
		Context: "realdrift revert · execution " + in.Execution,
	}
	cmd := "realdrift approve " + in.RunID + " --store 'dynamodb://" + s.set.Table + "?region=" + s.region + "'"
	if s.set.ApprovalURL != "" {
		cmd = "realdrift approve " + in.RunID + " --url " + s.set.ApprovalURL
	}
	m.Lines = append(m.Lines, "approve: "+cmd, "reject:  "+cmd+" --reject")
	s.sendMessage(ctx, m)
	return struct{}{}, nil
}

// planLines are a plan's items as message lines (the first few), then
// its counts.
func planLines(ps revertPlanState) []string {
	const show = 10
	var out []string
	for i, it := range ps.Plan.Items {
		if i == show {
			out = append(out, fmt.Sprintf("… and %d more", len(ps.Plan.Items)-show))
			break
		}
		out = append(out, itemLine(it.LogicalID, it.Path, it.PhysicalID, it.Current, it.Target, it.Remove, it.Kind.String(), it.Call))
	}
	return append(out, fmt.Sprintf("%d to revert, %d not revertable", len(ps.Plan.Items), len(ps.Plan.NotRevertable)))
}

// itemLine renders one item: path, current → target, and the call.
func itemLine(logicalID, path, physicalID string, current, target any, remove bool, kind, call string) string {
	name := logicalID
	if path != "" {
		name += "." + path
	}
	switch {
	case kind == "delete":
		return fmt.Sprintf("%s %s: delete via %s", name, physicalID, call)
	case remove:
		return fmt.Sprintf("%s: %s → (remove) via %s", name, shortJSON(current), call)
	}
	return fmt.Sprintf("%s: %s → %s via %s", name, shortJSON(current), shortJSON(target), call)
}

func shortJSON(v any) string {
	if v == nil {
		return "(absent)"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 80 {
		return string(b[:77]) + "…"
	}
	return string(b)
}

// sendMessage sends m on every channel that carries messages; a failure
// is logged, never returned.
func (s *Service) sendMessage(ctx context.Context, m notify.Message) {
	for _, ch := range s.messengers {
		err := ch.send.SendMessage(ctx, m)
		switch {
		case errors.Is(err, errUnset):
			s.warnOnce(ctx, ch.name, err)
		case err != nil:
			s.logger().WarnContext(ctx, "realdrift revert message not delivered", "channel", ch.name, "stack", m.Stack.String(), "error", err.Error())
		}
	}
}

// messenger is a channel that carries revert messages.
type messenger struct {
	name string
	send interface {
		SendMessage(ctx context.Context, m notify.Message) error
	}
}

// SendMessage sends m when the Slack secret holds a webhook.
func (c *slackChannel) SendMessage(ctx context.Context, m notify.Message) error {
	why, err := c.configured(ctx)
	if err != nil {
		return err
	}
	if why != "" {
		return fmt.Errorf("%w: slack webhook secret %s %s", errUnset, c.id, why)
	}
	return c.slack.SendMessage(ctx, m)
}

// ExecutionName is a revert execution's name (its run id), from the name
// itself or the execution's ARN.
func ExecutionName(execution string) string {
	if strings.HasPrefix(execution, "arn:") {
		parts := strings.Split(execution, ":")
		if len(parts) >= 8 && parts[5] == "execution" {
			return parts[7]
		}
	}
	return execution
}

// Decision is an approver's answer to a waiting revert.
type Decision struct {
	Approve bool
	// Approver names who decided: an IAM principal's ARN (the signer
	// Lambda names to the approve-link function, or the CLI caller's STS
	// identity); Via is how (ViaURL, ViaCLI).
	Approver, Via string
	Reason        string
}

// Pending is the revert a decision answered.
type Pending struct {
	RunID       string         `json:"runId"`
	Execution   string         `json:"execution"`
	Stack       drift.StackRef `json:"stack"`
	Items       int            `json:"items"`
	RequestedAt time.Time      `json:"requestedAt"`
}

// Decide sends d to the revert execution waiting for approval (its name
// or ARN): SendTaskSuccess with the Approval as output, or SendTaskFailure
// with ErrorRejected and the Approval as cause. The first decision wins:
// a later one fails with ErrDecided (recorded here) or ErrNotPending
// (refused by Step Functions).
func Decide(ctx context.Context, st store.RunState, tasks taskSender, execution string, d Decision, now time.Time) (Pending, error) {
	runID := ExecutionName(execution)
	var ap approvalState
	if err := getState(ctx, st, runID, keyApproval, &ap); err != nil {
		return Pending{}, err
	}
	p := Pending{RunID: runID, Execution: ap.Execution, Stack: ap.Stack, Items: ap.Items, RequestedAt: ap.RequestedAt}
	var prior statemachine.Approval
	switch err := getState(ctx, st, runID, keyDecision, &prior); {
	case err == nil:
		verb := "rejected"
		if prior.Approved {
			verb = "approved"
		}
		return p, fmt.Errorf("%w: %s by %s at %s", ErrDecided, verb, prior.Approver, prior.At)
	case !errors.Is(err, ErrNoApproval):
		return p, err
	}
	a := statemachine.Approval{Approved: d.Approve, Approver: d.Approver, Via: d.Via, At: now.UTC().Format(time.RFC3339), Reason: d.Reason}
	doc, err := json.Marshal(a)
	if err != nil {
		return p, err
	}
	if d.Approve {
		_, err = tasks.SendTaskSuccess(ctx, &sfn.SendTaskSuccessInput{TaskToken: aws.String(ap.TaskToken), Output: aws.String(string(doc))})
	} else {
		_, err = tasks.SendTaskFailure(ctx, &sfn.SendTaskFailureInput{TaskToken: aws.String(ap.TaskToken), Error: aws.String(statemachine.ErrorRejected), Cause: aws.String(string(doc))})
	}
	var timedOut *sfntypes.TaskTimedOut
	var invalid *sfntypes.InvalidToken
	var gone *sfntypes.TaskDoesNotExist
	switch {
	case errors.As(err, &timedOut) || errors.As(err, &invalid) || errors.As(err, &gone):
		return p, fmt.Errorf("%w: %w", ErrNotPending, err)
	case err != nil:
		return p, fmt.Errorf("send the decision for %s: %w", runID, err)
	}
	if err := st.PutState(ctx, runID, keyDecision, doc, now.Add(RevertStateTTL)); err != nil {
		return p, fmt.Errorf("the decision was sent but not recorded: %w", err)
	}
	return p, nil
}

// getState reads run state key of runID into v; absent is ErrNoApproval.
func getState(ctx context.Context, st store.RunState, runID, key string, v any) error {
	b, err := st.GetState(ctx, runID, key)
	if errors.Is(err, store.ErrNotFound) {
		return fmt.Errorf("%w (execution %s)", ErrNoApproval, runID)
	}
	if err != nil {
		return fmt.Errorf("read the approval of %s: %w", runID, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("decode %s of %s: %w", key, runID, err)
	}
	return nil
}
