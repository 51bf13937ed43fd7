package live_test

import (
	"strings"
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	budget = `{"Budget":{"BudgetName":"monthly-cost","BudgetType":"COST","TimeUnit":"MONTHLY","BudgetLimit":{"Amount":"40.0","Unit":"USD"},` +
		`"CostFilters":{"Service":["Amazon Elastic Compute Cloud - Compute"]},"AutoAdjustData":{"AutoAdjustType":"HISTORICAL","HistoricalOptions":{"BudgetAdjustmentPeriod":6}}}}`
	dlmDefault = `{"Description":"default instance policy","State":"ENABLED","ExecutionRoleArn":"arn:aws:iam::111111111111:role/dlm","DefaultPolicy":"INSTANCE",` +
		`"CreateInterval":1,"RetainInterval":7,"CopyTags":false,"ExtendDeletion":false,"Tags":[{"Key":"team","Value":"ops"}]}`
	dlmPolicy = `{"Description":"daily EBS backups","State":"ENABLED","ExecutionRoleArn":"arn:aws:iam::111111111111:role/dlm",` +
		`"PolicyDetails":{"PolicyType":"EBS_SNAPSHOT_MANAGEMENT","ResourceTypes":["VOLUME"],"TargetTags":[{"Key":"backup","Value":"true"}],` +
		`"Schedules":[{"Name":"daily","CopyTags":false,"CreateRule":{"Interval":24,"IntervalUnit":"HOURS","Times":["03:00"]},"RetainRule":{"Count":14}}]}}`
)

// TestBudgetRoundTrip: moto 5.2.1 serves Budgets: see TestMotoBudget.
func TestBudgetRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(liveOnly("AWS::Budgets::Budget", "monthly-cost", budget)))
	c := live.NewClients(config(url))
	declared := declaredOf(t, budget)
	declared["NotificationsWithSubscribers"] = []any{map[string]any{"Notification": map[string]any{"NotificationType": "ACTUAL"}}} // not read: a readGap
	req := live.Request{Type: "AWS::Budgets::Budget", LogicalID: "Budget", PhysicalID: "monthly-cost", Declared: declared}
	overrideRoundTrip(t, c, srv, region, req, budget, "monthly-cost", "Budget.TimeUnit", `"QUARTERLY"`)
	if got := live.Read(ctx(t), c, live.Request{Type: req.Type, PhysicalID: "gone"}); got.Status != live.NotFound {
		t.Errorf("missing budget: %+v, want notFound", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "budgets", Action: "DescribeBudget", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "Budgets DescribeBudget: AccessDeniedException") {
		t.Errorf("denied: %+v, want skipped", got)
	}
}

// TestLifecyclePolicyRoundTrip: a default policy and a snapshot policy.
// moto 5.2.1 has no DLM: said in TestMotoBudget.
func TestLifecyclePolicyRoundTrip(t *testing.T) {
	srv, url := serve(t, worldOf(
		liveOnly("AWS::DLM::LifecyclePolicy", "policy-0aaaaaaaaaaaaaaaa", dlmDefault),
		liveOnly("AWS::DLM::LifecyclePolicy", "policy-0bbbbbbbbbbbbbbbb", dlmPolicy),
	))
	c := live.NewClients(config(url))
	for _, tc := range []struct{ id, model, path, value string }{
		{"policy-0aaaaaaaaaaaaaaaa", dlmDefault, "RetainInterval", `14`},
		{"policy-0bbbbbbbbbbbbbbbb", dlmPolicy, "State", `"DISABLED"`},
	} {
		req := live.Request{Type: "AWS::DLM::LifecyclePolicy", LogicalID: "Policy", PhysicalID: tc.id, Declared: declaredOf(t, tc.model)}
		overrideRoundTrip(t, c, srv, region, req, tc.model, tc.id, tc.path, tc.value)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::DLM::LifecyclePolicy", PhysicalID: "policy-0ffffffffffffffff"}); got.Status != live.NotFound {
		t.Errorf("missing policy: %+v, want notFound", got)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "dlm", Action: "GetLifecyclePolicy", Code: "LimitExceededException", Status: 429}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, live.Request{Type: "AWS::DLM::LifecyclePolicy", PhysicalID: "policy-0aaaaaaaaaaaaaaaa"}); got.Status != live.Skipped || !strings.HasPrefix(got.Reason, "DLM GetLifecyclePolicy: LimitExceededException") {
		t.Errorf("throttled: %+v, want skipped", got)
	}
}
