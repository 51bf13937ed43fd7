package logs

import (
	"time"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
)

// Service serves CloudWatch Logs (JSON 1.1): the metric and
// subscription filters of a log group, from the world's
// AWS::Logs::MetricFilter and AWS::Logs::SubscriptionFilter models. A log
// group exists when an AWS::Logs::LogGroup model names it or a filter is on
// it; asking for the filters of another answers ResourceNotFoundException.
// A nextToken holds for the listing that issued it, for 24 hours.
func Service() *wire.Service {
	return wire.JSON("logs", "1.1", "Logs_20140328.", wire.Ops{
		"DescribeMetricFilters":       logsDescribeMetricFilters,
		"DescribeSubscriptionFilters": logsDescribeSubscriptionFilters,
	}).
		// AWS's model (botocore logs, the NextToken shape of both
		// operations' input): "The token expires after 24 hours."
		TokensExpire(24 * time.Hour)
}
