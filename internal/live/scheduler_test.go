package live_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const nightly = `{"Name":"nightly","GroupName":"ops","ScheduleExpression":"cron(0 2 * * ? *)","ScheduleExpressionTimezone":"Europe/Paris","FlexibleTimeWindow":{"Mode":"FLEXIBLE","MaximumWindowInMinutes":15},` +
	`"State":"ENABLED","ActionAfterCompletion":"NONE","StartDate":"2030-01-01T00:00:00.000Z","Target":{"Arn":"arn:aws:sqs:us-east-1:111111111111:jobs","RoleArn":"arn:aws:iam::111111111111:role/sched",` +
	`"Input":"{\"job\":\"nightly\"}","RetryPolicy":{"MaximumEventAgeInSeconds":3600,"MaximumRetryAttempts":3},"DeadLetterConfig":{"Arn":"arn:aws:sqs:us-east-1:111111111111:dlq"},"SqsParameters":{"MessageGroupId":"g"}}}`

func TestScheduleRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(liveOnly("AWS::Scheduler::Schedule", "nightly", nightly)))
	c := live.NewClients(config(url))
	req := live.Request{Type: "AWS::Scheduler::Schedule", LogicalID: "Nightly", PhysicalID: "nightly", Declared: declaredOf(t, nightly)}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	if diff := cmp.Diff(got.Model, declaredOf(t, nightly)); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: req.Type, Identifier: "nightly", Path: "State", Value: json.RawMessage(`"DISABLED"`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Tier != drift.Declared || fs[0].Path != "State" {
		t.Errorf("disabled out of band: %+v, want one declared finding on State", fs)
	}
	// Another group, another name: not found.
	for _, d := range []map[string]any{{"GroupName": "default"}, {"GroupName": "ops"}} {
		id := "nightly"
		if d["GroupName"] == "ops" {
			id = "gone"
		}
		if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: id, Declared: d}); got.Status != live.NotFound {
			t.Errorf("%s in %v: %+v, want notFound", id, d, got)
		}
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "scheduler", Action: "GetSchedule", Code: "ThrottlingException", Status: 429}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "Scheduler GetSchedule: ThrottlingException") {
		t.Errorf("throttled: %+v", got)
	}
}
