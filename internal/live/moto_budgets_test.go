package live_test

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/budgets"
	budgettypes "github.com/aws/aws-sdk-go-v2/service/budgets/types"

	"github.com/realdrift/realdrift/internal/live"
)

// TestMotoBudget: a budget created in moto through the SDK, read back.
// moto 5.2.1 has no DLM (CreateLifecyclePolicy answers a 500 HTML page):
// the lifecycle policy reader is checked against the sandbox and the AWS
// CLI check only.
func TestMotoBudget(t *testing.T) {
	cfg := motoConfig(t)
	cx := ctx(t)
	b := budgets.NewFromConfig(cfg)
	if _, err := b.CreateBudget(cx, &budgets.CreateBudgetInput{AccountId: aws.String("123456789012"), Budget: &budgettypes.Budget{BudgetName: aws.String("moto-monthly"),
		BudgetType: budgettypes.BudgetTypeCost, TimeUnit: budgettypes.TimeUnitMonthly, BudgetLimit: &budgettypes.Spend{Amount: aws.String("40"), Unit: aws.String("USD")}}}); err != nil {
		t.Fatal(err)
	}
	c := live.NewClients(cfg)
	got := live.Read(cx, c, live.Request{Type: "AWS::Budgets::Budget", PhysicalID: "moto-monthly"})
	if got.Status != live.Found {
		t.Fatalf("read: %+v", got)
	}
	bm, _ := got.Model["Budget"].(map[string]any)
	if bm["BudgetName"] != "moto-monthly" || bm["BudgetType"] != "COST" || bm["TimeUnit"] != "MONTHLY" {
		t.Errorf("budget %v", bm)
	}
	if l, _ := bm["BudgetLimit"].(map[string]any); l["Unit"] != "USD" || l["Amount"] == nil {
		t.Errorf("limit %v", bm["BudgetLimit"])
	}
	if _, ok := bm["TimePeriod"]; ok {
		t.Errorf("TimePeriod read: %v", bm)
	}
	if got := live.Read(cx, c, live.Request{Type: "AWS::Budgets::Budget", PhysicalID: "moto-nope"}); got.Status != live.NotFound {
		t.Errorf("missing budget: %+v, want notFound", got)
	}
}
