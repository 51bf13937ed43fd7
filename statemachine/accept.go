package statemachine

import "github.com/realdrift/realdrift/internal/drift"

// FunctionAccept is the accept definition's one function: it records a
// stack's current undeclared state as its baseline (action record) or the
// audit of a failed accept (action record-failure).
const FunctionAccept = "accept"

// The accept function's actions.
const (
	AcceptRecord        = "record"
	AcceptRecordFailure = "record-failure"
)

// Accept statuses: the audit's and the execution's outcome.
const (
	AcceptRecorded = "recorded"
	AcceptFailed   = "failed"
)

// ErrorAcceptFailed is the error a failed accept execution ends with.
const ErrorAcceptFailed = "AcceptFailed"

// AcceptInput is the accept execution's input, as a person starts it from
// the console (or the drift alert's Accept… link offers it): the stack, and
// optionally the findings to accept (LOGICALID.PATH globs, as `realdrift
// revert --only` takes them; none: every undeclared value and added child)
// and a reason, kept in the audit item.
type AcceptInput struct {
	Account  string   `json:"account"`
	Region   string   `json:"region"`
	Stack    string   `json:"stack"`
	Findings []string `json:"findings,omitempty"`
	Reason   string   `json:"reason,omitempty"`
}

// Ref is the input's stack.
func (in AcceptInput) Ref() drift.StackRef {
	return drift.StackRef{Account: in.Account, Region: in.Region, Name: in.Stack}
}

// AcceptTask is the accept function's input: the action, the run id (the
// execution's name), the execution's ARN, the execution input and, for
// record-failure, the failed step's error and cause.
type AcceptTask struct {
	Action    string      `json:"action"`
	RunID     string      `json:"runId"`
	Execution string      `json:"execution"`
	Request   AcceptInput `json:"request"`
	Error     string      `json:"error,omitempty"`
	Cause     string      `json:"cause,omitempty"`
}

// AcceptAudited is the accept function's result and the execution's
// output: the audit item's key, what was accepted and what the baseline
// holds now.
type AcceptAudited struct {
	RunID  string         `json:"runId"`
	Stack  drift.StackRef `json:"stack"`
	Status string         `json:"status"`
	Key    string         `json:"key"`
	// Accepted counts the values and children recorded by this accept;
	// Entries the baseline's entries after it; NotRead what could not be
	// read (its recorded entries were kept unchanged).
	Accepted int `json:"accepted"`
	Entries  int `json:"entries"`
	NotRead  int `json:"notRead"`
}
