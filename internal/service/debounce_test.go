package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/internal/store/storetest"
	"github.com/realdrift/realdrift/statemachine"
)

// starter records StartExecution calls (Step Functions is not under test
// here); failNext makes the next one fail.
type starter struct {
	inputs   []statemachine.CheckInput
	failNext bool
}

func (s *starter) StartExecution(_ context.Context, in *sfn.StartExecutionInput, _ ...func(*sfn.Options)) (*sfn.StartExecutionOutput, error) {
	if s.failNext {
		s.failNext = false
		return nil, errors.New("ServiceUnavailable")
	}
	var ci statemachine.CheckInput
	if err := json.Unmarshal([]byte(aws.ToString(in.Input)), &ci); err != nil {
		return nil, err
	}
	if ci.RunID != aws.ToString(in.Name) {
		return nil, errors.New("execution name is not the run id")
	}
	s.inputs = append(s.inputs, ci)
	return &sfn.StartExecutionOutput{ExecutionArn: in.Name}, nil
}

// TestTriggerDebounce drives the trigger with one injected clock against
// DynamoDB Local (the debounce windows, a real SDK client): a change opens
// the stack's window and starts nothing; a change inside the window extends
// it, so the flush at the first window's end starts nothing; the flush
// after the extended window starts exactly one check, named by the first
// change; a stack that keeps changing is checked once its first change is
// MaxWaitFactor windows old; a failed start leaves the window for the next
// flush; a change that extends a window while its check starts keeps it
// pending. Events are mapped through the resource index (another account's
// stack sharing the physical id is not the event's), the stack-name tag,
// and for a global service (IAM, recorded in us-east-1) the index only,
// whatever region the stack is in.
func TestTriggerDebounce(t *testing.T) {
	var local storetest.DynamoLocal
	t.Cleanup(local.Stop)
	endpoint := local.Endpoint(t, "the trigger's debounce")
	db := dynamodb.New(dynamodb.Options{
		Region: "us-east-1", BaseEndpoint: aws.String(endpoint),
		Credentials:                     credentials.NewStaticCredentialsProvider("local", "local", ""),
		DisableValidateResponseChecksum: true,
	})
	table := fmt.Sprintf("realdrift-debounce-%d", time.Now().UnixNano())
	if err := store.CreateTable(t.Context(), db, table); err != nil {
		t.Fatal(err)
	}

	const acct = "222222222222"
	api := drift.StackRef{Account: acct, Region: "us-east-1", Name: "api"}
	other := drift.StackRef{Account: "333333333333", Region: "us-east-1", Name: "shared"}
	roles := drift.StackRef{Account: acct, Region: "eu-west-1", Name: "roles"}
	queue := "https://sqs.us-east-1.amazonaws.com/222222222222/api-Queue"
	now := time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st := store.NewDynamo(db, table, store.WithClock(clock))
	if err := st.PutIndex(t.Context(), []store.IndexEntry{
		{PhysicalID: queue, Type: "AWS::SQS::Queue", Stack: api, LogicalID: "Queue", IndexedAt: now},
		{PhysicalID: queue, Type: "AWS::SQS::Queue", Stack: other, LogicalID: "Queue", IndexedAt: now},
		{PhysicalID: "roles-AppRole-1A2B", Type: "AWS::IAM::Role", Stack: roles, LogicalID: "AppRole", IndexedAt: now},
	}); err != nil {
		t.Fatal(err)
	}
	start := &starter{}
	s := &Service{
		set:      Settings{CheckStackARN: "arn:aws:states:us-east-1:1:stateMachine:check", Debounce: time.Minute},
		store:    st,
		starter:  start,
		debounce: &debouncer{db: db, table: table},
		now:      clock,
	}
	event := func(id, source, params string) ChangeEvent {
		return ChangeEvent{Account: acct, Region: "us-east-1", Detail: EventDetail{
			EventID: id, EventName: "SetQueueAttributes", EventSource: source,
			UserIdentity: UserIdentity{ARN: "arn:aws:iam::222222222222:user/alice"}, RequestParameters: json.RawMessage(params),
		}}
	}
	byQueue := func(id string) ChangeEvent { return event(id, "sqs.amazonaws.com", `{"queueUrl":"`+queue+`"}`) }
	trigger := func(ev ChangeEvent) TriggerResult {
		t.Helper()
		res, err := s.Trigger(t.Context(), ev)
		if err != nil {
			t.Fatalf("trigger %s: %v", ev.Detail.EventID, err)
		}
		return res
	}
	flush := func() (TriggerResult, error) {
		return s.Trigger(t.Context(), ChangeEvent{Source: FlushSource, DetailType: FlushDetailType})
	}
	mustFlush := func(want int) TriggerResult {
		t.Helper()
		res, err := flush()
		if err != nil || len(res.Started) != want {
			t.Fatalf("flush at %s: %+v, %v; want %d started", now.Format(time.TimeOnly), res, err, want)
		}
		return res
	}
	after := func(d time.Duration) { now = now.Add(d) }

	// 1. A change opens the window and starts nothing; a change inside it
	// extends it past the first window's end; one check after it.
	if res := trigger(byQueue("e1")); len(res.Pending) != 1 || len(res.Started) != 0 {
		t.Fatalf("first change: %+v, want the window opened and nothing started", res)
	}
	if res := mustFlush(0); res.Waiting != 1 {
		t.Errorf("flush inside the window: %+v, want one waiting", res)
	}
	after(40 * time.Second)
	if res := trigger(byQueue("e2")); len(res.Debounced) != 1 || len(res.Pending) != 0 {
		t.Errorf("change inside the window: %+v, want the window extended", res)
	}
	after(30 * time.Second) // the first window ended 10 s ago; the extended one has 30 s left
	mustFlush(0)
	after(31 * time.Second)
	res := mustFlush(1)
	want := []statemachine.CheckInput{{RunID: eventRunID("e1", api), Stack: api, Trigger: statemachine.TriggerEvent}}
	if diff := cmp.Diff(start.inputs, want); diff != "" || res.Started[0] != want[0].RunID {
		t.Errorf("the one check (-got +want):\n%s", diff)
	}
	mustFlush(0) // closed: nothing more

	// 2. A stack that keeps changing is checked once its first change is
	// MaxWaitFactor windows old.
	first := now
	for i := 0; now.Sub(first) < MaxWaitFactor*time.Minute; i++ {
		trigger(byQueue(fmt.Sprintf("busy-%d", i)))
		after(50 * time.Second)
		if now.Sub(first) < MaxWaitFactor*time.Minute {
			mustFlush(0)
		}
	}
	mustFlush(1)
	if got := start.inputs[len(start.inputs)-1].RunID; got != eventRunID("busy-0", api) {
		t.Errorf("the busy stack's check is %s, want the one named by its first change", got)
	}

	// 3. A failed start leaves the window for the next flush, which starts
	// the same execution.
	trigger(byQueue("e3"))
	after(61 * time.Second)
	start.failNext = true
	if res, err := flush(); err == nil || len(res.Started) != 0 {
		t.Fatalf("flush with a failed start: %+v, %v; want an error and nothing started", res, err)
	}
	mustFlush(1)
	if got := start.inputs[len(start.inputs)-1].RunID; got != eventRunID("e3", api) {
		t.Errorf("retried start %s, want %s", got, eventRunID("e3", api))
	}

	// 4. A change that extends a window while its check starts keeps the
	// window pending: the change is checked again after its own window.
	trigger(byQueue("e4"))
	after(61 * time.Second)
	due, _, err := s.debounce.due(t.Context(), now, time.Minute)
	if err != nil || len(due) != 1 {
		t.Fatalf("due windows %v, %v; want 1", due, err)
	}
	trigger(byQueue("e5")) // arrives between the read and the close
	if err := s.debounce.done(t.Context(), due[0]); err != nil {
		t.Fatal(err)
	}
	mustFlush(0)
	after(61 * time.Second)
	mustFlush(1)

	// 5. Mapping: the stack-name tag of an unindexed resource; nothing
	// owns it; a global service's event (IAM, recorded in us-east-1) maps
	// through the index to its stack in eu-west-1, and its tag alone is no
	// stack (the tag does not say the region).
	tagged := `{"bucketName":"logs-bucket","tagging":{"tagSet":[{"key":"aws:cloudformation:stack-name","value":"logs"}]}}`
	if res := trigger(event("t1", "s3.amazonaws.com", tagged)); len(res.Pending) != 1 || res.Pending[0] != stackKey(drift.StackRef{Account: acct, Region: "us-east-1", Name: "logs"}) {
		t.Errorf("tagged change: %+v, want the logs stack pending", res)
	}
	if res := trigger(event("n1", "s3.amazonaws.com", `{"bucketName":"nobody"}`)); res.Ignored == "" {
		t.Errorf("unowned resource: %+v, want ignored", res)
	}
	if res := trigger(event("i1", "iam.amazonaws.com", `{"roleName":"roles-AppRole-1A2B"}`)); len(res.Pending) != 1 || res.Pending[0] != stackKey(roles) {
		t.Errorf("IAM change: %+v, want %s pending", res, stackKey(roles))
	}
	iamTagged := `{"roleName":"unindexed","tags":[{"key":"aws:cloudformation:stack-name","value":"roles"}]}`
	if res := trigger(event("i2", "iam.amazonaws.com", iamTagged)); res.Ignored == "" {
		t.Errorf("IAM change known only by its tag: %+v, want ignored (no region)", res)
	}
	after(61 * time.Second)
	res = mustFlush(2)
	got := map[drift.StackRef]bool{}
	for _, in := range start.inputs[len(start.inputs)-2:] {
		got[in.Stack] = true
	}
	if !got[roles] || !got[drift.StackRef{Account: acct, Region: "us-east-1", Name: "logs"}] {
		t.Errorf("checks after the mapped changes: %v, want roles (eu-west-1) and logs", got)
	}
	for _, in := range start.inputs {
		if in.Stack == other {
			t.Errorf("another account's stack %s was checked for this account's change", other)
		}
	}
}
