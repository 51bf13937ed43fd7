package service_test

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// throttleRig is one member stack of three queues behind the sandbox, the
// service's SDK retries cut to one attempt so a throttle reaches the
// handler at once.
type throttleRig struct {
	sb    *sandbox.Server
	svc   *service.Service
	store store.Store
	stack drift.StackRef
	queue string // the throttled queue's name
}

func newThrottleRig(t *testing.T) *throttleRig {
	t.Helper()
	w, regions := benchWorld(benchScale{Accounts: 1, Regions: 1, Stacks: 1, Resources: 3})
	sb, err := sandbox.New(w, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb)
	t.Cleanup(func() { srv.Close(); sb.Close() })
	ddbURL := dynamoLocal.Endpoint(t, "the throttled-read retries")
	set := service.Settings{
		Table: fmt.Sprintf("realdrift-throttle-%d", time.Now().UnixNano()), Regions: regions, ReadRoleName: readRole,
		ReadDeadline: time.Hour, Endpoints: service.Endpoints{Default: srv.URL, DynamoDB: ddbURL},
		AccessKeyID: benchKey(benchCentral), SecretAccessKey: "throttle-secret",
	}
	cfg, db := tableConfig(t, set, "us-east-1", ddbURL, set.Table)
	// One attempt per call: the SDK gives up on the first throttle.
	cfg.Retryer = func() aws.Retryer { return retry.AddWithMaxAttempts(retry.NewStandard(), 1) }
	svc, err := service.New(cfg, set, service.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	r := &throttleRig{sb: sb, svc: svc, store: store.NewDynamo(db, set.Table),
		stack: drift.StackRef{Account: w.Accounts[1].ID, Region: regions[0], Name: "Bench00"}, queue: "Bench00-Queue001"}
	if err := sb.SetFaults([]sandbox.FaultRule{{Service: "cloudcontrolapi", Action: "GetResource", Match: r.queue, Code: "ThrottlingException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	return r
}

// TestThrottledReadRetried: a read throttled past the SDK's retries fails
// the step Throttled (for the workflow to retry) with the batch's other
// reads stored; the retry reads only the throttled one, and once AWS
// answers the resource is read, not skipped.
func TestThrottledReadRetried(t *testing.T) {
	r := newThrottleRig(t)
	ctx := t.Context()
	const run = "run-throttle-1"
	d, err := r.svc.LoadDesired(ctx, statemachine.StackTask{RunID: run, Stack: r.stack})
	if err != nil {
		t.Fatal(err)
	}
	batch := statemachine.ReadBatch{RunID: run, Stack: r.stack, DesiredKey: d.Key, Batch: 0}
	for attempt := 1; attempt <= 2; attempt++ {
		_, err := r.svc.ReadResources(ctx, batch)
		var th *statemachine.Throttled
		if !errors.As(err, &th) {
			t.Fatalf("attempt %d: err = %v, want *statemachine.Throttled", attempt, err)
		}
	}
	r.sb.ResetCalls()
	if err := r.sb.SetFaults(nil); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.ReadResources(ctx, batch); err != nil {
		t.Fatalf("after the throttling stopped: %v", err)
	}
	if n := r.sb.Calls().Requests["cloudcontrolapi:GetResource"]; n != 1 {
		t.Errorf("the retry made %d GetResource requests, want 1 (only the throttled read)", n)
	}
	res, err := r.svc.Resolve(ctx, statemachine.ResolveTask{RunID: run, Stack: r.stack, DesiredKey: d.Key})
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range res.ParentBatches {
		if _, err := r.svc.EnumerateChildren(ctx, statemachine.EnumerateBatch{RunID: run, Stack: r.stack, ResolvedKey: res.Key, Batch: b}); err != nil {
			t.Fatal(err)
		}
	}
	c, err := r.svc.Classify(ctx, statemachine.ClassifyTask{RunID: run, Stack: r.stack, DesiredKey: d.Key, ResolvedKey: res.Key})
	if err != nil {
		t.Fatal(err)
	}
	if c.Counts["skipped"] != 0 {
		t.Errorf("counts %v: want nothing skipped once the throttling stopped", c.Counts)
	}
}

// TestThrottledReadSkippedAtLastRetry: check-stack under the interpreter
// against a read that stays throttled: the workflow retries the batch
// ThrottledRetries times, then the resource is skipped with the throttling
// as its reason — the check itself succeeds, nothing else is lost.
func TestThrottledReadSkippedAtLastRetry(t *testing.T) {
	r := newThrottleRig(t)
	l := statemachinetest.Local(t)
	url := statemachinetest.Serve(t, r.svc.Register)
	ex, err := l.Run(t.Context(), statemachine.Run{
		Definition: statemachine.CheckStack, LambdaEndpoint: url, ExecutionName: "run-throttle-2", RetryMillis: 1,
		Input: statemachine.CheckInput{RunID: "run-throttle-2", Stack: r.stack, Trigger: statemachine.TriggerEvent},
	})
	if err != nil {
		t.Fatal(err)
	}
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("check-stack: %s %+v", ex.Status, ex.Error)
	}
	if ex.Retries != statemachine.ThrottledRetries {
		t.Errorf("%d retries, want %d (statemachine.ThrottledRetries)", ex.Retries, statemachine.ThrottledRetries)
	}
	_, findings, err := r.store.LatestFindings(t.Context(), r.stack)
	if err != nil {
		t.Fatal(err)
	}
	var skipped []drift.Finding
	for _, f := range findings {
		if f.Tier == drift.Skipped {
			skipped = append(skipped, f)
		}
	}
	if len(skipped) != 1 || skipped[0].LogicalID != "Queue001" || !strings.Contains(skipped[0].Reason, "throttled until the read deadline") || !strings.Contains(skipped[0].Reason, "ThrottlingException") {
		t.Errorf("skipped %+v: want Queue001 alone, its reason the throttling after the workflow's retries", skipped)
	}
}
