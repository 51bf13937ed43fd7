package ec2

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves the EC2 query protocol: form-encoded requests (lists as
// Name.N, filters as Filter.N.Name / Filter.N.Value.M), replies without a
// Result wrapper and with lists as <item> elements, errors as
// <Response><Errors><Error>.
//
// The world's EC2 resources answer the Describe calls from their Cloud
// Control models: AWS::EC2::EIP, VPC, Route (the routes of its table), Subnet, SecurityGroup, RouteTable,
// NetworkAcl, and NetworkAclEntry (the entries of the ACL their
// NetworkAclId names; an ACL only entries name exists too). Each VPC has
// the resources AWS creates with it: its default security group, default
// network ACL and main route table, with ids derived from the VPC id.
// Transit gateways' attachments and route tables: ec2_transitgateway.go.
func Service() *wire.Service {
	return &wire.Service{
		Name:     "ec2",
		Protocol: wire.ProtoEC2,
		XMLNS:    "http://ec2.amazonaws.com/doc/2016-11-15/",
		Throttle: wire.Error{Status: 503, Code: "RequestLimitExceeded"},
		Deny:     wire.Error{Status: 403, Code: "UnauthorizedOperation"},
		// EC2's API is eventually consistent, as its documentation says.
		Eventual: map[string]bool{"ReplaceNetworkAclEntry": true},
		Ops: map[string]wire.Handler{
			"DescribeNetworkAcls":            ec2DescribeNetworkAcls,
			"DescribeSubnets":                ec2DescribeSubnets,
			"DescribeSecurityGroups":         ec2DescribeSecurityGroups,
			"DescribeRouteTables":            ec2DescribeRouteTables,
			"DescribeAddresses":              ec2DescribeAddresses,
			"ReplaceNetworkAclEntry":         ec2ReplaceNetworkAclEntry,
			"DescribeLaunchTemplateVersions": ec2DescribeLaunchTemplateVersions,

			"DescribeTransitGatewayVpcAttachments": ec2DescribeTransitGatewayVpcAttachments,
			"DescribeTransitGatewayRouteTables":    ec2DescribeTransitGatewayRouteTables,

			"DescribeClientVpnEndpoints":          ec2DescribeClientVpnEndpoints,
			"DescribeClientVpnTargetNetworks":     ec2DescribeClientVpnTargetNetworks,
			"DescribeClientVpnAuthorizationRules": ec2DescribeClientVpnAuthorizationRules,
		},
		// An out-of-band change of a network ACL entry is checked as
		// ReplaceNetworkAclEntry would check it (the rule action's
		// enumeration, numbers that are numbers).
		Models: map[string][]wire.ModelInput{
			"AWS::EC2::NetworkAclEntry": {{Op: "ReplaceNetworkAclEntry", Shape: "ReplaceNetworkAclEntryRequest"}},
		},
	}
}
