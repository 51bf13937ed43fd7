package statemachine_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

func ref(account, region, name string) drift.StackRef {
	return drift.StackRef{Account: account, Region: region, Name: name}
}

// TestSweepLocal runs the real sweep definition end to end under the local
// interpreter against the Fake handlers served by a lambdarouter.
func TestSweepLocal(t *testing.T) {
	l := statemachinetest.Local(t)
	fake := &statemachinetest.Fake{
		Accounts: map[string][]statemachinetest.Stack{
			"111111111111": {
				{Ref: ref("111111111111", "us-east-1", "api"), Resources: 45, Drift: 2},
				{Ref: ref("111111111111", "eu-west-1", "web"), ThrottleOnce: true, Drift: 1},
				{Ref: ref("111111111111", "us-east-1", "quiet"), Unchanged: true},
			},
			"222222222222": {
				{Ref: ref("222222222222", "us-east-1", "data"), Resources: 12},
				{Ref: ref("222222222222", "us-east-1", "locked"), FailLoad: true},
			},
			"444444444444": {},
		},
		FailAccounts: map[string]bool{"333333333333": true},
		Targets:      statemachinetest.ServeS3(t, "realdrift-targets"),
	}
	endpoint := statemachinetest.Serve(t, fake.Register)

	ex, err := l.Run(t.Context(), fake.Targets.Run(statemachine.Run{
		Definition:     statemachine.Sweep,
		Input:          map[string]any{},
		LambdaEndpoint: endpoint,
		ExecutionName:  "sweep-run-1",
		RetryMillis:    1,
	}))
	if err != nil {
		t.Fatal(err)
	}
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("status %s, error %+v", ex.Status, ex.Error)
	}
	var got statemachine.RunSummary
	if err := json.Unmarshal(ex.Output, &got); err != nil {
		t.Fatalf("output %s: %v", ex.Output, err)
	}
	want := statemachine.RunSummary{
		RunID: "sweep-run-1", Accounts: 4, AccountsFailed: 1, Stacks: 5, Checked: 4, Failed: 1, Missing: 0, Changed: 3,
		Counts: statemachine.Counts{"drift": 3, "unrecorded": 4},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("summary (-got +want):\n%s\noutput: %s", diff, ex.Output)
	}

	rec := fake.Record()
	if diff := cmp.Diff(rec.Outcomes, map[string]string{
		"111111111111/us-east-1/api":    "checked",
		"111111111111/eu-west-1/web":    "checked",
		"111111111111/us-east-1/quiet":  "checked",
		"222222222222/us-east-1/data":   "checked",
		"222222222222/us-east-1/locked": "failed",
	}); diff != "" {
		t.Errorf("outcomes (-got +want):\n%s", diff)
	}
	if diff := cmp.Diff(rec.Notified, []string{
		"111111111111/eu-west-1/web", "111111111111/us-east-1/api", "222222222222/us-east-1/data", "sweep:sweep-run-1",
	}); diff != "" {
		t.Errorf("notifications (-got +want):\n%s", diff)
	}
	if diff := cmp.Diff(rec.AccountFailures, []string{"333333333333: AccessDenied"}); diff != "" {
		t.Errorf("account failures (-got +want):\n%s", diff)
	}
	// api has 45 resources: 3 read batches and 11 parents in 2 batches.
	// web's first read is throttled and retried.
	wantCalls := map[string]int{
		statemachine.FunctionDiscover:          5, // the organisation + 4 accounts
		statemachine.FunctionLoadDesired:       5,
		statemachine.FunctionReadResources:     3 + 2 + 1 + 1, // api, web (throttled once), quiet, data
		statemachine.FunctionResolve:           4,
		statemachine.FunctionEnumerateChildren: 2 + 1, // api, data (3 parents)
		statemachine.FunctionClassify:          4,
		statemachine.FunctionPersist:           4 + 2 + 1, // record-stack, record-failure (stack, account), close-run
		statemachine.FunctionNotify:            4,
	}
	if diff := cmp.Diff(rec.Calls, wantCalls); diff != "" {
		t.Errorf("invocations (-got +want):\n%s", diff)
	}
	if ex.Retries != 1 {
		t.Errorf("retries = %d, want 1 (the throttled read)", ex.Retries)
	}
	statemachinetest.CheckStateOutputs(t, ex)
}

func TestCheckStackLocal(t *testing.T) {
	l := statemachinetest.Local(t)
	const acct = "555555555555"
	tests := []struct {
		name         string
		stack        statemachinetest.Stack
		wantStatus   string
		wantError    string
		wantOutcome  string
		wantNotified []string
		wantOutput   string
	}{
		{
			name:         "changed findings notify",
			stack:        statemachinetest.Stack{Ref: ref(acct, "us-east-1", "orders"), Resources: 30, Drift: 1},
			wantStatus:   "SUCCEEDED",
			wantOutcome:  "checked",
			wantNotified: []string{acct + "/us-east-1/orders"},
			wantOutput:   `{"runId":"r-1","stack":{"account":"555555555555","region":"us-east-1","stack":"orders"},"status":"checked","changed":true,"counts":{"drift":1,"unrecorded":1}}`,
		},
		{
			name:        "unchanged findings stay quiet",
			stack:       statemachinetest.Stack{Ref: ref(acct, "us-east-1", "orders"), Unchanged: true},
			wantStatus:  "SUCCEEDED",
			wantOutcome: "checked",
			wantOutput:  `{"runId":"r-1","stack":{"account":"555555555555","region":"us-east-1","stack":"orders"},"status":"checked","changed":false,"counts":{"drift":0,"unrecorded":1}}`,
		},
		{
			name:        "failure is recorded and fails the execution",
			stack:       statemachinetest.Stack{Ref: ref(acct, "us-east-1", "orders"), FailLoad: true},
			wantStatus:  "FAILED",
			wantError:   "StackCheckFailed",
			wantOutcome: "failed",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := &statemachinetest.Fake{Accounts: map[string][]statemachinetest.Stack{acct: {tt.stack}}}
			endpoint := statemachinetest.Serve(t, fake.Register)
			ex, err := l.Run(t.Context(), statemachine.Run{
				Definition:     statemachine.CheckStack,
				Input:          statemachine.CheckInput{RunID: "r-1", Stack: tt.stack.Ref, Trigger: statemachine.TriggerEvent},
				LambdaEndpoint: endpoint,
				RetryMillis:    1,
			})
			if err != nil {
				t.Fatal(err)
			}
			if ex.Status != tt.wantStatus {
				t.Fatalf("status %s (error %+v), want %s", ex.Status, ex.Error, tt.wantStatus)
			}
			if tt.wantError != "" && (ex.Error == nil || ex.Error.Error != tt.wantError) {
				t.Errorf("error %+v, want %s", ex.Error, tt.wantError)
			}
			if tt.wantOutput != "" {
				var got, want any
				if err := json.Unmarshal(ex.Output, &got); err != nil {
					t.Fatal(err)
				}
				if err := json.Unmarshal([]byte(tt.wantOutput), &want); err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(got, want); diff != "" {
					t.Errorf("output (-got +want):\n%s", diff)
				}
			}
			rec := fake.Record()
			if got := rec.Outcomes[acct+"/us-east-1/orders"]; got != tt.wantOutcome {
				t.Errorf("outcome %q, want %q", got, tt.wantOutcome)
			}
			if diff := cmp.Diff(rec.Notified, tt.wantNotified); diff != "" {
				t.Errorf("notifications (-got +want):\n%s", diff)
			}
			statemachinetest.CheckStateOutputs(t, ex)
		})
	}
}

// TestSweepPayloadsStayBounded runs a larger organisation (many accounts,
// stacks and a stack of 500 resources) and holds every state output under
// the bound: payloads carry references, so they do not grow with resources.
func TestSweepPayloadsStayBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: the larger sweep is skipped; TestSweepLocal still checks the bound")
	}
	l := statemachinetest.Local(t)
	fake := &statemachinetest.Fake{Accounts: map[string][]statemachinetest.Stack{}, Targets: statemachinetest.ServeS3(t, "realdrift-targets")}
	stacks := 0
	for a := range 6 {
		acct := fmt.Sprintf("%012d", 100000000000+a)
		for s := range 25 {
			st := statemachinetest.Stack{Ref: ref(acct, "us-east-1", fmt.Sprintf("service-%02d-with-a-long-stack-name", s)), Drift: 1}
			if a == 0 && s == 0 {
				st.Resources = 500
			}
			fake.Accounts[acct] = append(fake.Accounts[acct], st)
			stacks++
		}
	}
	endpoint := statemachinetest.Serve(t, fake.Register)
	ex, err := l.Run(t.Context(), fake.Targets.Run(statemachine.Run{Definition: statemachine.Sweep, Input: map[string]any{}, LambdaEndpoint: endpoint, ExecutionName: "big"}))
	if err != nil {
		t.Fatal(err)
	}
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("status %s, error %+v", ex.Status, ex.Error)
	}
	var got statemachine.RunSummary
	if err := json.Unmarshal(ex.Output, &got); err != nil {
		t.Fatal(err)
	}
	if got.Stacks != stacks || got.Checked != stacks {
		t.Errorf("summary %+v, want %d stacks all checked", got, stacks)
	}
	statemachinetest.CheckStateOutputs(t, ex)
	t.Logf("%d stacks, %d state outputs, largest %d bytes", stacks, len(ex.States), ex.MaxStateOutputBytes)
}
