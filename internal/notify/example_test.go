package notify_test

import (
	"fmt"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/notify"
)

// A run alerts only when the stack's drift set changed since the last run.
func ExampleSummarize() {
	stack := drift.StackRef{Account: "111111111111", Region: "eu-west-1", Name: "Shop"}
	at := time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)
	drifted := []drift.Finding{{Tier: drift.Declared, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue",
		Path: "VisibilityTimeout", Actual: 60.0, Desired: 30.0}}

	first := notify.Summarize(stack, "run-1", at, drifted, "")
	again := notify.Summarize(stack, "run-2", at.Add(time.Hour), drifted, first.Fingerprint)
	fixed := notify.Summarize(stack, "run-3", at.Add(2*time.Hour), nil, again.Fingerprint)

	fmt.Println(first.Event.DetailType())
	fmt.Println(again.Event)
	fmt.Println(fixed.Event.DetailType())
	fmt.Println(notify.Subject(first))
	// Output:
	// Drift Detected
	// none
	// Drift Resolved
	// [realdrift] Drift Detected: Shop (111111111111/eu-west-1)
}
