package budgets

import "github.com/realdrift/realdrift/internal/sandbox/world"
import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "encoding/json"

func budgetsDescribeBudget(st *world.State, c *wire.Call, in struct{ AccountId, BudgetName string }) (any, error) {
	if in.AccountId != c.Account {
		return nil, wire.Errf(400, "AccessDeniedException", "Account %s is not the caller's account", in.AccountId)
	}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::Budgets::Budget") {
		m, err := world.FieldObject(r)
		if err != nil {
			return nil, err
		}
		b, _ := m["Budget"].(map[string]any)
		if b == nil {
			b = map[string]any{}
		}
		name, _ := b["BudgetName"].(string)
		if name == "" {
			name = r.CCID()
		}
		if name != in.BudgetName {
			continue
		}
		b["BudgetName"] = name
		delete(b, "TimePeriod")
		if l, ok := b["BudgetLimit"].(map[string]any); ok {
			budgetAmountText(l)
		}
		if pl, ok := b["PlannedBudgetLimits"].(map[string]any); ok {
			for _, v := range pl {
				if l, ok := v.(map[string]any); ok {
					budgetAmountText(l)
				}
			}
		}
		return map[string]any{"Budget": b}, nil
	}
	return nil, wire.Errf(400, "NotFoundException", "Unable to get budget: %s - the budget doesn't exist.", in.BudgetName)
}

// budgetAmountText turns a spend's numeric Amount into Budgets' text.
func budgetAmountText(l map[string]any) {
	if n, ok := l["Amount"].(json.Number); ok {
		l["Amount"] = n.String()
	}
}
