package live

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// The EC2 family: AWS::EC2::EIP read through DescribeAddresses;
// AWS::EC2::NetworkAclEntry (Cloud Control has no read
// handler) read through DescribeNetworkAcls; the out-of-band entries of a
// declared AWS::EC2::NetworkAcl; the out-of-band subnets, security groups,
// route tables and network ACLs of a declared AWS::EC2::VPC.

type ec2API interface {
	ec2.DescribeNetworkAclsAPIClient
	ec2.DescribeSubnetsAPIClient
	ec2.DescribeSecurityGroupsAPIClient
	ec2.DescribeRouteTablesAPIClient
	DescribeAddresses(ctx context.Context, in *ec2.DescribeAddressesInput, optFns ...func(*ec2.Options)) (*ec2.DescribeAddressesOutput, error)
	launchTemplateAPI
	clientVpnAPI
	transitGatewayAPI
}

var _ ec2API = (*ec2.Client)(nil)

// defaultRuleNumber is the number of the deny-all rules AWS puts at the end
// of every network ACL; no template declares them.
const defaultRuleNumber = 32767

// readNetworkAclEntry reads AWS::EC2::NetworkAclEntry: the entry of the
// declared NetworkAclId with the declared RuleNumber and Egress, in the
// resource's property shape {NetworkAclId, RuleNumber, Egress, RuleAction,
// Protocol, CidrBlock | Ipv6CidrBlock, Icmp, PortRange}.
func readNetworkAclEntry(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	aclID, err := declaredString(r.Declared, "NetworkAclId")
	if err != nil {
		return nil, err
	}
	rule, err := declaredInt(r.Declared, "RuleNumber")
	if err != nil {
		return nil, err
	}
	egress, err := declaredBool(r.Declared, "Egress")
	if err != nil {
		return nil, err
	}
	acl, err := networkAcl(ctx, c, aclID)
	if err != nil {
		return nil, err
	}
	for _, e := range acl.Entries {
		if int(aws.ToInt32(e.RuleNumber)) == rule && aws.ToBool(e.Egress) == egress {
			return aclEntryModel(aclID, e), nil
		}
	}
	return nil, fmt.Errorf("rule %d (egress %t) of network ACL %s: %w", rule, egress, aclID, ErrNotFound)
}

// networkAcl describes one network ACL.
func networkAcl(ctx context.Context, c *Clients, id string) (ec2types.NetworkAcl, error) {
	if c.EC2 == nil {
		return ec2types.NetworkAcl{}, skip("no EC2 client")
	}
	out, err := c.EC2.DescribeNetworkAcls(ctx, &ec2.DescribeNetworkAclsInput{NetworkAclIds: []string{id}})
	if err != nil {
		return ec2types.NetworkAcl{}, err
	}
	for _, a := range out.NetworkAcls {
		if aws.ToString(a.NetworkAclId) == id {
			return a, nil
		}
	}
	return ec2types.NetworkAcl{}, fmt.Errorf("network ACL %s: %w", id, ErrNotFound)
}

// aclEntryModel projects an entry: EC2 answers the protocol as a string
// ("6", "-1"), the template declares a number.
func aclEntryModel(aclID string, e ec2types.NetworkAclEntry) map[string]any {
	m := map[string]any{
		"NetworkAclId": aclID,
		"RuleNumber":   float64(aws.ToInt32(e.RuleNumber)),
		"Egress":       aws.ToBool(e.Egress),
		"RuleAction":   string(e.RuleAction),
	}
	if p := aws.ToString(e.Protocol); p != "" {
		if n, err := strconv.Atoi(p); err == nil {
			m["Protocol"] = float64(n)
		} else {
			m["Protocol"] = p
		}
	}
	if e.CidrBlock != nil {
		m["CidrBlock"] = *e.CidrBlock
	}
	if e.Ipv6CidrBlock != nil {
		m["Ipv6CidrBlock"] = *e.Ipv6CidrBlock
	}
	if t := e.IcmpTypeCode; t != nil {
		icmp := map[string]any{}
		if t.Code != nil {
			icmp["Code"] = float64(*t.Code)
		}
		if t.Type != nil {
			icmp["Type"] = float64(*t.Type)
		}
		m["Icmp"] = icmp
	}
	if pr := e.PortRange; pr != nil {
		ports := map[string]any{}
		if pr.From != nil {
			ports["From"] = float64(*pr.From)
		}
		if pr.To != nil {
			ports["To"] = float64(*pr.To)
		}
		m["PortRange"] = ports
	}
	return m
}

// aclEntryID is the identity of an out-of-band entry, which has no AWS id:
// "<acl id>|ingress|<rule number>" (or egress).
func aclEntryID(aclID string, rule int, egress bool) string {
	dir := "ingress"
	if egress {
		dir = "egress"
	}
	return aclID + "|" + dir + "|" + strconv.Itoa(rule)
}

// networkAclEntries lists the entries of a declared network ACL that no
// AWS::EC2::NetworkAclEntry of the stack declares, leaving out AWS's own
// deny-all rules. A declared entry whose ACL, number or direction is not
// resolved may be any entry: the listing stops with nothing added.
func networkAclEntries(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	declared := map[string]bool{}
	for _, r := range stack {
		if r.Type != "AWS::EC2::NetworkAclEntry" {
			continue
		}
		acl, err := declaredString(r.Declared, "NetworkAclId")
		if err != nil {
			return nil, nil
		}
		rule, err := declaredInt(r.Declared, "RuleNumber")
		if err != nil {
			return nil, nil
		}
		egress, err := declaredBool(r.Declared, "Egress")
		if err != nil {
			return nil, nil
		}
		declared[aclEntryID(acl, rule, egress)] = true
	}
	acl, err := networkAcl(ctx, c, parent.PhysicalID)
	if isNotFound(err) {
		return nil, nil // the parent itself is reported deleted
	}
	if err != nil {
		return nil, err
	}
	var out []candidate
	for _, e := range acl.Entries {
		rule := int(aws.ToInt32(e.RuleNumber))
		if rule == defaultRuleNumber {
			continue
		}
		id := aclEntryID(parent.PhysicalID, rule, aws.ToBool(e.Egress))
		if declared[id] {
			continue
		}
		out = append(out, candidate{typ: "AWS::EC2::NetworkAclEntry", id: id, model: aclEntryModel(parent.PhysicalID, e)})
	}
	return out, nil
}

// vpcChildren lists the subnets, security groups, route tables and
// network ACLs in a declared VPC that the stack does not declare, leaving
// out what AWS creates with every VPC (its default security group, default
// network ACL and main route table). Each is read in full through Cloud
// Control; the ones another stack owns are left out by Enumerate.
func vpcChildren(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.EC2 == nil {
		return nil, skip("no EC2 client")
	}
	vpc := []ec2types.Filter{{Name: aws.String("vpc-id"), Values: []string{parent.PhysicalID}}}
	var out []candidate
	add := func(typ, id string) {
		if id != "" && !declaredIDs(stack, typ)[id] {
			out = append(out, candidate{typ: typ, id: id})
		}
	}
	subnets := ec2.NewDescribeSubnetsPaginator(c.EC2, &ec2.DescribeSubnetsInput{Filters: vpc})
	for subnets.HasMorePages() {
		page, err := subnets.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range page.Subnets {
			add("AWS::EC2::Subnet", aws.ToString(s.SubnetId))
		}
	}
	groups := ec2.NewDescribeSecurityGroupsPaginator(c.EC2, &ec2.DescribeSecurityGroupsInput{Filters: vpc})
	for groups.HasMorePages() {
		page, err := groups.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, g := range page.SecurityGroups {
			if aws.ToString(g.GroupName) != "default" {
				add("AWS::EC2::SecurityGroup", aws.ToString(g.GroupId))
			}
		}
	}
	tables := ec2.NewDescribeRouteTablesPaginator(c.EC2, &ec2.DescribeRouteTablesInput{Filters: vpc})
	for tables.HasMorePages() {
		page, err := tables.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, t := range page.RouteTables {
			main := false
			for _, a := range t.Associations {
				main = main || aws.ToBool(a.Main)
			}
			if !main {
				add("AWS::EC2::RouteTable", aws.ToString(t.RouteTableId))
			}
		}
	}
	acls := ec2.NewDescribeNetworkAclsPaginator(c.EC2, &ec2.DescribeNetworkAclsInput{Filters: vpc})
	for acls.HasMorePages() {
		page, err := acls.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, a := range page.NetworkAcls {
			if !aws.ToBool(a.IsDefault) {
				add("AWS::EC2::NetworkAcl", aws.ToString(a.NetworkAclId))
			}
		}
	}
	return out, nil
}

// declaredInt returns a declared top-level integer (a JSON number, or a
// string holding one).
func declaredInt(d map[string]any, prop string) (int, error) {
	v, ok := d[prop]
	if !ok {
		return 0, skip("declared " + prop + " is absent")
	}
	switch t := v.(type) {
	case float64:
		return int(t), nil
	case int:
		return t, nil
	case string:
		if n, err := strconv.Atoi(strings.TrimSpace(t)); err == nil {
			return n, nil
		}
	}
	if _, err := declaredString(d, prop); isWaiting(err) {
		return 0, err
	}
	return 0, skip("declared " + prop + " is not an integer")
}

// declaredBool returns a declared top-level boolean; absent is false.
func declaredBool(d map[string]any, prop string) (bool, error) {
	v, ok := d[prop]
	if !ok || v == nil {
		return false, nil
	}
	switch t := v.(type) {
	case bool:
		return t, nil
	case string:
		if b, err := strconv.ParseBool(t); err == nil {
			return b, nil
		}
	}
	if _, err := declaredString(d, prop); isWaiting(err) {
		return false, err
	}
	return false, skip("declared " + prop + " is not a boolean")
}

func isWaiting(err error) bool {
	_, ok := err.(*waitingError)
	return ok
}

// readEIP reads AWS::EC2::EIP through DescribeAddresses by its public IP
// (the physical id): {Domain, NetworkBorderGroup, PublicIp, InstanceId,
// NetworkInterfaceId, Tags}. The allocation id is read-only and not part
// of the model.
func readEIP(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.EC2 == nil {
		return nil, skip("no EC2 client")
	}
	out, err := c.EC2.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{PublicIps: []string{r.PhysicalID}})
	if err != nil {
		return nil, err
	}
	for _, a := range out.Addresses {
		if aws.ToString(a.PublicIp) != r.PhysicalID {
			continue
		}
		m := map[string]any{"PublicIp": r.PhysicalID}
		if a.Domain != "" {
			m["Domain"] = string(a.Domain)
		}
		for k, v := range map[string]*string{"NetworkBorderGroup": a.NetworkBorderGroup, "InstanceId": a.InstanceId, "NetworkInterfaceId": a.NetworkInterfaceId} {
			if aws.ToString(v) != "" {
				m[k] = *v
			}
		}
		if len(a.Tags) > 0 {
			m["Tags"] = ec2Tags(a.Tags)
		}
		return m, nil
	}
	return nil, fmt.Errorf("address %s: %w", r.PhysicalID, ErrNotFound)
}

func ec2Tags(tags []ec2types.Tag) []any {
	out := make([]any, len(tags))
	for i, t := range tags {
		out[i] = map[string]any{"Key": aws.ToString(t.Key), "Value": aws.ToString(t.Value)}
	}
	return out
}

// routeTargets are the route target properties, in the API's and the
// template's names alike.
var routeTargets = []struct {
	prop string
	get  func(ec2types.Route) *string
}{
	{"GatewayId", func(r ec2types.Route) *string { return r.GatewayId }},
	{"NatGatewayId", func(r ec2types.Route) *string { return r.NatGatewayId }},
	{"InstanceId", func(r ec2types.Route) *string { return r.InstanceId }},
	{"NetworkInterfaceId", func(r ec2types.Route) *string { return r.NetworkInterfaceId }},
	{"VpcPeeringConnectionId", func(r ec2types.Route) *string { return r.VpcPeeringConnectionId }},
	{"TransitGatewayId", func(r ec2types.Route) *string { return r.TransitGatewayId }},
	{"EgressOnlyInternetGatewayId", func(r ec2types.Route) *string { return r.EgressOnlyInternetGatewayId }},
	{"CarrierGatewayId", func(r ec2types.Route) *string { return r.CarrierGatewayId }},
	{"LocalGatewayId", func(r ec2types.Route) *string { return r.LocalGatewayId }},
	{"CoreNetworkArn", func(r ec2types.Route) *string { return r.CoreNetworkArn }},
}

// routeDestination is a route's destination: its IPv4 or IPv6 CIDR block
// or prefix list, and the template property that names it.
func routeDestination(r ec2types.Route) (prop, dest string) {
	switch {
	case r.DestinationCidrBlock != nil:
		return "DestinationCidrBlock", *r.DestinationCidrBlock
	case r.DestinationIpv6CidrBlock != nil:
		return "DestinationIpv6CidrBlock", *r.DestinationIpv6CidrBlock
	case r.DestinationPrefixListId != nil:
		return "DestinationPrefixListId", *r.DestinationPrefixListId
	}
	return "", ""
}

// tableRoutes lists the routes of a declared route table that no
// AWS::EC2::Route of the stack declares, leaving out the local route AWS
// creates with the table and routes propagated from a gateway. Identity:
// the route's Cloud Control identifier "<route table id>|<destination>";
// the model is the route in the template's shape. A declared route whose
// table or destination is not resolved may be any route.
func tableRoutes(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.EC2 == nil {
		return nil, skip("no EC2 client")
	}
	declared := map[string]bool{}
	for _, r := range stack {
		if r.Type != "AWS::EC2::Route" {
			continue
		}
		table, err := declaredString(r.Declared, "RouteTableId")
		if err != nil {
			return nil, nil
		}
		for _, p := range []string{"DestinationCidrBlock", "DestinationIpv6CidrBlock", "DestinationPrefixListId"} {
			if _, ok := r.Declared[p]; !ok {
				continue
			}
			dest, err := declaredString(r.Declared, p)
			if err != nil {
				return nil, nil
			}
			declared[table+"|"+dest] = true
		}
	}
	out, err := c.EC2.DescribeRouteTables(ctx, &ec2.DescribeRouteTablesInput{RouteTableIds: []string{parent.PhysicalID}})
	if isNotFound(err) {
		return nil, nil // the table itself is reported deleted
	}
	if err != nil {
		return nil, err
	}
	var cands []candidate
	for _, t := range out.RouteTables {
		if aws.ToString(t.RouteTableId) != parent.PhysicalID {
			continue
		}
		for _, r := range t.Routes {
			if r.Origin == ec2types.RouteOriginCreateRouteTable || r.Origin == ec2types.RouteOriginEnableVgwRoutePropagation || aws.ToString(r.GatewayId) == "local" {
				continue
			}
			prop, dest := routeDestination(r)
			id := parent.PhysicalID + "|" + dest
			if dest == "" || declared[id] {
				continue
			}
			m := map[string]any{"RouteTableId": parent.PhysicalID, prop: dest, "CidrBlock": dest}
			for _, tg := range routeTargets {
				if v := aws.ToString(tg.get(r)); v != "" {
					m[tg.prop] = v
				}
			}
			cands = append(cands, candidate{typ: "AWS::EC2::Route", id: id, model: m})
		}
	}
	return cands, nil
}

// DefaultSecurityGroups lists the ids of the region's default security
// groups: the group named "default" that AWS creates with every VPC, the
// default VPC's included. It is an account fact the classifier uses to
// tell the group AWS attaches to a resource whose template names none from
// any other group (classify.Options.DefaultSecurityGroups).
func (c *Clients) DefaultSecurityGroups(ctx context.Context) ([]string, error) {
	if c.EC2 == nil {
		return nil, fmt.Errorf("no EC2 client")
	}
	in := &ec2.DescribeSecurityGroupsInput{Filters: []ec2types.Filter{{Name: aws.String("group-name"), Values: []string{"default"}}}}
	ids := []string{}
	p := ec2.NewDescribeSecurityGroupsPaginator(c.EC2, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, g := range page.SecurityGroups {
			if id := aws.ToString(g.GroupId); id != "" && aws.ToString(g.GroupName) == "default" {
				ids = append(ids, id)
			}
		}
	}
	sort.Strings(ids)
	return ids, nil
}
