package notify

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// Event is what a run means for a stack's alerts.
type Event uint8

// The events.
const (
	// EventNone: the drift set did not change; nothing is sent.
	EventNone Event = iota
	// EventDetected: the drift set changed and is not empty.
	EventDetected
	// EventResolved: the drift set became empty and everything was read.
	EventResolved
	// EventIncomplete: no drift among what was read, but the resources
	// not read changed (a clean stack became INCOMPLETE, drift resolved
	// while something could not be read, or another resource went
	// unread): drift there is unknown, so it alerts as a drift change
	// does, never as "no drift remains".
	EventIncomplete
)

var eventNames = [...]string{EventNone: "none", EventDetected: "detected", EventResolved: "resolved", EventIncomplete: "incomplete"}

// String returns the event's short name.
func (e Event) String() string {
	if int(e) < len(eventNames) {
		return eventNames[e]
	}
	return fmt.Sprintf("Event(%d)", uint8(e))
}

// DetailType is the EventBridge detail-type (and the headline) of the event.
func (e Event) DetailType() string {
	switch e {
	case EventDetected:
		return "Drift Detected"
	case EventResolved:
		return "Drift Resolved"
	case EventIncomplete:
		return "Drift Coverage Incomplete"
	}
	return ""
}

// headline names the event in messages; an unchanged run (never sent by a
// Notifier, but a Summary can still be rendered) says so.
func headline(s Summary) string {
	if s.Event == EventIncomplete || s.Event == EventResolved && s.Verdict.Unread() > 0 {
		// No drift in what was read, but not everything was read: what
		// was not read may still drift.
		return "No Drift Seen, INCOMPLETE (" + s.Verdict.NotRead() + ")"
	}
	if h := s.Event.DetailType(); h != "" {
		return h
	}
	if s.Drift > 0 {
		return "Drift Unchanged"
	}
	return "No Drift"
}

// InDriftSet reports whether a finding counts toward the alerting drift set:
// a drift tier, and recorded (a value the baseline has not recorded yet is
// potential drift and does not alert).
func InDriftSet(f drift.Finding) bool { return f.Tier.IsDrift() && !f.Unrecorded }

// Fingerprint digests the drift set of findings and the resources not
// read (skipped findings, by resource and not by reason, so a reworded
// error does not alert; an added child whose read failed is in the drift
// set already). It is "" when both are
// empty, so a stack that never drifted and one whose drift resolved look
// alike, and a stack read in full has the fingerprint of its drift set
// alone. Order of findings does not matter.
func Fingerprint(findings []drift.Finding) string {
	var lines []string
	unread := map[string]bool{}
	for _, f := range findings {
		switch {
		case InDriftSet(f):
			lines = append(lines, fingerprintLine(f))
		case f.Tier == drift.Skipped:
			k := strings.Join([]string{"notRead", f.LogicalID, f.ResourceType, f.PhysicalID}, "\x1f")
			if !unread[k] {
				unread[k] = true
				lines = append(lines, k)
			}
		}
	}
	if len(lines) == 0 {
		return ""
	}
	sort.Strings(lines)
	h := sha256.New()
	for _, l := range lines {
		h.Write([]byte(l))
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}

func fingerprintLine(f drift.Finding) string {
	phys := ""
	if f.Tier == drift.Added {
		phys = f.PhysicalID // the added child is identified by its id
	}
	return strings.Join([]string{
		f.Tier.String(), f.LogicalID, f.ResourceType, phys, f.Path,
		canonical(f.Actual), canonical(f.Desired),
	}, "\x1f")
}

// canonical renders a value as JSON with sorted keys and one number form,
// so 30, 30.0 and json.Number("30") agree. Secrets render as Redacted.
func canonical(v any) string {
	if v == nil {
		return "-"
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "!unencodable"
	}
	var generic any
	if json.Unmarshal(b, &generic) != nil {
		return string(b)
	}
	out, err := json.Marshal(generic)
	if err != nil {
		return string(b)
	}
	return string(out)
}

// Decide says which event, if any, the change from the previous drift-set
// fingerprint to the current one is.
func Decide(previous, current string) Event {
	switch {
	case previous == current:
		return EventNone
	case current == "":
		return EventResolved
	default:
		return EventDetected
	}
}
