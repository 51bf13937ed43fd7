package service_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
)

// nestedTree adds the nested world's stack tree (worldgen.NestedStacks) to
// the central account's us-east-1 and returns one extra per stack of it,
// root first, so the e2e compares each of them.
func nestedTree(t *testing.T) (extras []func(*sandbox.World) drift.StackRef, queue *sandbox.Resource) {
	t.Helper()
	ref := func(name string) drift.StackRef {
		return drift.StackRef{Account: demoAccount(0), Region: "us-east-1", Name: name}
	}
	stacks, err := worldgen.NestedStacks(demoAccount(0), "us-east-1")
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range stacks {
		for _, r := range st.Resources {
			if r.Type == "AWS::SQS::Queue" {
				queue = r
			}
		}
	}
	for i, st := range stacks {
		name := st.Name
		extras = append(extras, func(w *sandbox.World) drift.StackRef {
			if i == 0 {
				for _, a := range w.Accounts {
					for _, r := range a.Regions {
						if a.ID == demoAccount(0) && r.Name == "us-east-1" {
							r.Stacks = append(r.Stacks, stacks...)
						}
					}
				}
			}
			return ref(name)
		})
	}
	return extras, queue
}

// TestSweepEndToEndNested sweeps the demo organisation with a stack tree
// beside its stacks (a parent, two nested stacks, a nested stack of the
// first), every role enforced: discovery targets each nested stack once,
// each is checked with its own template, and stored findings equal
// `realdrift check --json` of that stack. An out-of-band change to the
// queue of the nested Queues stack is drift of that stack only — the
// parent's AWS::CloudFormation::Stack resources echo nothing as drift.
func TestSweepEndToEndNested(t *testing.T) {
	extras, queue := nestedTree(t)
	if queue == nil {
		t.Fatal("the nested tree has no queue")
	}
	e := startE2E(t, extras...)
	if err := e.sandbox.Apply(sandbox.Change{Op: sandbox.OpSet, Account: demoAccount(0), Region: "us-east-1", Type: queue.Type,
		Identifier: queue.PhysicalID, Path: "VisibilityTimeout", Value: json.RawMessage("75")}); err != nil {
		t.Fatal(err)
	}
	sum := e.sweep(t, "sweep-nested")
	if sum.Stacks != len(e.stacks) || sum.Failed != 1 {
		t.Errorf("summary %+v: want %d stacks (the tree's %d included), 1 failed (the locked stack)", sum, len(e.stacks), len(extras))
	}
	drifted := e.compare(t, "sweep-nested")
	names := worldgen.NestedStackNames()
	for _, n := range names {
		k := key(drift.StackRef{Account: demoAccount(0), Region: "us-east-1", Name: n})
		queues := strings.Contains(n, "-QueuesStack-") && !strings.Contains(n, "-AlarmsStack-")
		if got := slices.Contains(drifted, k); got != queues {
			t.Errorf("%s drifted = %v, want %v (only the Queues stack holds the changed queue)", n, got, queues)
		}
	}
	got, _ := e.storedFindings(t, drift.StackRef{Account: demoAccount(0), Region: "us-east-1", Name: names[0]})
	for _, f := range got.([]any) {
		m := f.(map[string]any)
		if m["resourceType"] == "AWS::CloudFormation::Stack" && m["tier"] == "drift" {
			t.Errorf("the parent reports its nested stack resource as drift: %v", m)
		}
	}
}
