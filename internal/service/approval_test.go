package service

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// TestDecide answers waiting reverts through a real Step Functions client
// against the callback service: the first decision wins, a token Step
// Functions no longer knows is not pending, and an unknown execution has
// no approval.
func TestDecide(t *testing.T) {
	ctx := context.Background()
	st := store.NewFile(t.TempDir())
	tt := statemachinetest.ServeTaskTokens(t)
	tasks := sfn.New(sfn.Options{Region: "us-east-1", BaseEndpoint: aws.String(tt.URL), Credentials: aws.AnonymousCredentials{}, RetryMaxAttempts: 1})
	now := time.Now().UTC().Truncate(time.Second)
	stack := drift.StackRef{Account: "111111111111", Region: "us-east-1", Name: "App"}
	wait := func(runID, token string, registered bool) {
		t.Helper()
		b, _ := json.Marshal(approvalState{TaskToken: token, Execution: "arn:aws:states:us-east-1:111111111111:execution:realdrift-revert:" + runID,
			Stack: stack, Items: 2})
		if err := st.PutState(ctx, runID, keyApproval, b, now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
		if registered {
			tt.Register(token)
		}
	}

	if _, err := Decide(ctx, st, tasks, "nobody", Decision{Approve: true, Approver: "a", Via: "cli"}, now); !errors.Is(err, ErrNoApproval) {
		t.Errorf("unknown execution: %v, want ErrNoApproval", err)
	}

	wait("r-approve", "tok-approve", true)
	p, err := Decide(ctx, st, tasks, "arn:aws:states:us-east-1:111111111111:execution:realdrift-revert:r-approve", Decision{Approve: true, Approver: "arn:alice", Via: "cli"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if p.RunID != "r-approve" || p.Stack != stack || p.Items != 2 {
		t.Errorf("pending %+v", p)
	}
	out, errName, _, ok := tt.Decision("tok-approve")
	var got statemachine.Approval
	if !ok || errName != "" || json.Unmarshal([]byte(out), &got) != nil {
		t.Fatalf("approval sent as output %q error %q (decided %v)", out, errName, ok)
	}
	if diff := cmp.Diff(got, statemachine.Approval{Approved: true, Approver: "arn:alice", Via: "cli", At: now.Format(time.RFC3339)}); diff != "" {
		t.Errorf("approval (-got +want):\n%s", diff)
	}
	if _, err := Decide(ctx, st, tasks, "r-approve", Decision{Approver: "arn:bob", Via: "cli"}, now); !errors.Is(err, ErrDecided) {
		t.Errorf("second decision: %v, want ErrDecided", err)
	}

	wait("r-reject", "tok-reject", true)
	if _, err := Decide(ctx, st, tasks, "r-reject", Decision{Approver: "arn:aws:iam::111111111111:user/bob", Via: ViaURL, Reason: "freeze"}, now); err != nil {
		t.Fatal(err)
	}
	if _, errName, cause, _ := tt.Decision("tok-reject"); errName != statemachine.ErrorRejected || json.Unmarshal([]byte(cause), &got) != nil || got.Approved || got.Reason != "freeze" {
		t.Errorf("rejection sent as error %q cause %q, want %s with the Approval", errName, cause, statemachine.ErrorRejected)
	}

	wait("r-gone", "tok-gone", false)
	if _, err := Decide(ctx, st, tasks, "r-gone", Decision{Approve: true, Approver: "a", Via: "cli"}, now); !errors.Is(err, ErrNotPending) {
		t.Errorf("a token Step Functions does not know: %v, want ErrNotPending", err)
	}
}
