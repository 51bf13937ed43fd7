package service_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox/worldgen"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/statemachine"
)

// TestSweepEndToEndSlackUnset deploys as infra does before anyone sets the
// Slack secret (it holds the random value CloudFormation generated): every
// drifted stack is still checked and counted, the other channel
// (EventBridge) alerts once per drifted stack, Slack is skipped with one
// warning, and the next identical sweep sends nothing again.
func TestSweepEndToEndSlackUnset(t *testing.T) {
	e := startE2EWith(t, e2eConfig{readPolicies: readRoleDocuments(t), slackSecret: "aQ7#kP2!vX9$mR4^"})
	sum := e.sweep(t, "sweep-1")
	drifted := e.compare(t, "sweep-1")
	want := statemachine.RunSummary{
		RunID: "sweep-1", Accounts: len(worldgen.DemoAccounts()), Stacks: len(e.stacks), Checked: len(e.stacks) - 1, Failed: 1,
		Changed: len(drifted), Counts: sum.Counts,
	}
	if diff := cmp.Diff(sum, want); diff != "" {
		t.Errorf("sweep-1 summary with Slack unset (-got +want):\n%s", diff)
	}
	if len(drifted) == 0 || sum.Counts["drift"] < len(drifted) {
		t.Errorf("sweep-1 counts %v for %d drifted stacks", sum.Counts, len(drifted))
	}
	e.checkFailed(t, "sweep-1")
	if n := e.hook.total(); n != 0 {
		t.Errorf("%d Slack posts with the secret unset", n)
	}
	if diff := cmp.Diff(e.events.count(), map[string]int{"Drift Detected": len(drifted), service.SweepDetailType: 1}); diff != "" {
		t.Errorf("events after sweep-1 (-got +want):\n%s", diff)
	}
	logs := e.logs.String()
	if n := strings.Count(logs, "realdrift alert channel skipped"); n != 1 || strings.Contains(logs, "aQ7#kP2") {
		t.Errorf("%d warnings for the unset Slack secret, want 1 (never quoting the value)", n)
	}

	sum2 := e.sweep(t, "sweep-2")
	if sum2.Changed != 0 || sum2.Failed != 1 {
		t.Errorf("sweep-2 summary %+v: want nothing changed, 1 failed", sum2)
	}
	if diff := cmp.Diff(e.events.count(), map[string]int{"Drift Detected": len(drifted), service.SweepDetailType: 2}); diff != "" {
		t.Errorf("events after sweep-2: an alert was re-sent for an unchanged drift set (-got +want):\n%s", diff)
	}
}
