package report

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
)

// An interrupted run's SARIF, JUnit and ASFF reports say they are partial
// and name the stacks not checked: none reads as a complete, green run.
func TestPartialReportsSaySo(t *testing.T) {
	checked := []Stack{{Ref: prod, Resources: 2, Findings: []drift.Finding{fnd(drift.Declared, "Fn", "AWS::Lambda::Function", "Timeout", 30.0, 3.0)}}}
	p := Partial{Interrupted: true, NotChecked: []string{"Billing", "Orders"}}

	var sarif bytes.Buffer
	if err := SARIF(&sarif, checked, SARIFOptions{Partial: p}); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Invocations []struct {
				ExecutionSuccessful bool `json:"executionSuccessful"`
				Properties          struct {
					Interrupted bool     `json:"interrupted"`
					NotChecked  []string `json:"notChecked"`
				} `json:"properties"`
				Notes []struct {
					Message struct{ Text string } `json:"message"`
				} `json:"toolExecutionNotifications"`
			} `json:"invocations"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(sarif.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	inv := log.Runs[0].Invocations[0]
	if inv.ExecutionSuccessful || !inv.Properties.Interrupted || strings.Join(inv.Properties.NotChecked, ",") != "Billing,Orders" ||
		len(inv.Notes) != 1 || inv.Notes[0].Message.Text != "interrupted: partial report — not checked: Billing, Orders" {
		t.Errorf("SARIF invocation of an interrupted run: %+v", inv)
	}

	var junit bytes.Buffer
	if err := JUnitPartial(&junit, checked, p); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Name   string `xml:"name,attr"`
		Errors int    `xml:"errors,attr"`
		Suites []struct {
			Name string `xml:"name,attr"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(junit.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Name != "realdrift (interrupted)" || doc.Errors != 2 || len(doc.Suites) != 3 || !strings.Contains(junit.String(), "Orders not checked") {
		t.Errorf("JUnit of an interrupted run:\n%s", junit.String())
	}

	var asff bytes.Buffer
	if err := ASFFPartial(&asff, checked, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), p); err != nil {
		t.Fatal(err)
	}
	var findings []struct {
		ProductFields map[string]string `json:"ProductFields"`
	}
	if err := json.Unmarshal(asff.Bytes(), &findings); err != nil {
		t.Fatal(err)
	}
	if len(findings) != 1 || findings[0].ProductFields["realdrift/interrupted"] != "true" || findings[0].ProductFields["realdrift/notChecked"] != "Billing,Orders" {
		t.Errorf("ASFF of an interrupted run:\n%s", asff.String())
	}

	// Markdown: a clean-looking stack list under an interrupted run is
	// INCOMPLETE, with the partial line under the heading.
	var md bytes.Buffer
	cleanOnly := []Stack{{Ref: prod, Resources: 2}}
	if err := Markdown(&md, cleanOnly, MarkdownOptions{Partial: p}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(md.String(), "## realdrift check: INCOMPLETE\n\n> **interrupted: partial report — not checked: Billing, Orders**\n") {
		t.Errorf("Markdown of an interrupted run:\n%s", md.String())
	}
	md.Reset()
	if err := Markdown(&md, checked, MarkdownOptions{Partial: p}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(md.String(), "## realdrift check: DRIFT\n\n> **interrupted: partial report — not checked: Billing, Orders**\n") {
		t.Errorf("Markdown of an interrupted run with drift:\n%s", md.String())
	}

	// A complete run carries no marker.
	md.Reset()
	if err := Markdown(&md, cleanOnly, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(md.String(), "interrupted") || !strings.HasPrefix(md.String(), "## realdrift check: CLEAN") {
		t.Errorf("Markdown of a complete run:\n%s", md.String())
	}
	var whole bytes.Buffer
	if err := SARIF(&whole, checked, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(whole.String(), "interrupted") || !strings.Contains(whole.String(), `"executionSuccessful": true`) {
		t.Errorf("SARIF of a complete run:\n%s", whole.String())
	}
}
