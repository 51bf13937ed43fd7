package statemachine

import (
	"encoding/json"
	"fmt"

	"github.com/realdrift/realdrift/internal/drift"
)

// The Lambda functions the definitions invoke, by their fixed names. Each
// is the ${XFunctionArn} substitution named by SubstitutionName.
const (
	FunctionDiscover          = "discover"
	FunctionLoadDesired       = "load-desired"
	FunctionReadResources     = "read-resources"
	FunctionResolve           = "resolve"
	FunctionEnumerateChildren = "enumerate-children"
	FunctionClassify          = "classify"
	FunctionPersist           = "persist"
	FunctionNotify            = "notify"
	FunctionTrigger           = "trigger"
)

// FunctionNames lists every function of the service, trigger and
// approve-link (invoked by events and links, not by a definition) included.
func FunctionNames() []string {
	return []string{
		FunctionDiscover, FunctionLoadDesired, FunctionReadResources, FunctionResolve,
		FunctionEnumerateChildren, FunctionClassify, FunctionPersist, FunctionNotify, FunctionTrigger,
		FunctionRevertPlan, FunctionRequestApproval, FunctionRevertWrite, FunctionRevertConverge, FunctionRevertAudit,
		FunctionApproveLink, FunctionAccept,
	}
}

// ErrorThrottled is the errorType the definitions retry with backoff. A
// handler reports throttling by returning a *Throttled (unwrapped: the Lambda
// Go runtime names an error by its outermost type).
const ErrorThrottled = "Throttled"

// ThrottledRetries is how many times the definitions retry a Task that
// failed Throttled (its retrier's MaxAttempts). read-resources gives up on
// a still-throttled read, reporting it skipped, on the attempt after the
// last retry's (or at its deadline, whichever comes first).
const ThrottledRetries = 12

// Throttled marks an error as throttling, so Step Functions retries it.
type Throttled struct{ Err error }

func (t *Throttled) Error() string { return "throttled: " + t.Err.Error() }

// Unwrap returns the throttling error.
func (t *Throttled) Unwrap() error { return t.Err }

// Trigger values of CheckInput.
const (
	TriggerSweep = "sweep"
	TriggerEvent = "event"
)

// Persist actions.
const (
	ActionRecordStack   = "record-stack"
	ActionRecordFailure = "record-failure"
	ActionCloseRun      = "close-run"
)

// Notify kinds.
const (
	KindStack = "stack"
	KindSweep = "sweep"
)

// CheckInput is check-stack's execution input (and each sweep item).
type CheckInput struct {
	RunID   string         `json:"runId"`
	Stack   drift.StackRef `json:"stack"`
	Trigger string         `json:"trigger"`
}

// StackTask is the input of load-desired.
type StackTask struct {
	RunID string         `json:"runId"`
	Stack drift.StackRef `json:"stack"`
}

// Desired is load-desired's result: where the desired model is stored and
// how its resources are split into read batches (0..n-1).
type Desired struct {
	Key       string `json:"key"`
	Resources int    `json:"resources"`
	Batches   []int  `json:"batches"`
}

// ReadBatch is the input of read-resources: one batch of the stored desired
// model's resources, in the order load-desired fixed.
type ReadBatch struct {
	RunID      string         `json:"runId"`
	Stack      drift.StackRef `json:"stack"`
	DesiredKey string         `json:"desiredKey"`
	Batch      int            `json:"batch"`
}

// ResolveTask is the input of resolve.
type ResolveTask struct {
	RunID      string         `json:"runId"`
	Stack      drift.StackRef `json:"stack"`
	DesiredKey string         `json:"desiredKey"`
}

// Resolved is resolve's result: where the resolved model is stored and how
// the declared parents with enumerable children are split into batches.
type Resolved struct {
	Key           string `json:"key"`
	ParentBatches []int  `json:"parentBatches"`
}

// EnumerateBatch is the input of enumerate-children.
type EnumerateBatch struct {
	RunID       string         `json:"runId"`
	Stack       drift.StackRef `json:"stack"`
	ResolvedKey string         `json:"resolvedKey"`
	Batch       int            `json:"batch"`
}

// ClassifyTask is the input of classify.
type ClassifyTask struct {
	RunID       string         `json:"runId"`
	Stack       drift.StackRef `json:"stack"`
	DesiredKey  string         `json:"desiredKey"`
	ResolvedKey string         `json:"resolvedKey"`
}

// Counts maps a status or tier name (drift, unrecorded, suppressed, ignored,
// or an informational tier) to its number of findings. It has a few dozen
// keys at most.
type Counts map[string]int

// Classified is classify's result: where the findings are stored, and
// their counts.
type Classified struct {
	Key    string `json:"key"`
	Counts Counts `json:"counts"`
}

// PersistTask is the input of persist; Action selects what it records.
//
//   - record-stack: RunID, Stack, FindingsKey, Counts. Returns Persisted.
//   - record-failure: RunID, Stack or Account, Error, Cause. Returns
//     nothing the definitions read.
//   - close-run: RunID. Returns RunSummary.
type PersistTask struct {
	Action      string          `json:"action"`
	RunID       string          `json:"runId"`
	Stack       *drift.StackRef `json:"stack,omitempty"`
	Account     string          `json:"account,omitempty"`
	FindingsKey string          `json:"findingsKey,omitempty"`
	Counts      Counts          `json:"counts,omitempty"`
	Error       string          `json:"error,omitempty"`
	Cause       string          `json:"cause,omitempty"`
}

// Persisted is persist's record-stack result.
type Persisted struct {
	Changed bool `json:"changed"`
}

// RunSummary is persist's close-run result and the sweep's output.
type RunSummary struct {
	RunID          string `json:"runId"`
	Accounts       int    `json:"accounts"`
	AccountsFailed int    `json:"accountsFailed"`
	Stacks         int    `json:"stacks"`
	Checked        int    `json:"checked"`
	Failed         int    `json:"failed"`
	// Missing counts stacks discovered but neither checked nor recorded as
	// failed (a child execution that timed out or was stopped, for example).
	Missing int    `json:"missing"`
	Changed int    `json:"changed"`
	Counts  Counts `json:"counts"`
}

// NotifyTask is the input of notify.
//
//   - stack: RunID, Stack, FindingsKey, Counts (the stack's findings changed).
//   - sweep: RunID, Summary.
//   - revert: RunID, Stack, AuditKey (a revert finished).
type NotifyTask struct {
	Kind        string          `json:"kind"`
	RunID       string          `json:"runId"`
	Stack       *drift.StackRef `json:"stack,omitempty"`
	FindingsKey string          `json:"findingsKey,omitempty"`
	Counts      Counts          `json:"counts,omitempty"`
	Summary     *RunSummary     `json:"summary,omitempty"`
	AuditKey    string          `json:"auditKey,omitempty"`
}

// DiscoverTask is the input of discover. Without Account it lists the
// organisation's active accounts and opens the run (returning
// DiscoveredAccounts); with Account it lists that account's stacks in every
// configured region and records their number on the run (returning
// DiscoveredTargets); with Account, Region and Results (the sweep's
// ListLargeStacks) it lists the stacks of that account-region the Stacks
// Map left to the LargeStacks Map (returning a RegionTargets).
type DiscoverTask struct {
	RunID   string `json:"runId"`
	Account string `json:"account,omitempty"`
	Region  string `json:"region,omitempty"`
	// Results names the Stacks Map Run's manifest (its state result's
	// ResultWriterDetails).
	Results *ResultWriterDetails `json:"results,omitempty"`
}

// ExpressStackResources is the most resources a stack may have for the
// sweep's Express Stacks Map to check it: its FitsExpress Choice defers a
// larger one to the LargeStacks Map (Standard). At the account-region's
// shared rate (5 stacks at once, 10 calls/s) a stack reads about one
// resource a second, so 100 resources leave a margin of about 3 under
// Express's 5 minutes (statemachine/doc.go).
const ExpressStackResources = 100

// StatusDeferred is the status of a sweep's Express per-stack child that
// left its stack to the LargeStacks Map (its StackDeferred output).
const StatusDeferred = "deferred"

// DiscoveredAccounts is discover's organisation-wide result.
type DiscoveredAccounts struct {
	Accounts []string `json:"accounts"`
	// AccountsAtOnce bounds the accounts swept at once (the Accounts
	// Map's MaxConcurrencyPath).
	AccountsAtOnce int `json:"accountsAtOnce"`
}

// DiscoveredTargets is discover's per-account result: one entry per
// configured region, in the order of REALDRIFT_REGIONS, each the stack list
// of one account-region (the sweep's Regions Map runs them side by side).
type DiscoveredTargets struct {
	Regions []RegionTargets `json:"regions"`
}

// RegionTargets is one account-region's stack list. With a targets bucket
// (production) the list is the S3 object Bucket/Key — a JSON array of
// StackRef the Stacks Map's ItemReader reads, so thousands of stacks never
// pass through the state — and the children's results go under
// ResultsPrefix (ResultWriter); Targets is then empty. Without one (local
// a bucket, which the production definition cannot read) Targets holds the
// list inline.
// Measured at 5,000 stacks (TestDiscoverFiveThousandStacks in
// internal/service): the object is 338,901 bytes and the entry 215; inline,
// at about 68 bytes a stack, the list passes Step Functions' 256 KiB state
// limit at about 3,800 stacks.
type RegionTargets struct {
	Region        string           `json:"region"`
	Stacks        int              `json:"stacks"`
	Bucket        string           `json:"bucket,omitempty"`
	Key           string           `json:"key,omitempty"`
	ResultsPrefix string           `json:"resultsPrefix,omitempty"`
	Targets       []drift.StackRef `json:"targets"`
}

// All returns every region's inline targets in order.
func (d DiscoveredTargets) All() []drift.StackRef {
	var out []drift.StackRef
	for _, r := range d.Regions {
		out = append(out, r.Targets...)
	}
	return out
}

// A Map state fails on a null ItemsPath, so the list fields below always
// encode as an array, empty when nil.

// MarshalJSON encodes Batches as an array even when nil.
func (d Desired) MarshalJSON() ([]byte, error) {
	type plain Desired
	if d.Batches == nil {
		d.Batches = []int{}
	}
	return json.Marshal(plain(d))
}

// MarshalJSON encodes ParentBatches as an array even when nil.
func (r Resolved) MarshalJSON() ([]byte, error) {
	type plain Resolved
	if r.ParentBatches == nil {
		r.ParentBatches = []int{}
	}
	return json.Marshal(plain(r))
}

// MarshalJSON encodes Accounts as an array even when nil.
func (d DiscoveredAccounts) MarshalJSON() ([]byte, error) {
	type plain DiscoveredAccounts
	if d.Accounts == nil {
		d.Accounts = []string{}
	}
	return json.Marshal(plain(d))
}

// MarshalJSON encodes Regions as an array even when nil.
func (d DiscoveredTargets) MarshalJSON() ([]byte, error) {
	type plain DiscoveredTargets
	if d.Regions == nil {
		d.Regions = []RegionTargets{}
	}
	return json.Marshal(plain(d))
}

// MarshalJSON encodes Targets as an array even when nil.
func (r RegionTargets) MarshalJSON() ([]byte, error) {
	type plain RegionTargets
	if r.Targets == nil {
		r.Targets = []drift.StackRef{}
	}
	return json.Marshal(plain(r))
}

// Manifest is the manifest.json a Distributed Map's ResultWriter writes
// under its prefix: the result files of its children, by outcome.
type Manifest struct {
	DestinationBucket string `json:"DestinationBucket"`
	MapRunArn         string `json:"MapRunArn"`
	ResultFiles       struct {
		Succeeded []ResultFile `json:"SUCCEEDED"`
		Failed    []ResultFile `json:"FAILED"`
		Pending   []ResultFile `json:"PENDING"`
	} `json:"ResultFiles"`
}

// ResultFile is one result file a manifest names: a JSON array of
// ChildResult.
type ResultFile struct {
	Key  string `json:"Key"`
	Size int64  `json:"Size"`
}

// ChildResult is one child execution in a result file. Input and Output
// are the execution's input and output as JSON strings (Output only for a
// child that succeeded).
type ChildResult struct {
	ExecutionArn string `json:"ExecutionArn"`
	Name         string `json:"Name"`
	Status       string `json:"Status"`
	Input        string `json:"Input"`
	Output       string `json:"Output,omitempty"`
	Error        string `json:"Error,omitempty"`
	Cause        string `json:"Cause,omitempty"`
}

// StackDeferred is the output of a sweep Express child that deferred its
// stack (Status StatusDeferred).
type StackDeferred struct {
	RunID     string         `json:"runId"`
	Stack     drift.StackRef `json:"stack"`
	Status    string         `json:"status"`
	Resources int            `json:"resources"`
}

// LargeStacks lists the stacks a Stacks Map Run left to the LargeStacks
// Map, in the order of the account-region's stack list (the JSON array at
// listKey): those whose child deferred them (a StackDeferred output) and
// those whose child did not succeed or never started (the manifest's
// FAILED and PENDING files), since their check never ended. A stack whose
// check failed is not among them: its child recorded the failure and
// succeeded. read decodes the JSON object at a key of the bucket the
// manifest (manifestKey) and the list are in; what it cannot read is an
// error, never a shorter list.
func LargeStacks(read func(key string, v any) error, manifestKey, listKey string) ([]drift.StackRef, error) {
	var m Manifest
	if err := read(manifestKey, &m); err != nil {
		return nil, err
	}
	left := map[drift.StackRef]bool{}
	for _, g := range []struct {
		succeeded bool
		files     []ResultFile
	}{{true, m.ResultFiles.Succeeded}, {false, m.ResultFiles.Failed}, {false, m.ResultFiles.Pending}} {
		for _, f := range g.files {
			var results []ChildResult
			if err := read(f.Key, &results); err != nil {
				return nil, err
			}
			if err := leftToLarge(g.succeeded, results, left); err != nil {
				return nil, fmt.Errorf("%s: %w", f.Key, err)
			}
		}
	}
	var listed []drift.StackRef
	if err := read(listKey, &listed); err != nil {
		return nil, err
	}
	var out []drift.StackRef
	for _, ref := range listed {
		if left[ref] {
			out = append(out, ref)
		}
	}
	return out, nil
}

// leftToLarge adds to left the stacks of one result file the LargeStacks
// Map is to check: of succeeded children, those whose output is
// StatusDeferred; of the others, every child's stack (its input's).
func leftToLarge(succeeded bool, file []ChildResult, left map[drift.StackRef]bool) error {
	for _, r := range file {
		if succeeded {
			var out StackDeferred
			if err := json.Unmarshal([]byte(r.Output), &out); err != nil {
				return fmt.Errorf("child %s: output: %w", r.Name, err)
			}
			if out.Status == StatusDeferred {
				left[out.Stack] = true
			}
			continue
		}
		var in CheckInput
		if err := json.Unmarshal([]byte(r.Input), &in); err != nil {
			return fmt.Errorf("child %s: input: %w", r.Name, err)
		}
		left[in.Stack] = true
	}
	return nil
}
