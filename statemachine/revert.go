package statemachine

import (
	"encoding/json"

	"github.com/realdrift/realdrift/internal/drift"
)

// The revert definition's functions.
const (
	FunctionRevertPlan      = "revert-plan"
	FunctionRequestApproval = "request-approval"
	FunctionRevertWrite     = "revert-write"
	FunctionRevertConverge  = "revert-converge"
	FunctionRevertAudit     = "revert-audit"
	// FunctionApproveLink answers IAM-signed decisions at its Lambda
	// function URL (AuthType AWS_IAM); no definition invokes it.
	FunctionApproveLink = "approve-link"
)

// ErrorRejected is the error a rejected approval fails the approval task
// with (SendTaskFailure): the revert writes nothing.
const ErrorRejected = "RevertRejected"

// Revert statuses: the audit's and the execution's outcome.
const (
	RevertApplied  = "applied"
	RevertRejected = "rejected"
	RevertFailed   = "failed"
)

// KindRevert is the notify kind of a finished revert.
const KindRevert = "revert"

// RevertInput is the revert execution's input, as a person starts it from
// the console: the stack, the findings to revert (LOGICALID.PATH globs, as
// `realdrift revert --only` takes them) or all of them, and whether to stop
// after the plan.
type RevertInput struct {
	Account  string   `json:"account"`
	Region   string   `json:"region"`
	Stack    string   `json:"stack"`
	Findings []string `json:"findings,omitempty"`
	All      bool     `json:"all,omitempty"`
	DryRun   bool     `json:"dryRun,omitempty"`
}

// Ref is the input's stack.
func (in RevertInput) Ref() drift.StackRef {
	return drift.StackRef{Account: in.Account, Region: in.Region, Name: in.Stack}
}

// RevertPlanTask is the input of revert-plan: the run id (the execution's
// name) and the execution input.
type RevertPlanTask struct {
	RunID   string      `json:"runId"`
	Request RevertInput `json:"request"`
}

// RevertPlanned is revert-plan's result: where the plan is stored, its
// size, and the resources the write Map runs over (0..n-1, in plan order).
type RevertPlanned struct {
	RunID         string         `json:"runId"`
	Stack         drift.StackRef `json:"stack"`
	Key           string         `json:"key"`
	Items         int            `json:"items"`
	NotRevertable int            `json:"notRevertable"`
	Resources     []int          `json:"resources"`
	DryRun        bool           `json:"dryRun"`
}

// MarshalJSON encodes Resources as an array even when nil.
func (p RevertPlanned) MarshalJSON() ([]byte, error) {
	type plain RevertPlanned
	if p.Resources == nil {
		p.Resources = []int{}
	}
	return json.Marshal(plain(p))
}

// ApprovalTask is the input of request-approval, invoked with a task token
// (lambda:invoke.waitForTaskToken): it stores the token for the execution
// and asks people to approve.
type ApprovalTask struct {
	RunID     string         `json:"runId"`
	Execution string         `json:"execution"`
	Stack     drift.StackRef `json:"stack"`
	PlanKey   string         `json:"planKey"`
	TaskToken string         `json:"taskToken"`
}

// Approval is what an approver sends back (SendTaskSuccess's output), and,
// for a rejection, the Cause of SendTaskFailure.
type Approval struct {
	Approved bool   `json:"approved"`
	Approver string `json:"approver"`
	// Via is how the decision was made: "cli" (realdrift approve) or
	// "link" (the approval message's link).
	Via    string `json:"via"`
	At     string `json:"at"`
	Reason string `json:"reason,omitempty"`
}

// RevertWriteTask is the input of revert-write: one resource of the plan.
type RevertWriteTask struct {
	RunID    string         `json:"runId"`
	Stack    drift.StackRef `json:"stack"`
	PlanKey  string         `json:"planKey"`
	Resource int            `json:"resource"`
}

// RevertWritten is revert-write's result.
type RevertWritten struct {
	Resource int `json:"resource"`
	Items    int `json:"items"`
	Failed   int `json:"failed"`
}

// RevertConvergeTask is the input of revert-converge.
type RevertConvergeTask struct {
	RunID   string         `json:"runId"`
	Stack   drift.StackRef `json:"stack"`
	PlanKey string         `json:"planKey"`
}

// RevertConverged is revert-converge's result: where the outcomes are
// stored and their counts by status.
type RevertConverged struct {
	Key    string `json:"key"`
	Counts Counts `json:"counts"`
}

// RevertAuditTask is the input of revert-audit: the outcome to record.
//
//   - applied: Approval (the approval task's result); the outcomes are
//     read from the run state revert-converge wrote.
//   - rejected: Error and Cause of the failed approval (RevertRejected,
//     or States.Timeout when nobody decided in time).
//   - failed: Error and Cause of the step that failed.
type RevertAuditTask struct {
	Status  string      `json:"status"`
	RunID   string      `json:"runId"`
	Request RevertInput `json:"request"`
	// Execution is the execution's ARN.
	Execution string    `json:"execution"`
	Approval  *Approval `json:"approval,omitempty"`
	Error     string    `json:"error,omitempty"`
	Cause     string    `json:"cause,omitempty"`
}

// RevertAudited is revert-audit's result and the execution's output.
type RevertAudited struct {
	RunID  string         `json:"runId"`
	Stack  drift.StackRef `json:"stack"`
	Status string         `json:"status"`
	Key    string         `json:"key"`
	Counts Counts         `json:"counts"`
}
