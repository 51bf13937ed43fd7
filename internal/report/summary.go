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
	// Resources is how many resources the check covered: the template's
	// plus the added children found (drift.Resources). The verdict's
	// "n of m not read" counts against it.
	Resources int
}

// Verdict is a stack's (or a run's) outcome: drift.Outcome, whose wire
// names are the JSON report's verdicts.
type Verdict = drift.Outcome

// The verdicts, from best to worst (drift.Outcome's).
const (
	Clean          = drift.Clean
	PotentialDrift = drift.PotentialDrift
	Incomplete     = drift.Incomplete
	Drift          = drift.Drifted
	Error          = drift.Failed
)

// Summary is what a stack's findings add up to.
type Summary struct {
	// Judged is the stack's verdict with its counts (drift.Judge).
	Judged drift.Verdict
	// Verdict is Judged's outcome.
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
	// children whose read failed included; Resources the number the
	// check covered (at least Unread).
	Unread, Resources int
}

// CoverageComplete reports whether every resource was read: never for a
// stack that could not be checked at all.
func (s Summary) CoverageComplete() bool { return s.Judged.Complete() }

// Summarize adds up a stack's findings.
func Summarize(s Stack) Summary {
	v := drift.Judge(s.Findings, s.Resources, s.Err != nil)
	sum := Summary{
		Judged: v, Verdict: v.Outcome(), Drifted: v.Drifted(), Potential: v.Potential(),
		Unread: v.Unread(), Resources: v.Resources(),
		Confirmed: map[drift.Tier]int{}, All: map[drift.Tier]int{},
	}
	for _, f := range s.Findings {
		sum.All[f.Tier]++
		if !potential(f) && f.Tier.IsDrift() {
			sum.Confirmed[f.Tier]++
		}
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

// UnreadResource is one resource a stack's check did not read, with why.
type UnreadResource struct {
	// F is the finding that says so (its resource fields name it).
	F      drift.Finding
	Reason string
}

// UnreadResources lists the resources of s not read, in report order: one
// per resource, its reasons joined (a resource's read and its child
// listing can both fail).
func UnreadResources(s Stack) []UnreadResource {
	var out []UnreadResource
	at := map[string]int{}
	for _, f := range sorted(s.Ref.Name, s.Findings) {
		reason := ""
		switch {
		case f.Tier == drift.Skipped:
			reason = f.Reason
		case f.Tier == drift.Added && f.Actual == nil:
			reason = "added child not read"
			if f.Note != "" {
				reason += ": " + f.Note
			}
		default:
			continue
		}
		if reason == "" {
			reason = "not read"
		}
		k := f.LogicalID + "#" + f.PhysicalID
		if i, ok := at[k]; ok {
			out[i].Reason += "; " + reason
			continue
		}
		at[k] = len(out)
		out = append(out, UnreadResource{F: f, Reason: reason})
	}
	return out
}

// NothingToRead lists the resources of s with no live resource to read
// (custom resources), in report order: shown in every output, never
// counted as not read.
func NothingToRead(s Stack) []drift.Finding {
	var out []drift.Finding
	for _, f := range sorted(s.Ref.Name, s.Findings) {
		if f.Tier == drift.NothingToRead {
			out = append(out, f)
		}
	}
	return out
}
