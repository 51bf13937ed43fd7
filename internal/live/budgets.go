package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/budgets"
)

// AWS::Budgets::Budget (Cloud Control cannot read it) through DescribeBudget
// by its name (the physical id) in the clients' account: {Budget} in the
// template's shape (the API's Budget is it, PascalCase; a limit's Amount
// stays the API's decimal text). Left out: the calculated spend, health
// status and update times (AWS's own), the auto-adjust look-back periods,
// and TimePeriod (AWS answers the start and end it picked as timestamps;
// the template's are its own text: a readGap). NotificationsWithSubscribers
// and ResourceTags are not read (other APIs): readGaps.

type budgetsAPI interface {
	DescribeBudget(ctx context.Context, in *budgets.DescribeBudgetInput, optFns ...func(*budgets.Options)) (*budgets.DescribeBudgetOutput, error)
}

var _ budgetsAPI = (*budgets.Client)(nil)

// readBudget reads AWS::Budgets::Budget.
func readBudget(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.Budgets == nil {
		return nil, skip("no Budgets client")
	}
	sc, err := c.scope(ctx)()
	if err != nil {
		return nil, err
	}
	out, err := c.Budgets.DescribeBudget(ctx, &budgets.DescribeBudgetInput{AccountId: &sc.Account, BudgetName: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	if out.Budget == nil {
		return nil, fmt.Errorf("budget %s: %w", r.PhysicalID, ErrNotFound)
	}
	b := sdkModel(*out.Budget)
	dropKeys(b, "CalculatedSpend", "HealthStatus", "TimePeriod")
	dropKeys(objectAt(objectAt(b, "AutoAdjustData"), "HistoricalOptions"), "LookBackAvailablePeriods")
	return map[string]any{"Budget": b}, nil
}
