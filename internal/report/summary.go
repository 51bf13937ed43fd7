package report

import (
	"sort"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
)

// Stack is one checked stack.
type Stack struct {
	Ref drift.StackRef
	// Findings are reconciled with the baseline and the ignore rules.
	Findings []drift.Finding
	// Err is set when the stack could not be checked.
	Err error
	// Parent is, for a nested stack, the name of the stack it was reached
	// from, and ParentLogicalID the logical id of its
	// AWS::CloudFormation::Stack resource there; both "" otherwise.
	Parent, ParentLogicalID string
}

// Verdict is a stack's (or a run's) outcome.
type Verdict uint8

// The verdicts, from best to worst.
const (
	Clean Verdict = iota
	PotentialDrift
	Drift
	Error
)

var verdictNames = [...]string{Clean: "clean", PotentialDrift: "potentialDrift", Drift: "drift", Error: "error"}

// String returns the verdict's wire name.
func (v Verdict) String() string {
	if int(v) < len(verdictNames) {
		return verdictNames[v]
	}
	return "unknown"
}

// MarshalText writes the wire name.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Summary is what a stack's findings add up to.
type Summary struct {
	Verdict Verdict
	// Confirmed counts the drift findings that are not Unrecorded, by tier.
	Confirmed map[drift.Tier]int
	// Drifted is the number of confirmed drift findings.
	Drifted int
	// Potential is the number of Unrecorded findings.
	Potential int
	// All counts every finding by tier.
	All map[drift.Tier]int
	// Unread is the number of resources with a skipped finding, added
	// children whose read failed included.
	Unread int
}

// CoverageComplete reports whether every resource was read: never for a
// stack that could not be checked at all.
func (s Summary) CoverageComplete() bool { return s.Unread == 0 && s.Verdict != Error }

// Summarize adds up a stack's findings.
func Summarize(s Stack) Summary {
	sum := Summary{Confirmed: map[drift.Tier]int{}, All: map[drift.Tier]int{}}
	unread := map[string]bool{}
	for _, f := range s.Findings {
		sum.All[f.Tier]++
		switch {
		case potential(f):
			sum.Potential++
		case f.Tier.IsDrift():
			sum.Confirmed[f.Tier]++
			sum.Drifted++
		case f.Tier == drift.Skipped:
			unread[f.LogicalID+"#"+f.PhysicalID] = true
		}
		if f.Tier == drift.Added && f.Actual == nil {
			unread[f.LogicalID+"#"+f.PhysicalID] = true // its full read failed
		}
	}
	sum.Unread = len(unread)
	switch {
	case s.Err != nil:
		sum.Verdict = Error
	case sum.Drifted > 0:
		sum.Verdict = Drift
	case sum.Potential > 0:
		sum.Verdict = PotentialDrift
	}
	return sum
}

// potential reports whether f is an Unrecorded live-only value.
func potential(f drift.Finding) bool {
	return f.Unrecorded && (f.Tier == drift.Undeclared || f.Tier == drift.Added)
}

// sorted returns the findings ordered by tier, logical id and path.
func sorted(stack string, fs []drift.Finding) []drift.Finding {
	out := append([]drift.Finding(nil), fs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Tier != b.Tier {
			return a.Tier < b.Tier
		}
		da, db := ignore.DisplayPath(stack, a), ignore.DisplayPath(stack, b)
		if da != db {
			return da < db
		}
		return a.LogicalID < b.LogicalID
	})
	return out
}
