package lambda

import "github.com/realdrift/realdrift/internal/sandbox/wire"

func Service() *wire.Service {
	svc := wire.RESTJSON("lambda", lambdaRoute, wire.Ops{
		"GetPolicy":                lambdaGetPolicy,
		"ListFunctionUrlConfigs":   lambdaListFunctionURLConfigs,
		"ListAliases":              lambdaListAliases,
		"ListEventSourceMappings":  lambdaListEventSourceMappings,
		"ListVersionsByFunction":   lambdaListVersionsByFunction,
		"GetFunctionConfiguration": lambdaGetFunctionConfiguration,
		"AddPermission":            lambdaAddPermission,
		"RemovePermission":         lambdaRemovePermission,
	})
	// An out-of-band change of a permission is checked as AddPermission
	// would check it (the action's, principal's and source ARN's
	// patterns, the function URL auth type's enumeration).
	svc.Models = map[string][]wire.ModelInput{
		"AWS::Lambda::Permission": {{Op: "AddPermission", Shape: "AddPermissionRequest"}},
	}
	return svc
}
