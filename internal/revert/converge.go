package revert

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
)

// Status is an item's outcome after the write and the re-check.
type Status uint8

// The outcomes.
const (
	StatusUnknown Status = iota
	// Reverted: the re-check no longer finds the drift.
	Reverted
	// StillDrifted: the write succeeded but the re-check still finds it.
	StillDrifted
	// Failed: the write failed (the AWS error), or was not confirmed.
	Failed
	// Planned: a dry run; nothing was written.
	Planned
)

var statusNames = [...]string{StatusUnknown: "unknown", Reverted: "reverted", StillDrifted: "stillDrifted", Failed: "failed", Planned: "planned"}

// String returns the status's wire name.
func (s Status) String() string {
	if int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// MarshalJSON writes the wire name.
func (s Status) MarshalJSON() ([]byte, error) {
	if s == StatusUnknown || int(s) >= len(statusNames) {
		return nil, fmt.Errorf("marshal status: invalid status %d", uint8(s))
	}
	return json.Marshal(s.String())
}

// UnmarshalJSON reads a wire name.
func (s *Status) UnmarshalJSON(b []byte) error {
	var n string
	if err := json.Unmarshal(b, &n); err != nil {
		return fmt.Errorf("status: %w", err)
	}
	for i, name := range statusNames {
		if name == n && Status(i) != StatusUnknown {
			*s = Status(i)
			return nil
		}
	}
	return fmt.Errorf("unknown revert status %q", n)
}

// Outcome is one item's result.
type Outcome struct {
	ID     string `json:"id"`
	Status Status `json:"status"`
	// Live is the value the re-check read (StillDrifted).
	Live     any    `json:"live,omitempty"`
	Error    string `json:"error,omitempty"`
	Attempts int    `json:"attempts,omitempty"`
}

// Converge decides each item's outcome from its write and the stack's
// reconciled findings re-read after the writes (after; nil with recheck
// set when the re-check itself failed). It is pure.
func Converge(p *Plan, writes []Write, after []drift.Finding, recheck error) []Outcome {
	left := map[string]drift.Finding{}
	for _, f := range after {
		if f.Tier.IsDrift() || f.Unrecorded {
			left[itemKey(baseline.EntryID(f), f.KeyedPath())] = f
		}
	}
	byID := map[string]Write{}
	for _, w := range writes {
		byID[w.ID] = w
	}
	out := make([]Outcome, 0, len(p.Items))
	for _, it := range p.Items {
		w := byID[it.ID]
		o := Outcome{ID: it.ID, Attempts: w.Attempts}
		entry := it.LogicalID
		if it.Tier == drift.Added {
			entry = baseline.EntryID(drift.Finding{Tier: drift.Added, LogicalID: it.LogicalID, PhysicalID: it.PhysicalID})
		}
		switch f, still := left[itemKey(entry, it.Path)]; {
		case w.Err != nil:
			o.Status, o.Error = Failed, w.Err.Error()
		case recheck != nil:
			o.Status, o.Error = Failed, "written, but the re-check failed: "+recheck.Error()
		case still:
			o.Status, o.Live = StillDrifted, f.Actual
		default:
			o.Status = Reverted
		}
		out = append(out, o)
	}
	return out
}

func itemKey(entry, path string) string { return entry + " " + path }

// PlannedOutcomes returns every item of p as planned (a dry run).
func PlannedOutcomes(p *Plan) []Outcome {
	out := make([]Outcome, 0, len(p.Items))
	for _, it := range p.Items {
		out = append(out, Outcome{ID: it.ID, Status: Planned})
	}
	return out
}

// Rereads is how many more times Verify re-checks a stack whose written
// items still read as drifted: AWS documents the writes of IAM, EC2, SQS
// queue attributes and S3 bucket policies as eventually consistent, so a
// re-check right after a successful write may read the value it replaced.
const Rereads = 3

// VerifyOptions are Verify's re-check and its pacing.
type VerifyOptions struct {
	// Recheck checks the stack again: its reconciled findings, or the
	// error that stopped the check.
	Recheck func(ctx context.Context) ([]drift.Finding, error)
	// Pause is the wait before re-read i (1-based); nil or 0 re-reads at
	// once. Sleep waits it (nil: SleepContext).
	Pause func(i int) time.Duration
	Sleep func(ctx context.Context, d time.Duration) error
	// Progress, when set, receives a line before each re-read.
	Progress func(line string)
}

// Verify decides each item's outcome (Converge) from a re-check of the
// stack after the writes, re-checking up to Rereads more times while an
// item whose write succeeded still reads as drifted. An item still read
// as drifted after them stays StillDrifted and says so: written, not
// confirmed.
func Verify(ctx context.Context, p *Plan, writes []Write, o VerifyOptions) []Outcome {
	sleep := o.Sleep
	if sleep == nil {
		sleep = SleepContext
	}
	after, err := o.Recheck(ctx)
	out := Converge(p, writes, after, err)
	reads := 1
	for i := 1; i <= Rereads && err == nil && stillDrifted(out) > 0; i++ {
		if o.Progress != nil {
			o.Progress(fmt.Sprintf("%d written item(s) still read as drifted: re-reading (%d of %d; AWS may not have propagated the write yet)…", stillDrifted(out), i, Rereads))
		}
		if o.Pause != nil {
			if d := o.Pause(i); d > 0 && sleep(ctx, d) != nil {
				break
			}
		}
		if ctx.Err() != nil {
			break
		}
		after, err = o.Recheck(ctx)
		out = Converge(p, writes, after, err)
		reads++
	}
	for j := range out {
		if out[j].Status == StillDrifted {
			out[j].Error = fmt.Sprintf("written, but not confirmed: %d re-read(s) still read the value it replaced (a write AWS has not propagated yet, or one undone since)", reads)
		}
	}
	return out
}

func stillDrifted(out []Outcome) int {
	n := 0
	for _, o := range out {
		if o.Status == StillDrifted {
			n++
		}
	}
	return n
}
