package revert

import (
	"encoding/json"
	"fmt"

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
