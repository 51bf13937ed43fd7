package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/scheduler"
	schedtypes "github.com/aws/aws-sdk-go-v2/service/scheduler/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoSchedule: a schedule created in moto (CreateScheduleGroup,
// CreateSchedule) read back by the reader in its group.
func TestMotoSchedule(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	sc := scheduler.NewFromConfig(cfg)
	if _, err := sc.CreateScheduleGroup(cx, &scheduler.CreateScheduleGroupInput{Name: aws.String("moto-ops")}); err != nil {
		t.Fatal(err)
	}
	_, err := sc.CreateSchedule(cx, &scheduler.CreateScheduleInput{
		Name: aws.String("moto-nightly"), GroupName: aws.String("moto-ops"), ScheduleExpression: aws.String("rate(12 hours)"),
		FlexibleTimeWindow: &schedtypes.FlexibleTimeWindow{Mode: schedtypes.FlexibleTimeWindowModeFlexible, MaximumWindowInMinutes: aws.Int32(15)},
		Target:             &schedtypes.Target{Arn: aws.String("arn:aws:sqs:us-east-1:123456789012:jobs"), RoleArn: aws.String("arn:aws:iam::123456789012:role/sched"), Input: aws.String(`{"a":1}`)},
		Description:        aws.String("moto schedule"),
	})
	if err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::Scheduler::Schedule", PhysicalID: "moto-nightly", Declared: map[string]any{"GroupName": "moto-ops"}})
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	for k, want := range map[string]any{
		"Name": "moto-nightly", "GroupName": "moto-ops", "ScheduleExpression": "rate(12 hours)", "Description": "moto schedule",
		"FlexibleTimeWindow": map[string]any{"Mode": "FLEXIBLE", "MaximumWindowInMinutes": 15.0},
	} {
		if diff := cmp.Diff(got.Model[k], want); diff != "" {
			t.Errorf("%s (-got +want):\n%s", k, diff)
		}
	}
	tg, _ := got.Model["Target"].(map[string]any)
	if tg["Arn"] != "arn:aws:sqs:us-east-1:123456789012:jobs" || tg["RoleArn"] != "arn:aws:iam::123456789012:role/sched" || tg["Input"] != `{"a":1}` {
		t.Errorf("Target %v", tg)
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::Scheduler::Schedule", PhysicalID: "moto-nightly"}); got.Status != live.NotFound {
		t.Errorf("in the default group: %+v, want notFound", got)
	}
}
