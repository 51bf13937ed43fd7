package budgets

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves AWS Budgets (JSON 1.1, PascalCase): DescribeBudget
// answers the Budget of the world's AWS::Budgets::Budget model of that
// name (Budget.BudgetName, else the identifier) in the caller's account,
// its limits' Amounts as the decimal text Budgets answers; TimePeriod is
// not answered (the template's text is not the API's timestamps). Another
// account's id is AccessDeniedException, an unknown budget
// NotFoundException.
func Service() *wire.Service {
	svc := wire.JSON("budgets", "1.1", "AWSBudgetServiceGateway.", wire.Ops{
		"DescribeBudget": wire.Read(budgetsDescribeBudget),
	})
	// Budgets reads are authorized as ViewBudget.
	svc.IAM.Actions = map[string]string{"DescribeBudget": "budgets:ViewBudget", "DescribeBudgets": "budgets:ViewBudget"}
	return svc
}
