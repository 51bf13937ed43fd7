package ses

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves SES v1 (query/XML) receipt filters, receipt rule sets
// and rules, and configuration set event destinations, from the world's
// AWS::SES::ReceiptFilter (Filter), ReceiptRuleSet (RuleSetName, else the
// identifier), ReceiptRule (RuleSetName, Rule) and
// ConfigurationSetEventDestination (ConfigurationSetName, EventDestination)
// models, plus the rule sets and configuration sets those name. Values are
// answered in the API's shape, which is the template's but for
// SnsDestination (SNSDestination), lists as <member>s.
func Service() *wire.Service {
	return wire.Query("ses", "http://ses.amazonaws.com/doc/2010-12-01/", wire.Ops{
		"ListReceiptFilters":       sesListReceiptFilters,
		"DescribeReceiptRuleSet":   sesDescribeReceiptRuleSet,
		"DescribeReceiptRule":      sesDescribeReceiptRule,
		"DescribeConfigurationSet": sesDescribeConfigurationSet,
	})
}
