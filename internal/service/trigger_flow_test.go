package service

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
)

// windows is an in-memory stand-in for the table's debounce items: it
// evaluates the two conditions the debouncer writes with.
type windows struct {
	mu    sync.Mutex
	until map[string]int64
	owner map[string]string
}

func (w *windows) PutItem(_ context.Context, in *dynamodb.PutItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.PutItemOutput, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	pk := in.Item[store.AttrPK].(*types.AttributeValueMemberS).Value
	now, _ := strconv.ParseInt(in.ExpressionAttributeValues[":now"].(*types.AttributeValueMemberN).Value, 10, 64)
	if u, ok := w.until[pk]; ok && u > now {
		return nil, &types.ConditionalCheckFailedException{Message: aws.String("open window")}
	}
	w.until[pk], _ = strconv.ParseInt(in.Item[attrUntil].(*types.AttributeValueMemberN).Value, 10, 64)
	w.owner[pk] = in.Item[attrOwner].(*types.AttributeValueMemberS).Value
	return &dynamodb.PutItemOutput{}, nil
}

func (w *windows) DeleteItem(_ context.Context, in *dynamodb.DeleteItemInput, _ ...func(*dynamodb.Options)) (*dynamodb.DeleteItemOutput, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	pk := in.Key[store.AttrPK].(*types.AttributeValueMemberS).Value
	if w.owner[pk] != in.ExpressionAttributeValues[":owner"].(*types.AttributeValueMemberS).Value {
		return nil, &types.ConditionalCheckFailedException{Message: aws.String("not the owner")}
	}
	delete(w.until, pk)
	delete(w.owner, pk)
	return &dynamodb.DeleteItemOutput{}, nil
}

// starter records StartExecution calls; failNext makes the next one fail.
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

func TestTriggerFlow(t *testing.T) {
	const acct = "222222222222"
	api := drift.StackRef{Account: acct, Region: "us-east-1", Name: "api"}
	other := drift.StackRef{Account: "333333333333", Region: "us-east-1", Name: "shared"}
	queue := "https://sqs.us-east-1.amazonaws.com/222222222222/api-Queue"
	now := time.Date(2026, 11, 30, 5, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	st := store.NewFile(t.TempDir(), store.WithClock(clock))
	if err := st.PutIndex(t.Context(), []store.IndexEntry{
		{PhysicalID: queue, Type: "AWS::SQS::Queue", Stack: api, LogicalID: "Queue", IndexedAt: now},
		{PhysicalID: queue, Type: "AWS::SQS::Queue", Stack: other, LogicalID: "Queue", IndexedAt: now},
	}); err != nil {
		t.Fatal(err)
	}
	start := &starter{}
	s := &Service{
		set:      Settings{CheckStackARN: "arn:aws:states:us-east-1:1:stateMachine:check", Debounce: time.Minute},
		store:    st,
		starter:  start,
		debounce: &debouncer{db: &windows{until: map[string]int64{}, owner: map[string]string{}}, table: "t"},
		now:      clock,
	}
	event := func(id, params string) ChangeEvent {
		return ChangeEvent{Account: acct, Region: "us-east-1", Detail: EventDetail{
			EventID: id, EventName: "SetQueueAttributes", EventSource: "sqs.amazonaws.com",
			UserIdentity: UserIdentity{ARN: "arn:aws:iam::222222222222:user/alice"}, RequestParameters: json.RawMessage(params),
		}}
	}
	byQueue := `{"queueUrl":"` + queue + `"}`

	// The StartExecution call fails: the window is released, so the
	// redelivered event starts the check.
	start.failNext = true
	if _, err := s.Trigger(t.Context(), event("e1", byQueue)); err == nil {
		t.Fatal("a failed StartExecution was not an error")
	}
	res, err := s.Trigger(t.Context(), event("e1", byQueue))
	if err != nil || len(res.Started) != 1 {
		t.Fatalf("redelivered event: %+v, %v; want one start", res, err)
	}
	// Another account's stack sharing the physical id is not this event's.
	if diff := cmp.Diff(start.inputs, []statemachine.CheckInput{{RunID: res.Started[0], Stack: api, Trigger: statemachine.TriggerEvent}}); diff != "" {
		t.Errorf("starts (-got +want):\n%s", diff)
	}
	// Within the window: debounced.
	if res, _ := s.Trigger(t.Context(), event("e2", byQueue)); len(res.Started) != 0 || len(res.Debounced) != 1 {
		t.Errorf("second event in the window: %+v, want debounced", res)
	}
	// Unindexed resource with the stack-name tag in the request.
	tagged := `{"bucketName":"logs-bucket","tagging":{"tagSet":[{"key":"aws:cloudformation:stack-name","value":"logs"}]}}`
	res, err = s.Trigger(t.Context(), event("e3", tagged))
	if err != nil || len(res.Started) != 1 || start.inputs[len(start.inputs)-1].Stack.Name != "logs" {
		t.Errorf("tagged event: %+v, %v; want a check of stack logs", res, err)
	}
	// Nothing owns it.
	if res, _ := s.Trigger(t.Context(), event("e4", `{"bucketName":"nobody"}`)); res.Ignored == "" {
		t.Errorf("unowned resource: %+v, want ignored", res)
	}
	// After the window: a new check.
	now = now.Add(2 * time.Minute)
	if res, _ := s.Trigger(t.Context(), event("e5", byQueue)); len(res.Started) != 1 {
		t.Errorf("event after the window: %+v, want one start", res)
	}
}
