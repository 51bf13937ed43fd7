package statemachine_test

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

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
				// More than ExpressStackResources: deferred by its Express
				// child, checked by a Standard one.
				{Ref: ref("222222222222", "us-east-1", "big"), Resources: statemachine.ExpressStackResources + 1, Drift: 1},
			},
			"444444444444": {},
		},
		FailAccounts: map[string]bool{"333333333333": true},
		Targets:      statemachinetest.ServeS3(t, "realdrift-targets"),
	}
	ex, got := runSweep(t, l, fake, statemachine.Run{ExecutionName: "sweep-run-1", RetryMillis: 1})
	want := statemachine.RunSummary{
		RunID: "sweep-run-1", Accounts: 4, AccountsFailed: 1, Stacks: 6, Checked: 5, Failed: 1, Missing: 0, Changed: 4,
		Counts: statemachine.Counts{"drift": 4, "unrecorded": 5},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("summary (-got +want):\n%s\noutput: %s", diff, ex.Output)
	}

	rec := fake.Record()
	if diff := cmp.Diff(rec.Outcomes, map[string]string{
		"111111111111/us-east-1/api":    "checked",
		"111111111111/eu-west-1/web":    "checked",
		"111111111111/us-east-1/quiet":  "checked",
		"222222222222/us-east-1/big":    "checked",
		"222222222222/us-east-1/data":   "checked",
		"222222222222/us-east-1/locked": "failed",
	}); diff != "" {
		t.Errorf("outcomes (-got +want):\n%s", diff)
	}
	if diff := cmp.Diff(rec.Notified, []string{
		"111111111111/eu-west-1/web", "111111111111/us-east-1/api", "222222222222/us-east-1/big", "222222222222/us-east-1/data", "sweep:sweep-run-1",
	}); diff != "" {
		t.Errorf("notifications (-got +want):\n%s", diff)
	}
	if diff := cmp.Diff(rec.AccountFailures, []string{"333333333333: AccessDenied"}); diff != "" {
		t.Errorf("account failures (-got +want):\n%s", diff)
	}
	// api has 45 resources: 3 read batches and 11 parents in 2 batches.
	// web's first read is throttled and retried. big (101 resources) is
	// loaded twice: by its Express child, which defers it, and by its
	// Standard one; 6 read batches, 26 parents in 3 batches.
	wantCalls := map[string]int{
		statemachine.FunctionDiscover:          5 + 3, // the organisation + 4 accounts, the large stacks of 3 account-regions
		statemachine.FunctionLoadDesired:       5 + 2,
		statemachine.FunctionReadResources:     3 + 2 + 1 + 1 + 6, // api, web (throttled once), quiet, data, big
		statemachine.FunctionResolve:           5,
		statemachine.FunctionEnumerateChildren: 2 + 1 + 3, // api, data (3 parents), big
		statemachine.FunctionClassify:          5,
		statemachine.FunctionPersist:           5 + 2 + 1, // record-stack, record-failure (stack, account), close-run
		statemachine.FunctionNotify:            5,
	}
	if diff := cmp.Diff(rec.Calls, wantCalls); diff != "" {
		t.Errorf("invocations (-got +want):\n%s", diff)
	}
	if ex.Retries != 1 {
		t.Errorf("retries = %d, want 1 (the throttled read)", ex.Retries)
	}
	// Per account-region a Stacks Map Run (Express children) and a
	// LargeStacks one (Standard): big's is the only large child.
	runs := map[string][3]int{}
	for _, mr := range ex.MapRuns {
		if mr.State == "Stacks" && mr.ExecutionType == statemachine.TypeExpress || mr.State == "LargeStacks" && mr.ExecutionType == statemachine.TypeStandard {
			c := runs[mr.State]
			runs[mr.State] = [3]int{c[0] + 1, c[1] + mr.ItemCounts.Total, c[2] + mr.ItemCounts.Succeeded}
		}
	}
	if diff := cmp.Diff(runs, map[string][3]int{"Stacks": {3, 6, 6}, "LargeStacks": {3, 1, 1}}); diff != "" {
		t.Errorf("map runs: [runs, items, succeeded] by state (-got +want):\n%s\n%+v", diff, ex.MapRuns)
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
	ex, got := runSweep(t, l, fake, statemachine.Run{ExecutionName: "big"})
	if got.Stacks != stacks || got.Checked != stacks {
		t.Errorf("summary %+v, want %d stacks all checked", got, stacks)
	}
	statemachinetest.CheckStateOutputs(t, ex)
	t.Logf("%d stacks, %d state outputs, largest %d bytes", stacks, len(ex.States), ex.MaxStateOutputBytes)
}

// TestSweepExpressTimeoutRerunsStandard: a stack small enough for the
// Express Stacks Map whose check still passes Express's 5 minutes (its
// account-region's rate busier than FitsExpress assumed) times out there
// and is checked again by the Standard LargeStacks Map: checked, nothing
// missing. Time runs 300 times faster on the runner's clocks, so the
// Express limit is one real second and the stack's one read two.
func TestSweepExpressTimeoutRerunsStandard(t *testing.T) {
	l := statemachinetest.Local(t)
	fake := &statemachinetest.Fake{
		Accounts: map[string][]statemachinetest.Stack{
			"111111111111": {
				{Ref: ref("111111111111", "us-east-1", "slow"), Resources: 5, Drift: 1, SlowRead: 2 * time.Second},
				{Ref: ref("111111111111", "us-east-1", "quick"), Resources: 5},
			},
		},
		Targets: statemachinetest.ServeS3(t, "realdrift-targets"),
	}
	ex, got := runSweep(t, l, fake, statemachine.Run{ExecutionName: "sweep-slow", RetryMillis: 1, TimeScale: 300})
	if got.Stacks != 2 || got.Checked != 2 || got.Missing != 0 || got.Failed != 0 {
		t.Errorf("summary %+v: want both stacks checked, none missing", got)
	}
	if diff := cmp.Diff(fake.Record().Outcomes, map[string]string{"111111111111/us-east-1/slow": "checked", "111111111111/us-east-1/quick": "checked"}); diff != "" {
		t.Errorf("outcomes (-got +want):\n%s", diff)
	}
	var stacks, large statemachine.MapRun
	for _, mr := range ex.MapRuns {
		switch mr.State {
		case "Stacks":
			stacks = mr
		case "LargeStacks":
			large = mr
		}
	}
	if stacks.ExecutionCounts.TimedOut != 1 || stacks.ExecutionCounts.Succeeded != 1 || large.ExecutionType != statemachine.TypeStandard || large.ItemCounts.Total != 1 || large.ItemCounts.Succeeded != 1 {
		t.Errorf("Stacks %+v, LargeStacks %+v: want one Express child timed out and checked again by one Standard child", stacks, large)
	}
}

// runSweep runs the sweep definition with run's options against fake's
// handlers and S3, and returns the execution and its summary; it fails the
// test unless the sweep succeeded.
func runSweep(t *testing.T, l statemachine.Local, fake *statemachinetest.Fake, run statemachine.Run) (statemachine.Execution, statemachine.RunSummary) {
	t.Helper()
	run.Definition, run.Input, run.LambdaEndpoint = statemachine.Sweep, map[string]any{}, statemachinetest.Serve(t, fake.Register)
	ex, err := l.Run(t.Context(), fake.Targets.Run(run))
	if err != nil {
		t.Fatal(err)
	}
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("status %s, error %+v", ex.Status, ex.Error)
	}
	var sum statemachine.RunSummary
	if err := json.Unmarshal(ex.Output, &sum); err != nil {
		t.Fatalf("output %s: %v", ex.Output, err)
	}
	return ex, sum
}
