package kafka

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves Amazon MSK (REST-JSON, camelCase): GET
// /v1/configurations/{arn} and /v1/configurations/{arn}/revisions/{n}
// from the world's AWS::MSK::Configuration models (by Arn, else the
// identifier). The model's LatestRevision.Revision (default 1) is the only
// revision, created (as the configuration) at the world's default time;
// its ServerProperties is answered as the blob MSK sends
// (base64). An unknown configuration or revision is a NotFoundException.
func Service() *wire.Service {
	return wire.RESTJSON("kafka", wire.Paths(map[string]string{
		"GET /v1/configurations/{arn}":                      "DescribeConfiguration",
		"GET /v1/configurations/{arn}/revisions/{revision}": "DescribeConfigurationRevision",
	}), wire.Ops{
		"DescribeConfiguration":         kafkaDescribeConfiguration,
		"DescribeConfigurationRevision": kafkaDescribeConfigurationRevision,
	}).Denies(403, "ForbiddenException")
}
