package report_test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/report"
)

// TestChangedByShown: a finding's attribution appears in every output
// people read, and one that is unknown says why.
func TestChangedByShown(t *testing.T) {
	known := &drift.ChangedBy{Principal: "arn:aws:sts::111111111111:assumed-role/Admin/alice", Name: "alice", SessionName: "alice",
		EventName: "SetQueueAttributes", EventSource: "sqs.amazonaws.com", Time: time.Date(2026, 12, 5, 9, 14, 0, 0, time.UTC),
		SourceIP: "198.51.100.7", UserAgent: "console.amazonaws.com", Agent: drift.AgentConsole, EventID: "ev-1", Region: "us-east-1"}
	unknown := &drift.ChangedBy{Unknown: "no write event in the 90 days CloudTrail's event history covers"}
	stacks := []report.Stack{{
		Ref: drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "App"}, Resources: 2,
		Findings: []drift.Finding{
			{Tier: drift.Declared, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue", PhysicalID: "q", Path: "VisibilityTimeout", Desired: 30.0, Actual: 45.0, ChangedBy: known},
			{Tier: drift.Deleted, LogicalID: "Topic", ResourceType: "AWS::SNS::Topic", PhysicalID: "t", ChangedBy: unknown},
		},
	}}
	line := "changed by alice (console) 2026-12-05 09:14 UTC"
	why := "changed by: unknown (no write event in the 90 days"
	outputs := map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return report.Text(b, stacks, report.Options{}) },
		"markdown": func(b *bytes.Buffer) error { return report.Markdown(b, stacks, report.MarkdownOptions{}) },
		"json":     func(b *bytes.Buffer) error { return report.JSON(b, stacks, report.JSONOptions{}) },
		"sarif":    func(b *bytes.Buffer) error { return report.SARIF(b, stacks, report.SARIFOptions{}) },
		"asff": func(b *bytes.Buffer) error {
			return report.ASFF(b, stacks, time.Date(2026, 12, 6, 0, 0, 0, 0, time.UTC))
		},
	}
	wants := map[string][]string{
		"text":     {line + " — SetQueueAttributes by arn:aws:sts::111111111111:assumed-role/Admin/alice, from 198.51.100.7, event ev-1", why},
		"markdown": {line, why},
		"json":     {`"changedBy": {`, `"eventId": "ev-1"`, `"agent": "console"`, `"unknown": "no write event`},
		"sarif":    {`"changedBy":{`, `"eventId":"ev-1"`},
		"asff":     {`"changedBy.principal":"arn:aws:sts::111111111111:assumed-role/Admin/alice"`, `"SourceUrl":"https://us-east-1.console.aws.amazon.com/cloudtrailv2/home?region=us-east-1#/events/ev-1"`, `"changedBy.unknown":"no write event`},
	}
	for name, write := range outputs {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out := b.String()
		if name == "sarif" || name == "asff" {
			out = strings.Join(strings.Fields(out), "")
			for i, w := range wants[name] {
				wants[name][i] = strings.Join(strings.Fields(w), "")
			}
		}
		for _, w := range wants[name] {
			if !strings.Contains(out, w) {
				t.Errorf("%s lacks %q:\n%s", name, w, b.String())
			}
		}
	}
}
