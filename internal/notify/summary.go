package notify

import (
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
)

// MaxTop is how many findings a message lists.
const MaxTop = 5

// Summary is what every message about one stack's run is built from.
type Summary struct {
	Event Event
	Stack drift.StackRef
	RunID string
	// At is when the run finished.
	At                  time.Time
	Fingerprint         string
	PreviousFingerprint string
	// Counts are findings per tier, every tier (zeros left out), except
	// unrecorded findings, which Potential counts instead.
	Counts map[drift.Tier]int
	// Drift is the size of the drift set; Potential counts unrecorded
	// drift-tier findings (potential drift, not alerted on by itself).
	Drift     int
	Potential int
	// Top are the first MaxTop drift-set findings in report order.
	Top []drift.Finding
	// Set is the whole drift set in that order, for a channel that
	// exports every finding (Security Hub); never rendered in a message.
	Set        []drift.Finding `json:"-"`
	ConsoleURL string
	// RevertURL, when set, links to the revert state machine in the Step
	// Functions console (RevertConsoleURL), to start a revert of the stack.
	RevertURL string
	// AcceptURL, when set, links to the accept state machine in the Step
	// Functions console (RevertConsoleURL of its ARN), to record the
	// stack's current undeclared state as its baseline.
	AcceptURL string
	// Verdict is the run's verdict (drift.Judge): an alert about a stack
	// something of which could not be read says INCOMPLETE with the count,
	// never that no drift remains. WithResources sets what it counts
	// against.
	Verdict drift.Verdict `json:"-"`
	all     []drift.Finding
}

// WithResources returns s with its verdict counted against resources, the
// number the check covered (drift.Resources).
func (s Summary) WithResources(resources int) Summary {
	s.Verdict = drift.Judge(s.all, resources, false)
	return s
}

// Summarize builds the Summary of a run from its findings and the previous
// run's drift-set fingerprint ("" when there was none).
func Summarize(stack drift.StackRef, runID string, at time.Time, findings []drift.Finding, previousFingerprint string) Summary {
	s := Summary{
		Stack: stack, RunID: runID, At: at,
		Fingerprint:         Fingerprint(findings),
		PreviousFingerprint: previousFingerprint,
		Counts:              map[drift.Tier]int{},
		ConsoleURL:          ConsoleURL(stack),
		Verdict:             drift.Judge(findings, 0, false),
		all:                 findings,
	}
	s.Event = Decide(previousFingerprint, s.Fingerprint)
	if s.Event == EventDetected && !hasDriftSet(findings) {
		// Only the resources not read changed: not drift, not clean.
		s.Event = EventIncomplete
	}
	var set []drift.Finding
	for _, f := range findings {
		switch {
		case InDriftSet(f):
			set = append(set, f)
			s.Counts[f.Tier]++
		case f.Tier.IsDrift():
			s.Potential++
		default:
			s.Counts[f.Tier]++
		}
	}
	s.Drift = len(set)
	sort.SliceStable(set, func(i, j int) bool {
		a, b := set[i], set[j]
		if a.Tier != b.Tier {
			return a.Tier < b.Tier
		}
		if a.LogicalID != b.LogicalID {
			return a.LogicalID < b.LogicalID
		}
		return a.Path < b.Path
	})
	s.Set = set
	if len(set) > MaxTop {
		set = set[:MaxTop]
	}
	s.Top = set
	return s
}

// RevertConsoleURL links to a state machine (by its ARN) in the Step
// Functions console of its region, where an execution is started.
func RevertConsoleURL(stateMachineARN string) string {
	parts := strings.Split(stateMachineARN, ":")
	if len(parts) < 7 || parts[0] != "arn" {
		return ""
	}
	region := parts[3]
	host := region + ".console.aws.amazon.com"
	switch parts[1] {
	case "aws-cn":
		host = region + ".console.amazonaws.cn"
	case "aws-us-gov":
		host = "console.amazonaws-us-gov.com"
	}
	q := url.Values{"region": {region}}
	return "https://" + host + "/states/home?" + q.Encode() + "#/statemachines/view/" + url.QueryEscape(stateMachineARN)
}

// RevertInput is the revert execution input that reverts the stack's
// drift (every revertable finding; the execution asks for approval with
// the plan before it writes).
func RevertInput(stack drift.StackRef) string {
	b, _ := json.Marshal(map[string]any{"account": stack.Account, "region": stack.Region, "stack": stack.Name, "all": true})
	return string(b)
}

// AcceptInput is the accept execution input that records the stack's
// current undeclared values and added children as its baseline (every
// one: the execution's audit item lists them).
func AcceptInput(stack drift.StackRef) string {
	b, _ := json.Marshal(map[string]any{"account": stack.Account, "region": stack.Region, "stack": stack.Name})
	return string(b)
}

// ConsoleURL links to the stack in the CloudFormation console of its
// region (and partition).
func ConsoleURL(stack drift.StackRef) string {
	host := "console.aws.amazon.com"
	switch {
	case strings.HasPrefix(stack.Region, "cn-"):
		host = "console.amazonaws.cn"
	case strings.HasPrefix(stack.Region, "us-gov-"):
		host = "console.amazonaws-us-gov.com"
	}
	q := url.Values{"region": {stack.Region}}
	return "https://" + host + "/cloudformation/home?" + q.Encode() +
		"#/stacks?filteringText=" + url.QueryEscape(stack.Name)
}

// hasDriftSet reports whether any finding is in the drift set.
func hasDriftSet(findings []drift.Finding) bool {
	for _, f := range findings {
		if InDriftSet(f) {
			return true
		}
	}
	return false
}
