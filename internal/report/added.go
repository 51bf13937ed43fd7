package report

import (
	"strings"

	"github.com/realdrift/realdrift/internal/drift"
)

// addedFacets names, per child resource type, the properties of its live
// model that say what an added child is (a subscription's protocol and
// endpoint, a permission's principal and action), in the order shown:
// enough to judge it in an alert without opening the console. A type
// without a row is shown by its identifier alone. Property names are the
// CloudFormation ones (a child's live model is in its template shape).
var addedFacets = map[string][]string{
	"AWS::SNS::Subscription":                      {"Protocol", "Endpoint"},
	"AWS::Lambda::Permission":                     {"Principal", "Action", "SourceArn", "SourceAccount"},
	"AWS::Lambda::Url":                            {"AuthType", "FunctionUrl"},
	"AWS::Lambda::Alias":                          {"Name", "FunctionVersion"},
	"AWS::Lambda::Version":                        {"Version"},
	"AWS::Lambda::EventSourceMapping":             {"EventSourceArn", "Enabled"},
	"AWS::Route53::RecordSet":                     {"Name", "Type"},
	"AWS::IAM::Policy":                            {"PolicyName"},
	"AWS::ApplicationAutoScaling::ScalableTarget": {"ScalableDimension", "MinCapacity", "MaxCapacity"},
	"AWS::ApplicationAutoScaling::ScalingPolicy":  {"PolicyName", "PolicyType"},
	"AWS::EC2::SecurityGroupIngress":              {"IpProtocol", "CidrIp", "CidrIpv6", "SourceSecurityGroupId", "FromPort", "ToPort"},
	"AWS::EC2::SecurityGroupEgress":               {"IpProtocol", "CidrIp", "CidrIpv6", "DestinationSecurityGroupId", "FromPort", "ToPort"},
	"AWS::Glue::Table":                            {"DatabaseName"},
}

// AddedWhat says what an added child is, from its live model: "Protocol
// email, Endpoint ops@example.com" for a subscription; "" when its type
// has no facets or its model none of them (its full read failed).
// A string is shown as it is, another value as JSON (secrets only as
// drift.Redacted); each is clipped.
func AddedWhat(f drift.Finding) string {
	m, ok := f.Actual.(map[string]any)
	if f.Tier != drift.Added || !ok {
		return ""
	}
	var parts []string
	for _, k := range addedFacets[f.ResourceType] {
		v, ok := m[k]
		if !ok || v == nil {
			continue
		}
		s, isString := v.(string)
		if !isString {
			s = value(v, Options{})
		}
		parts = append(parts, k+" "+clipRunes(oneLine(s), maxValue))
	}
	return strings.Join(parts, ", ")
}

// clipRunes shortens s to at most n runes, marking the cut.
func clipRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
