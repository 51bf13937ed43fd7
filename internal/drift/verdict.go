package drift

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Outcome is what a stack's check comes to, best first. Its zero value,
// OutcomeUnknown, is no outcome at all: Clean is only ever the result of
// Judge, which counts what was read.
type Outcome uint8

// The outcomes, from best to worst.
const (
	OutcomeUnknown Outcome = iota
	// Clean: every resource was read and none drifted.
	Clean
	// PotentialDrift: every resource was read; the only drift-tier
	// findings are live-only values the baseline has not recorded.
	PotentialDrift
	// Incomplete: no confirmed drift among what was read, but at least
	// one resource (or a parent's child listing, or an added child) could
	// not be read: never Clean.
	Incomplete
	// Drifted: confirmed drift (unread resources may sit beside it).
	Drifted
	// Failed: the stack could not be checked at all.
	Failed
)

var outcomeNames = [...]string{
	OutcomeUnknown: "unknown", Clean: "clean", PotentialDrift: "potentialDrift",
	Incomplete: "incomplete", Drifted: "drift", Failed: "error",
}

// String returns the outcome's wire name (the JSON report's verdict).
func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("Outcome(%d)", uint8(o))
}

// MarshalText writes the wire name; OutcomeUnknown is never written.
func (o Outcome) MarshalText() ([]byte, error) {
	if o == OutcomeUnknown || int(o) >= len(outcomeNames) {
		return nil, fmt.Errorf("marshal outcome: invalid outcome %d", uint8(o))
	}
	return []byte(o.String()), nil
}

// UnmarshalText reads a wire name.
func (o *Outcome) UnmarshalText(b []byte) error {
	for i, n := range outcomeNames {
		if n == string(b) && Outcome(i) != OutcomeUnknown {
			*o = Outcome(i)
			return nil
		}
	}
	return fmt.Errorf("unknown verdict %q", b)
}

// Verdict is a stack's outcome together with the counts it rests on: the
// confirmed drift, the potential drift, and how many of the stack's
// resources were not read. Its fields are unexported so that only Judge
// makes one: a Verdict cannot say Clean without having counted what was
// read, and a stack with anything unread is never Clean.
type Verdict struct {
	outcome            Outcome
	drifted, potential int
	unread, resources  int
}

// Judge returns the verdict of one stack's findings (reconciled with the
// baseline and the ignore rules). resources is how many resources the
// check covered (Resources: the template's plus the added children it
// found); failed says the stack could not be checked at all.
//
// A resource is unread when it has a skipped finding (its read, or its
// child listing, failed or was not possible) or is an added child whose
// full read failed (an added finding without a live value).
func Judge(findings []Finding, resources int, failed bool) Verdict {
	v := Verdict{resources: resources}
	unread := map[string]bool{}
	for _, f := range findings {
		switch {
		case f.Unrecorded && (f.Tier == Undeclared || f.Tier == Added):
			v.potential++
		case f.Tier.IsDrift():
			v.drifted++
		case f.Tier == Skipped:
			unread[f.LogicalID+"#"+f.PhysicalID] = true
		}
		if f.Tier == Added && f.Actual == nil {
			unread[f.LogicalID+"#"+f.PhysicalID] = true // its full read failed
		}
	}
	v.unread = len(unread)
	v.resources = max(v.resources, v.unread)
	switch {
	case failed:
		v.outcome = Failed
	case v.drifted > 0:
		v.outcome = Drifted
	case v.unread > 0:
		v.outcome = Incomplete
	case v.potential > 0:
		v.outcome = PotentialDrift
	default:
		v.outcome = Clean
	}
	return v
}

// Resources counts the resources a check covers: declared template
// resources plus each distinct added child among findings (an added
// finding, or any finding whose logical id is an added child's
// synthesized "Parent/Type": a template logical id is alphanumeric, so
// the slash tells them apart, before or after a baseline turned an
// unread child into a skipped one).
func Resources(declared int, findings []Finding) int {
	added := map[string]bool{}
	for _, f := range findings {
		if f.Tier == Added || strings.Contains(f.LogicalID, "/") {
			added[f.LogicalID+"#"+f.PhysicalID] = true
		}
	}
	return declared + len(added)
}

// Outcome is the verdict's kind.
func (v Verdict) Outcome() Outcome { return v.outcome }

// Drifted is the number of confirmed drift findings.
func (v Verdict) Drifted() int { return v.drifted }

// Potential is the number of unrecorded live-only findings.
func (v Verdict) Potential() int { return v.potential }

// Unread is the number of resources not read.
func (v Verdict) Unread() int { return v.unread }

// Resources is the number of resources the check covered (at least
// Unread).
func (v Verdict) Resources() int { return v.resources }

// Complete reports whether everything was read: never for a stack that
// could not be checked, nor for a verdict Judge did not make.
func (v Verdict) Complete() bool {
	return v.unread == 0 && v.outcome != Failed && v.outcome != OutcomeUnknown
}

// NotRead renders the coverage gap, "3 of 15 not read", or "" when
// everything was read.
func (v Verdict) NotRead() string {
	if v.unread == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d not read", v.unread, v.resources)
}

// String renders the verdict for people: "CLEAN", "INCOMPLETE (3 of 15
// not read)", "DRIFT (2; 3 of 15 not read)", "POTENTIAL DRIFT (1)",
// "ERROR", "UNKNOWN".
func (v Verdict) String() string {
	gap := v.NotRead()
	switch v.outcome {
	case Clean:
		return "CLEAN"
	case Incomplete:
		return "INCOMPLETE (" + gap + ")"
	case Drifted:
		if gap != "" {
			return fmt.Sprintf("DRIFT (%d; %s)", v.drifted, gap)
		}
		return fmt.Sprintf("DRIFT (%d)", v.drifted)
	case PotentialDrift:
		return fmt.Sprintf("POTENTIAL DRIFT (%d)", v.potential)
	case Failed:
		return "ERROR"
	}
	return "UNKNOWN"
}

// verdictJSON is a Verdict's wire shape.
type verdictJSON struct {
	Verdict   Outcome `json:"verdict"`
	Resources int     `json:"resources"`
	NotRead   int     `json:"notRead"`
}

// MarshalJSON writes {"verdict", "resources", "notRead"}.
func (v Verdict) MarshalJSON() ([]byte, error) {
	return json.Marshal(verdictJSON{v.outcome, v.resources, v.unread})
}
