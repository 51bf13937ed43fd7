package statemachine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sfn"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// TestRevertLocal runs the real revert definition under the local
// interpreter against the RevertFake, answering the approval through a
// Step Functions client: every path's writes, audit and outcome.
func TestRevertLocal(t *testing.T) {
	l := statemachinetest.Local(t)
	input := statemachine.RevertInput{Account: "555555555555", Region: "us-east-1", Stack: "orders", All: true}
	approve := func(t *testing.T, c *sfn.Client, token string) {
		_, err := c.SendTaskSuccess(t.Context(), &sfn.SendTaskSuccessInput{TaskToken: aws.String(token), Output: aws.String(`{"approved":true,"approver":"arn:alice","via":"cli","at":"2026-12-01T12:00:00Z"}`)})
		if err != nil {
			t.Fatal(err)
		}
	}
	reject := func(t *testing.T, c *sfn.Client, token string) {
		_, err := c.SendTaskFailure(t.Context(), &sfn.SendTaskFailureInput{TaskToken: aws.String(token), Error: aws.String(statemachine.ErrorRejected), Cause: aws.String(`{"approved":false,"approver":"arn:bob","via":"link"}`)})
		if err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name   string
		fake   *statemachinetest.RevertFake
		dryRun bool
		decide func(*testing.T, *sfn.Client, string)
		// expire leaves the approval unanswered: WaitForApproval's
		// TimeoutSeconds (a day, 86,400 s) passes on the runner's clock,
		// run 20,000 times faster than real time (4.3 s).
		expire      bool
		wantStatus  string
		wantAudit   string // "" when no audit
		wantWritten []int
		wantCalls   map[string]int
	}{
		{
			name: "approved", fake: &statemachinetest.RevertFake{Resources: 3}, decide: approve,
			wantStatus: "SUCCEEDED", wantAudit: statemachine.RevertApplied, wantWritten: []int{0, 1, 2},
			wantCalls: map[string]int{"revert-plan": 1, "request-approval": 1, "revert-write": 3, "revert-converge": 1, "revert-audit": 1, "notify": 1},
		},
		{
			name: "rejected writes nothing", fake: &statemachinetest.RevertFake{Resources: 3}, decide: reject,
			wantStatus: "SUCCEEDED", wantAudit: statemachine.RevertRejected,
			wantCalls: map[string]int{"revert-plan": 1, "request-approval": 1, "revert-audit": 1, "notify": 1},
		},
		{
			name: "an approval nobody answers expires", fake: &statemachinetest.RevertFake{Resources: 3}, expire: true,
			wantStatus: "SUCCEEDED", wantAudit: statemachine.RevertRejected,
			wantCalls: map[string]int{"revert-plan": 1, "request-approval": 1, "revert-audit": 1, "notify": 1},
		},
		{
			name: "dry run stops at the plan", fake: &statemachinetest.RevertFake{Resources: 3}, dryRun: true,
			wantStatus: "SUCCEEDED", wantCalls: map[string]int{"revert-plan": 1},
		},
		{
			name: "empty plan asks nobody", fake: &statemachinetest.RevertFake{},
			wantStatus: "SUCCEEDED", wantCalls: map[string]int{"revert-plan": 1},
		},
		{
			name: "a failed plan is audited and fails", fake: &statemachinetest.RevertFake{Resources: 2, FailPlan: true},
			wantStatus: "FAILED", wantAudit: statemachine.RevertFailed,
			wantCalls: map[string]int{"revert-plan": 1, "revert-audit": 1, "notify": 1},
		},
		{
			name: "a crashed write still converges", fake: &statemachinetest.RevertFake{Resources: 3, FailWrite: map[int]bool{1: true}}, decide: approve,
			wantStatus: "SUCCEEDED", wantAudit: statemachine.RevertApplied, wantWritten: []int{0, 2},
			wantCalls: map[string]int{"revert-plan": 1, "request-approval": 1, "revert-write": 3, "revert-converge": 1, "revert-audit": 1, "notify": 1},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := tt.fake
			endpoint := statemachinetest.Serve(t, fake.Register)
			tokens := statemachinetest.ServeTaskTokens(t)
			client := sfn.New(sfn.Options{Region: "us-east-1", BaseEndpoint: aws.String(tokens.URL), Credentials: aws.AnonymousCredentials{}, RetryMaxAttempts: 1})
			in := input
			in.DryRun = tt.dryRun
			done := make(chan struct{})
			var ex statemachine.Execution
			var err error
			scale := 0.0
			if tt.expire {
				scale = 20000
			}
			go func() {
				defer close(done)
				ex, err = l.Run(context.WithoutCancel(t.Context()), statemachine.Run{
					Definition: statemachine.Revert, Input: in, LambdaEndpoint: endpoint, TaskTokens: tokens.URL,
					ExecutionName: "revert-1", RetryMillis: 1, TimeScale: scale,
				})
			}()
			var token string
			if tt.decide != nil || tt.expire {
				var werr error
				token, werr = tokens.Awaiting(deadlinetest.Context(t, 2*time.Minute))
				if werr != nil {
					t.Fatalf("the execution never waited for approval: %v", werr)
				}
				if rec := fake.Record(); len(rec.Written) != 0 || !cmp.Equal(rec.Tokens, []string{token}) {
					t.Fatalf("before the decision: written %v, tokens %v (awaited %s)", rec.Written, rec.Tokens, token)
				}
				if tt.decide != nil {
					tt.decide(t, client, token)
				}
			}
			<-done
			if err != nil {
				t.Fatal(err)
			}
			if tt.expire {
				// The expired token is refused, as Step Functions refuses it.
				_, serr := client.SendTaskSuccess(t.Context(), &sfn.SendTaskSuccessInput{TaskToken: aws.String(token), Output: aws.String(`{"approved":true}`)})
				if !tokens.Expired(token) || serr == nil || !strings.Contains(serr.Error(), "TaskTimedOut") {
					t.Errorf("after the expiry: expired %v, a late approval answered %v; want TaskTimedOut", tokens.Expired(token), serr)
				}
			}
			if ex.Status != tt.wantStatus {
				t.Fatalf("status %s (%+v), want %s", ex.Status, ex.Error, tt.wantStatus)
			}
			rec := fake.Record()
			if diff := cmp.Diff(rec.Calls, tt.wantCalls); diff != "" {
				t.Errorf("invocations (-got +want):\n%s", diff)
			}
			if diff := cmp.Diff(rec.Written, tt.wantWritten); diff != "" {
				t.Errorf("written resources (-got +want):\n%s", diff)
			}
			var audits []string
			for _, a := range rec.Audits {
				audits = append(audits, a.Status)
			}
			if tt.wantAudit == "" && len(audits) > 0 || tt.wantAudit != "" && !cmp.Equal(audits, []string{tt.wantAudit}) {
				t.Errorf("audits %v, want [%s]", audits, tt.wantAudit)
			}
			if tt.wantAudit == statemachine.RevertApplied && (rec.Audits[0].Approval == nil || rec.Audits[0].Approval.Approver != "arn:alice") {
				t.Errorf("applied audit's approval %+v, want alice's", rec.Audits[0].Approval)
			}
			if tt.wantAudit == statemachine.RevertRejected {
				var a statemachine.Approval
				if tt.expire {
					if rec.Audits[0].Error != "States.Timeout" {
						t.Errorf("expired audit error %q, want States.Timeout", rec.Audits[0].Error)
					}
				} else if rec.Audits[0].Error != statemachine.ErrorRejected || json.Unmarshal([]byte(rec.Audits[0].Cause), &a) != nil || a.Approver != "arn:bob" {
					t.Errorf("rejected audit error %q cause %q, want RevertRejected with bob's Approval", rec.Audits[0].Error, rec.Audits[0].Cause)
				}
			}
			if tt.wantAudit == statemachine.RevertFailed && ex.Error.Error != "RevertFailed" {
				t.Errorf("failed execution error %+v, want RevertFailed", ex.Error)
			}
			statemachinetest.CheckStateOutputs(t, ex)
		})
	}
}
