package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ses"
	sestypes "github.com/aws/aws-sdk-go-v2/service/ses/types"
)

// The SES (v1) family, which Cloud Control cannot read:
// AWS::SES::ReceiptFilter (ListReceiptFilters, by name),
// AWS::SES::ReceiptRuleSet (DescribeReceiptRuleSet, by name),
// AWS::SES::ReceiptRule (DescribeReceiptRule of the declared rule set, by
// the rule's name) and AWS::SES::ConfigurationSetEventDestination
// (DescribeConfigurationSet's event destinations, the declared
// destination's name in the declared configuration set). The SDK's field
// names are the template's but SNSDestination (SnsDestination); a rule's
// After (where it was inserted) cannot be read back: a readGap.

type sesAPI interface {
	ListReceiptFilters(ctx context.Context, in *ses.ListReceiptFiltersInput, optFns ...func(*ses.Options)) (*ses.ListReceiptFiltersOutput, error)
	DescribeReceiptRuleSet(ctx context.Context, in *ses.DescribeReceiptRuleSetInput, optFns ...func(*ses.Options)) (*ses.DescribeReceiptRuleSetOutput, error)
	DescribeReceiptRule(ctx context.Context, in *ses.DescribeReceiptRuleInput, optFns ...func(*ses.Options)) (*ses.DescribeReceiptRuleOutput, error)
	DescribeConfigurationSet(ctx context.Context, in *ses.DescribeConfigurationSetInput, optFns ...func(*ses.Options)) (*ses.DescribeConfigurationSetOutput, error)
}

var _ sesAPI = (*ses.Client)(nil)

// readReceiptFilter reads AWS::SES::ReceiptFilter: {Filter: {Name,
// IpFilter: {Policy, Cidr}}}.
func readReceiptFilter(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.SES == nil {
		return nil, skip("no SES client")
	}
	out, err := c.SES.ListReceiptFilters(ctx, &ses.ListReceiptFiltersInput{})
	if err != nil {
		return nil, err
	}
	for _, f := range out.Filters {
		if aws.ToString(f.Name) == r.PhysicalID {
			return map[string]any{"Filter": sdkModel(f)}, nil
		}
	}
	return nil, fmt.Errorf("receipt filter %s: %w", r.PhysicalID, ErrNotFound)
}

// readReceiptRuleSet reads AWS::SES::ReceiptRuleSet: {RuleSetName}.
func readReceiptRuleSet(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.SES == nil {
		return nil, skip("no SES client")
	}
	out, err := c.SES.DescribeReceiptRuleSet(ctx, &ses.DescribeReceiptRuleSetInput{RuleSetName: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	name := r.PhysicalID
	if out.Metadata != nil && aws.ToString(out.Metadata.Name) != "" {
		name = *out.Metadata.Name
	}
	return map[string]any{"RuleSetName": name}, nil
}

// readReceiptRule reads AWS::SES::ReceiptRule: {RuleSetName, Rule}.
func readReceiptRule(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	set, err := declaredString(r.Declared, "RuleSetName")
	if err != nil {
		return nil, err
	}
	if c.SES == nil {
		return nil, skip("no SES client")
	}
	out, err := c.SES.DescribeReceiptRule(ctx, &ses.DescribeReceiptRuleInput{RuleSetName: &set, RuleName: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	if out.Rule == nil {
		return nil, fmt.Errorf("receipt rule %s of %s: %w", r.PhysicalID, set, ErrNotFound)
	}
	return map[string]any{"RuleSetName": set, "Rule": sdkModel(*out.Rule)}, nil
}

// readEventDestination reads AWS::SES::ConfigurationSetEventDestination:
// {ConfigurationSetName, EventDestination}.
func readEventDestination(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	set, err := declaredString(r.Declared, "ConfigurationSetName")
	if err != nil {
		return nil, err
	}
	d, _ := r.Declared["EventDestination"].(map[string]any)
	if d == nil {
		if _, err := declaredString(r.Declared, "EventDestination"); isWaiting(err) {
			return nil, err
		}
		return nil, skip("declared EventDestination is not an object")
	}
	name, err := declaredString(d, "Name")
	if err != nil {
		return nil, err
	}
	if c.SES == nil {
		return nil, skip("no SES client")
	}
	out, err := c.SES.DescribeConfigurationSet(ctx, &ses.DescribeConfigurationSetInput{ConfigurationSetName: &set,
		ConfigurationSetAttributeNames: []sestypes.ConfigurationSetAttribute{sestypes.ConfigurationSetAttributeEventDestinations}})
	if err != nil {
		return nil, err
	}
	for _, e := range out.EventDestinations {
		if aws.ToString(e.Name) == name {
			m := sdkModel(e)
			renameKey(m, "SNSDestination", "SnsDestination")
			return map[string]any{"ConfigurationSetName": set, "EventDestination": m}, nil
		}
	}
	return nil, fmt.Errorf("event destination %s of configuration set %s: %w", name, set, ErrNotFound)
}
