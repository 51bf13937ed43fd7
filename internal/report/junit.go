package report

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/ignore"
)

// JUnit XML, as CI dashboards read it: one testsuite per stack, one
// testcase per resource with drift (a failure listing its findings),
// one "stack" testcase per stack (an error when it could not be checked;
// its system-out carries the verdict when it is not clean), one skipped
// testcase per resource not read ("not read: <reason>"), potential drift
// as a passing testcase's system-out.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
	SystemOut string        `xml:"system-out,omitempty"`
}

type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// JUnit writes stacks as a JUnit XML report.
func JUnit(w io.Writer, stacks []Stack) error { return JUnitPartial(w, stacks, Partial{}) }

// JUnitPartial is JUnit for a run that may have ended early: the report is
// named "realdrift (interrupted)" and each stack not checked is a suite
// with an error test case, so a partial report never reads as all green.
func JUnitPartial(w io.Writer, stacks []Stack, p Partial) error {
	doc := junitSuites{Name: "realdrift"}
	if p.Interrupted {
		doc.Name = "realdrift (interrupted)"
	}
	for _, name := range p.NotChecked {
		stacks = append(stacks, Stack{Ref: drift.StackRef{Name: name}, Err: errors.New(partialLine(Partial{Interrupted: p.Interrupted}) + ": " + name + " not checked")})
	}
	for _, s := range stacks {
		suite := junitSuite{Name: s.Ref.String()}
		class := "realdrift." + s.Ref.Name
		overall := junitCase{Name: "stack", ClassName: class}
		if s.Err != nil {
			overall.Error = &junitProblem{Message: "stack not checked", Type: "error", Text: oneLine(s.Err.Error())}
		}
		suite.Cases = append(suite.Cases, overall)
		if s.Err == nil {
			var order []string
			byRes := map[string][]drift.Finding{}
			pending := map[string][]drift.Finding{}
			for _, f := range sorted(s.Ref.Name, s.Findings) {
				switch {
				case potential(f):
					if _, ok := byRes[f.LogicalID]; !ok {
						if _, ok := pending[f.LogicalID]; !ok {
							order = append(order, f.LogicalID)
						}
					}
					pending[f.LogicalID] = append(pending[f.LogicalID], f)
				case f.Tier.IsDrift():
					if _, ok := byRes[f.LogicalID]; !ok {
						if _, ok := pending[f.LogicalID]; !ok {
							order = append(order, f.LogicalID)
						}
					}
					byRes[f.LogicalID] = append(byRes[f.LogicalID], f)
				}
			}
			for _, id := range order {
				c := junitCase{Name: id, ClassName: class}
				if fs := byRes[id]; len(fs) > 0 {
					c.Failure = &junitProblem{
						Message: fmt.Sprintf("%d %s", len(fs), plural(len(fs), "drift", "drifts")),
						Type:    fs[0].Tier.String(),
						Text:    junitLines(s, fs),
					}
				}
				if fs := pending[id]; len(fs) > 0 {
					c.SystemOut = "potential drift (not yet recorded):\n" + junitLines(s, fs)
				}
				suite.Cases = append(suite.Cases, c)
			}
			for _, u := range UnreadResources(s) {
				suite.Cases = append(suite.Cases, junitCase{
					Name: oneLine(ignore.DisplayPath(s.Ref.Name, u.F)) + " (" + u.F.ResourceType + ")", ClassName: class,
					Skipped: &junitSkipped{Message: "not read: " + oneLine(u.Reason)},
				})
			}
			for _, f := range NothingToRead(s) {
				suite.Cases = append(suite.Cases, junitCase{
					Name: oneLine(ignore.DisplayPath(s.Ref.Name, f)) + " (" + f.ResourceType + ")", ClassName: class,
					SystemOut: "nothing to read: " + oneLine(f.Reason) + " (not counted as unread)\n",
				})
			}
			if sum := Summarize(s); sum.Unread > 0 {
				suite.Cases[0].SystemOut = "verdict: " + sum.Judged.String() + "\n"
			}
		}
		for _, c := range suite.Cases {
			suite.Tests++
			if c.Failure != nil {
				suite.Failures++
			}
			if c.Error != nil {
				suite.Errors++
			}
			if c.Skipped != nil {
				suite.Skipped++
			}
		}
		doc.Tests += suite.Tests
		doc.Failures += suite.Failures
		doc.Errors += suite.Errors
		doc.Skipped += suite.Skipped
		doc.Suites = append(doc.Suites, suite)
	}
	b, err := xml.MarshalIndent(doc, "", "  ")
	if err != nil {
		return fmt.Errorf("write JUnit report: %w", err)
	}
	if _, err := io.WriteString(w, xml.Header+string(b)+"\n"); err != nil {
		return fmt.Errorf("write JUnit report: %w", err)
	}
	return nil
}

func junitLines(s Stack, fs []drift.Finding) string {
	var b strings.Builder
	for _, f := range fs {
		fmt.Fprintf(&b, "[%s] %s\n", f.Tier, sarifMessage(s, f))
	}
	return b.String()
}
