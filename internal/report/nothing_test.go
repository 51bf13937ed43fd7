package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/realdrift/realdrift/internal/drift"
)

// A CDK stack whose only unreadable resource is a custom resource: there
// is nothing to read, so the stack is clean (check --fail exits 0), and
// every output still lists the custom resource — never as not read.
func TestNothingToReadIsListedNotUnread(t *testing.T) {
	custom := with(fnd(drift.NothingToRead, "AutoDeleteObjects8B1D4B27", "Custom::S3AutoDeleteObjects", "", nil, nil), func(f *drift.Finding) {
		f.Reason = "custom resource: no live resource to read"
		f.ConstructPath = "Prod/Assets/AutoDeleteObjectsCustomResource/Default"
	})
	s := Stack{Ref: prod, Resources: 3, Findings: []drift.Finding{custom, fnd(drift.AtDefault, "Q", "AWS::SQS::Queue", "DelaySeconds", 0.0, nil)}}
	sum := Summarize(s)
	got := map[string]any{"verdict": sum.Judged.String(), "unread": sum.Unread, "complete": sum.CoverageComplete(), "exit --fail": ExitCode([]Stack{s}, true, false), "exit --strict": ExitCode([]Stack{s}, false, true)}
	want := map[string]any{"verdict": "CLEAN", "unread": 0, "complete": true, "exit --fail": ExitOK, "exit --strict": ExitOK}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("verdict (-got +want):\n%s", diff)
	}

	var text bytes.Buffer
	if err := Text(&text, []Stack{s}, Options{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "nothing to read: Assets/AutoDeleteObjectsCustomResource/Default (Custom::S3AutoDeleteObjects)") || strings.Contains(text.String(), "not read,") {
		t.Errorf("text does not list the custom resource as nothing to read:\n%s", text.String())
	}

	var js bytes.Buffer
	if err := JSON(&js, []Stack{s}, JSONOptions{}); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Verdict string `json:"verdict"`
		NotRead int    `json:"notRead"`
		Stacks  []struct {
			Findings []drift.Finding `json:"findings"`
		} `json:"stacks"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Verdict != "clean" || doc.NotRead != 0 || len(doc.Stacks) != 1 || len(doc.Stacks[0].Findings) != 2 || doc.Stacks[0].Findings[1].Tier != drift.NothingToRead {
		t.Errorf("JSON:\n%s", js.String())
	}

	var sarif bytes.Buffer
	if err := SARIF(&sarif, []Stack{s}, SARIFOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(sarif.String(), `"RD901"`) || strings.Contains(sarif.String(), `"RD900"`) || !strings.Contains(sarif.String(), `"executionSuccessful": true`) {
		t.Errorf("SARIF does not note the custom resource as nothing to read:\n%s", sarif.String())
	}

	var junit bytes.Buffer
	if err := JUnit(&junit, []Stack{s}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(junit.String(), "nothing to read: custom resource") || strings.Contains(junit.String(), "<skipped") {
		t.Errorf("JUnit does not list the custom resource as a passing case:\n%s", junit.String())
	}

	var asff bytes.Buffer
	if err := ASFF(&asff, []Stack{s}, time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(asff.String()) != "[]" {
		t.Errorf("ASFF has a finding for a custom resource:\n%s", asff.String())
	}

	var md bytes.Buffer
	if err := Markdown(&md, []Stack{s}, MarkdownOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "nothing to read: 1 custom resource") || strings.Contains(md.String(), "INCOMPLETE") {
		t.Errorf("markdown:\n%s", md.String())
	}
}
