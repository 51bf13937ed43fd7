package report

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// JSONSchemaVersion is the version of the JSON contract
// (report.schema.json at the repository root).
const JSONSchemaVersion = 1

// Kind names what a JSON report is a report of: its "report" field, by
// which report.schema.json tells the shapes apart.
type Kind string

// The JSON reports realdrift writes.
const (
	KindCheck  Kind = "check"
	KindDiff   Kind = "diff"
	KindRevert Kind = "revert"
	// KindCorpus is one line of corpus --json: a case's replay.
	KindCorpus Kind = "corpus"
	// KindSchemaStats is schema stats --json.
	KindSchemaStats Kind = "schemaStats"
)

// Kinds are the kinds of report, in the order report.schema.json lists
// them.
func Kinds() []Kind {
	return []Kind{KindCheck, KindDiff, KindRevert, KindCorpus, KindSchemaStats}
}

// Header is what every JSON report starts with: the contract version, the
// kind of report and the realdrift version that wrote it.
type Header struct {
	SchemaVersion int    `json:"schemaVersion"`
	Report        Kind   `json:"report"`
	ToolVersion   string `json:"toolVersion"`
}

// NewHeader is the header of a report of kind written by toolVersion
// ("(devel)" when empty: a build without a version).
func NewHeader(kind Kind, toolVersion string) Header {
	if toolVersion == "" {
		toolVersion = "(devel)"
	}
	return Header{SchemaVersion: JSONSchemaVersion, Report: kind, ToolVersion: toolVersion}
}

type jsonReport struct {
	Header
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
	Stack            string         `json:"stack"`
	Account          string         `json:"account"`
	Region           string         `json:"region"`
	Parent           string         `json:"parent,omitempty"`
	ParentLogicalID  string         `json:"parentLogicalId,omitempty"`
	Verdict          Verdict        `json:"verdict"`
	Drifted          int            `json:"drifted"`
	PotentialDrift   int            `json:"potentialDrift"`
	CoverageComplete bool           `json:"coverageComplete"`
	Resources        int            `json:"resources"`
	NotRead          int            `json:"notRead"`
	Counts           map[string]int `json:"counts"`
	Error            string         `json:"error,omitempty"`
	Findings         []jsonFinding  `json:"findings"`
}

// jsonFinding is a finding with its stable id (FindingID).
type jsonFinding struct {
	ID string `json:"id"`
	drift.Finding
}

// JSONOptions are what a JSON report says besides the findings.
type JSONOptions struct {
	// ToolVersion is realdrift's version (toolVersion; "(devel)" when
	// empty).
	ToolVersion string
	// Partial marks a run that ended early (the zero value: a whole run).
	Partial Partial
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
// documentation, indented, with a trailing newline. A run that ended
// early (opt.Partial) says interrupted: true, lists the stacks it did not
// check, and its coverage is never complete.
func JSON(w io.Writer, stacks []Stack, opt JSONOptions) error {
	p := opt.Partial
	r := jsonReport{
		Header: NewHeader(KindCheck, opt.ToolVersion), CoverageComplete: !p.Interrupted && len(p.NotChecked) == 0,
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
			Findings: []jsonFinding{},
		}
		for _, f := range sorted(s.Ref.Name, s.Findings) {
			js.Findings = append(js.Findings, jsonFinding{ID: FindingID(s.Ref, f), Finding: f})
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
