package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// JSONSchemaVersion is the version of the JSON contract.
const JSONSchemaVersion = 1

type jsonReport struct {
	SchemaVersion    int         `json:"schemaVersion"`
	Verdict          Verdict     `json:"verdict"`
	Drifted          int         `json:"drifted"`
	PotentialDrift   int         `json:"potentialDrift"`
	CoverageComplete bool        `json:"coverageComplete"`
	NotRead          int         `json:"notRead"`
	Interrupted      bool        `json:"interrupted"`
	NotChecked       []string    `json:"notChecked,omitempty"`
	Stacks           []jsonStack `json:"stacks"`
}

type jsonStack struct {
	Stack            string          `json:"stack"`
	Account          string          `json:"account"`
	Region           string          `json:"region"`
	Parent           string          `json:"parent,omitempty"`
	ParentLogicalID  string          `json:"parentLogicalId,omitempty"`
	Verdict          Verdict         `json:"verdict"`
	Drifted          int             `json:"drifted"`
	PotentialDrift   int             `json:"potentialDrift"`
	CoverageComplete bool            `json:"coverageComplete"`
	Resources        int             `json:"resources"`
	NotRead          int             `json:"notRead"`
	Counts           map[string]int  `json:"counts"`
	Error            string          `json:"error,omitempty"`
	Findings         []drift.Finding `json:"findings"`
}

// Partial says a run ended before every stack was checked: interrupted
// (SIGINT, SIGTERM) or stopped by an error, with the stacks it did not
// check.
type Partial struct {
	Interrupted bool
	NotChecked  []string
}

// partialLine says what a partial report lacks: "interrupted: partial
// report — not checked: A, B".
func partialLine(p Partial) string {
	what := "stopped early"
	if p.Interrupted {
		what = "interrupted"
	}
	line := what + ": partial report"
	if len(p.NotChecked) > 0 {
		line += " — not checked: " + strings.Join(p.NotChecked, ", ")
	}
	return line
}

// nonNil is list, or an empty list for nil (a JSON array, never null).
func nonNil(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}

// JSON writes the stacks in the JSON contract described in the package
// documentation, indented, with a trailing newline.
func JSON(w io.Writer, stacks []Stack) error { return JSONPartial(w, stacks, Partial{}) }

// JSONPartial is JSON for a run that may have ended early: an interrupted
// run says interrupted: true, lists the stacks it did not check, and its
// coverage is never complete.
func JSONPartial(w io.Writer, stacks []Stack, p Partial) error {
	r := jsonReport{
		SchemaVersion: JSONSchemaVersion, CoverageComplete: !p.Interrupted && len(p.NotChecked) == 0,
		Interrupted: p.Interrupted, NotChecked: p.NotChecked, Stacks: []jsonStack{},
	}
	if len(stacks) == 0 {
		r.Verdict = Clean
		if !r.CoverageComplete {
			r.Verdict = Incomplete
		}
	}
	for _, s := range stacks {
		sum := Summarize(s)
		js := jsonStack{
			Stack: s.Ref.Name, Account: s.Ref.Account, Region: s.Ref.Region,
			Parent: s.Parent, ParentLogicalID: s.ParentLogicalID,
			Verdict: sum.Verdict, Drifted: sum.Drifted, PotentialDrift: sum.Potential,
			CoverageComplete: sum.CoverageComplete(), Resources: sum.Resources, NotRead: sum.Unread,
			Counts:   map[string]int{},
			Findings: sorted(s.Ref.Name, s.Findings),
		}
		if js.Findings == nil {
			js.Findings = []drift.Finding{}
		}
		for t, n := range sum.All {
			js.Counts[t.String()] = n
		}
		if s.Err != nil {
			js.Error = s.Err.Error()
		}
		r.Verdict = max(r.Verdict, sum.Verdict)
		r.Drifted += sum.Drifted
		r.PotentialDrift += sum.Potential
		r.NotRead += sum.Unread
		r.CoverageComplete = r.CoverageComplete && sum.CoverageComplete()
		r.Stacks = append(r.Stacks, js)
	}
	if !r.CoverageComplete && r.Verdict < Incomplete {
		r.Verdict = Incomplete // an interrupted run is never clean
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write JSON report: %w", err)
	}
	return nil
}
