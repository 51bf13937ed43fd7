package baseline_test

import (
	"fmt"

	"github.com/realdrift/realdrift/internal/baseline"
	"github.com/realdrift/realdrift/internal/drift"
)

func ExampleApply() {
	stack := drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "Prod"}
	queue := baseline.Resource{LogicalID: "Queue", Type: "AWS::SQS::Queue", PhysicalID: "q-1"}
	undeclared := func(path string, v any) drift.Finding {
		return drift.Finding{Tier: drift.Undeclared, LogicalID: "Queue", ResourceType: "AWS::SQS::Queue", PhysicalID: "q-1", Path: path, Actual: v}
	}

	// First run: no baseline, so every live-only value is potential drift.
	run1 := []drift.Finding{undeclared("MaximumMessageSize", 1024.0), undeclared("Policy", "p")}
	for _, f := range baseline.Apply(nil, baseline.Input{Findings: run1, Resources: []baseline.Resource{queue}}, baseline.Options{}).Findings {
		fmt.Println(f.Path, "unrecorded:", f.Unrecorded)
	}

	// Record everything, then check a later state.
	b := baseline.Record(nil, baseline.Snapshot{Stack: stack, Findings: run1, Resources: []baseline.Resource{queue}}, baseline.Options{})
	run2 := []drift.Finding{undeclared("MaximumMessageSize", 2048.0), undeclared("DelaySeconds", 5.0)}
	res := baseline.Apply(b, baseline.Input{Findings: run2, Resources: []baseline.Resource{queue}}, baseline.Options{})
	for _, f := range res.Findings {
		fmt.Printf("%s: %v → %v (%s)\n", f.Path, f.Desired, f.Actual, f.Note)
	}
	// Output:
	// MaximumMessageSize unrecorded: true
	// Policy unrecorded: true
	// MaximumMessageSize: 1024 → 2048 (changed since record)
	// DelaySeconds: <nil> → 5 (appeared since record)
	// Policy: p → <nil> (baseline value removed since record)
}
