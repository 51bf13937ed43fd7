package ec2

import (
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// items is an EC2 list: <name><item>...</item></name>.
func items(name string, its []*wire.Node) *wire.Node { return wire.ListOf(name, "item", its) }

// ec2List reads an EC2 list parameter: Name.1, Name.2, ...
func ec2List(c *wire.Call, name string) []string {
	var out []string
	for i := 1; ; i++ {
		v, ok := c.Form[name+"."+strconv.Itoa(i)]
		if !ok {
			return out
		}
		out = append(out, v[0])
	}
}

// ec2Filters reads Filter.N.Name / Filter.N.Value.M.
func ec2Filters(c *wire.Call) map[string][]string {
	out := map[string][]string{}
	for i := 1; ; i++ {
		name, ok := c.Form["Filter."+strconv.Itoa(i)+".Name"]
		if !ok {
			return out
		}
		out[name[0]] = append(out[name[0]], ec2List(c, "Filter."+strconv.Itoa(i)+".Value")...)
	}
}

// ec2Object is one EC2 object the Describe calls list.
type ec2Object struct {
	id     string
	values map[string][]string // filter name → values it matches
	node   *wire.Node
}

// ec2Describe filters objects by ids and filters and pages them
// (wire.Paging: MaxResults 5-1000, never beside ids; a NextToken holds for
// the filters that issued it).
func ec2Describe(c *wire.Call, setName, idParam, notFound, kind string, allowed map[string]bool, objs []ec2Object) (any, error) {
	ids := ec2List(c, idParam)
	filters := ec2Filters(c)
	for name := range filters {
		if !allowed[name] {
			return nil, wire.Errf(400, "InvalidParameterValue", "The filter '%s' is invalid", name)
		}
	}
	cur, err := ec2Paging(c)
	if err != nil {
		return nil, err
	}
	if c.Str("MaxResults") != "" && len(ids) > 0 {
		return nil, wire.Errf(400, "InvalidParameterCombination", "The parameter %ss cannot be used with the parameter maxResults", idParam)
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].id < objs[j].id })
	byID := map[string]bool{}
	for _, o := range objs {
		byID[o.id] = true
	}
	for _, id := range ids {
		if !byID[id] {
			return nil, wire.Errf(400, notFound, "The %s ID '%s' does not exist", kind, id)
		}
	}
	var kept []*wire.Node
	for _, o := range objs {
		if len(ids) > 0 && !world.Contains(ids, o.id) {
			continue
		}
		match := true
		for name, want := range filters {
			hit := false
			for _, v := range o.values[name] {
				hit = hit || world.Contains(want, v)
			}
			match = match && hit
		}
		if match {
			kept = append(kept, o.node)
		}
	}
	lo, hi, next := cur.Cut(len(kept))
	out := wire.El("", items(setName, kept[lo:hi]))
	if next != "" {
		out.Kids = append(out.Kids, wire.Tx("nextToken", next))
	}
	return out, nil
}

// derivedID is the id AWS would give a resource created with parent.
func derivedID(prefix, parent string) string {
	h := sha256.Sum256([]byte(prefix + parent))
	return prefix + "-" + hex.EncodeToString(h[:])[:17]
}

// vpcs returns the ids of the VPCs of the account region.
func vpcs(st *world.State, c *wire.Call) []string {
	var out []string
	for _, v := range st.OfType(c.Account, c.Region, "AWS::EC2::VPC") {
		id := world.FieldString(v, "VpcId")
		if id == "" {
			id = v.CCID()
		}
		out = append(out, id)
	}
	return out
}

func tagSet(res *world.Resource) *wire.Node {
	var its []*wire.Node
	if tags, ok := world.FieldValue(res, "Tags").([]any); ok {
		for _, t := range tags {
			m, _ := t.(map[string]any)
			k, _ := m["Key"].(string)
			v, _ := m["Value"].(string)
			its = append(its, wire.El("", wire.Tx("key", k), wire.Tx("value", v)))
		}
	}
	return items("tagSet", its)
}

func ec2DescribeNetworkAcls(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	type acl struct {
		id, vpc string
		dflt    bool
		res     *world.Resource
		entries []*wire.Node
	}
	acls := map[string]*acl{}
	get := func(id string) *acl {
		if acls[id] == nil {
			acls[id] = &acl{id: id}
		}
		return acls[id]
	}
	for _, vpc := range vpcs(st, c) {
		a := get(derivedID("acl", vpc))
		a.vpc, a.dflt = vpc, true
	}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::EC2::NetworkAcl") {
		id := world.FieldString(r, "Id")
		if id == "" {
			id = r.CCID()
		}
		a := get(id)
		a.vpc, a.res = world.FieldString(r, "VpcId"), r
	}
	for _, e := range st.OfType(c.Account, c.Region, "AWS::EC2::NetworkAclEntry") {
		id := world.FieldString(e, "NetworkAclId")
		if id == "" {
			continue
		}
		a := get(id)
		a.entries = append(a.entries, aclEntry(e))
	}
	var objs []ec2Object
	for _, a := range acls {
		// Every ACL ends in AWS's own deny-all rules, ingress and egress.
		for _, egress := range []bool{false, true} {
			a.entries = append(a.entries, wire.El("", wire.Tx("cidrBlock", "0.0.0.0/0"), wire.Bool("egress", egress), wire.Tx("protocol", "-1"), wire.Tx("ruleAction", "deny"), wire.Tx("ruleNumber", "32767")))
		}
		node := wire.El("", wire.Tx("networkAclId", a.id), wire.Tx("vpcId", a.vpc), wire.Bool("default", a.dflt), items("entrySet", a.entries), items("associationSet", nil), tagSet(a.res), wire.Tx("ownerId", c.Account))
		objs = append(objs, ec2Object{id: a.id, node: node, values: map[string][]string{
			"network-acl-id": {a.id}, "vpc-id": {a.vpc}, "default": {strconv.FormatBool(a.dflt)},
		}})
	}
	return ec2Describe(c, "networkAclSet", "NetworkAclId", "InvalidNetworkAclID.NotFound", "networkAcl", map[string]bool{"network-acl-id": true, "vpc-id": true, "default": true}, objs)
}

// aclEntry renders an AWS::EC2::NetworkAclEntry model as an entrySet item.
func aclEntry(e *world.Resource) *wire.Node {
	num := func(v any) string {
		switch t := v.(type) {
		case float64:
			return strconv.FormatFloat(t, 'f', -1, 64)
		case string:
			return t
		}
		return ""
	}
	egress, _ := world.FieldValue(e, "Egress").(bool)
	n := wire.El("", wire.Tx("ruleNumber", num(world.FieldValue(e, "RuleNumber"))), wire.Tx("protocol", num(world.FieldValue(e, "Protocol"))),
		wire.Tx("ruleAction", strings.ToLower(world.FieldString(e, "RuleAction"))), wire.Bool("egress", egress),
		wire.Opt("cidrBlock", world.FieldString(e, "CidrBlock")), wire.Opt("ipv6CidrBlock", world.FieldString(e, "Ipv6CidrBlock")))
	if m, ok := world.FieldValue(e, "Icmp").(map[string]any); ok {
		n.Kids = append(n.Kids, wire.El("icmpTypeCode", wire.Opt("code", num(m["Code"])), wire.Opt("type", num(m["Type"]))))
	}
	if m, ok := world.FieldValue(e, "PortRange").(map[string]any); ok {
		n.Kids = append(n.Kids, wire.El("portRange", wire.Opt("from", num(m["From"])), wire.Opt("to", num(m["To"]))))
	}
	return n
}

func ec2DescribeSubnets(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	var objs []ec2Object
	for _, r := range st.OfType(c.Account, c.Region, "AWS::EC2::Subnet") {
		id := world.FieldString(r, "SubnetId")
		if id == "" {
			id = r.CCID()
		}
		vpc := world.FieldString(r, "VpcId")
		node := wire.El("", wire.Tx("subnetId", id), wire.Tx("vpcId", vpc), wire.Tx("state", "available"), wire.Opt("cidrBlock", world.FieldString(r, "CidrBlock")),
			wire.Opt("availabilityZone", world.FieldString(r, "AvailabilityZone")), tagSet(r), wire.Tx("ownerId", c.Account))
		objs = append(objs, ec2Object{id: id, node: node, values: map[string][]string{"subnet-id": {id}, "vpc-id": {vpc}}})
	}
	return ec2Describe(c, "subnetSet", "SubnetId", "InvalidSubnetID.NotFound", "subnet", map[string]bool{"subnet-id": true, "vpc-id": true}, objs)
}

func ec2DescribeSecurityGroups(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	var objs []ec2Object
	add := func(id, name, vpc, desc string, res *world.Resource) {
		node := wire.El("", wire.Tx("groupId", id), wire.Tx("groupName", name), wire.Opt("vpcId", vpc), wire.Tx("groupDescription", desc), tagSet(res), wire.Tx("ownerId", c.Account))
		objs = append(objs, ec2Object{id: id, node: node, values: map[string][]string{"group-id": {id}, "group-name": {name}, "vpc-id": {vpc}}})
	}
	for _, vpc := range vpcs(st, c) {
		add(derivedID("sg", vpc), "default", vpc, "default VPC security group", nil)
	}
	if r := st.Region(c.Account, c.Region); r != nil {
		for _, id := range r.DefaultSecurityGroups {
			add(id, "default", derivedID("vpc", id), "default VPC security group", nil)
		}
	}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::EC2::SecurityGroup") {
		id := world.FieldString(r, "GroupId")
		if id == "" {
			id = r.CCID()
		}
		add(id, world.FieldString(r, "GroupName"), world.FieldString(r, "VpcId"), world.FieldString(r, "GroupDescription"), r)
	}
	return ec2Describe(c, "securityGroupInfo", "GroupId", "InvalidGroup.NotFound", "security group", map[string]bool{"group-id": true, "group-name": true, "vpc-id": true}, objs)
}

// routeTargets are the route target fields: model property, EC2 name.
var routeTargets = [][2]string{
	{"GatewayId", "gatewayId"}, {"NatGatewayId", "natGatewayId"}, {"InstanceId", "instanceId"},
	{"NetworkInterfaceId", "networkInterfaceId"}, {"VpcPeeringConnectionId", "vpcPeeringConnectionId"},
	{"TransitGatewayId", "transitGatewayId"}, {"EgressOnlyInternetGatewayId", "egressOnlyInternetGatewayId"},
	{"CarrierGatewayId", "carrierGatewayId"}, {"LocalGatewayId", "localGatewayId"}, {"CoreNetworkArn", "coreNetworkArn"},
}

// routeSet renders a route table's routes: the local route of its VPC's
// CIDR block, then the AWS::EC2::Route models on the table.
func routeSet(st *world.State, c *wire.Call, table, vpc string) *wire.Node {
	var its []*wire.Node
	for _, v := range st.OfType(c.Account, c.Region, "AWS::EC2::VPC") {
		if (world.FieldString(v, "VpcId") == vpc || v.CCID() == vpc) && world.FieldString(v, "CidrBlock") != "" {
			its = append(its, wire.El("", wire.Tx("destinationCidrBlock", world.FieldString(v, "CidrBlock")), wire.Tx("gatewayId", "local"), wire.Tx("state", "active"), wire.Tx("origin", "CreateRouteTable")))
		}
	}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::EC2::Route") {
		if world.FieldString(r, "RouteTableId") != table {
			continue
		}
		n := wire.El("", wire.Opt("destinationCidrBlock", world.FieldString(r, "DestinationCidrBlock")), wire.Opt("destinationIpv6CidrBlock", world.FieldString(r, "DestinationIpv6CidrBlock")),
			wire.Opt("destinationPrefixListId", world.FieldString(r, "DestinationPrefixListId")))
		for _, t := range routeTargets {
			if v := world.FieldString(r, t[0]); v != "" {
				n.Kids = append(n.Kids, wire.Tx(t[1], v))
			}
		}
		n.Kids = append(n.Kids, wire.Tx("state", "active"), wire.Tx("origin", "CreateRoute"))
		its = append(its, n)
	}
	return items("routeSet", its)
}

func ec2DescribeRouteTables(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	var objs []ec2Object
	add := func(id, vpc string, main bool, res *world.Resource) {
		var assoc []*wire.Node
		if main {
			assoc = append(assoc, wire.El("", wire.Tx("routeTableAssociationId", derivedID("rtbassoc", id)), wire.Tx("routeTableId", id), wire.Bool("main", true)))
		}
		node := wire.El("", wire.Tx("routeTableId", id), wire.Tx("vpcId", vpc), items("associationSet", assoc), routeSet(st, c, id, vpc), tagSet(res), wire.Tx("ownerId", c.Account))
		objs = append(objs, ec2Object{id: id, node: node, values: map[string][]string{"route-table-id": {id}, "vpc-id": {vpc}, "association.main": {strconv.FormatBool(main)}}})
	}
	for _, vpc := range vpcs(st, c) {
		add(derivedID("rtb", vpc), vpc, true, nil)
	}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::EC2::RouteTable") {
		id := world.FieldString(r, "RouteTableId")
		if id == "" {
			id = r.CCID()
		}
		add(id, world.FieldString(r, "VpcId"), false, r)
	}
	return ec2Describe(c, "routeTableSet", "RouteTableId", "InvalidRouteTableID.NotFound", "route table", map[string]bool{"route-table-id": true, "vpc-id": true, "association.main": true}, objs)
}

// ec2DescribeAddresses lists the Elastic IPs (AWS::EC2::EIP models; an
// allocation id the model lacks is derived from the address). Addresses
// are not paged; an unknown public IP or allocation id is an error.
func ec2DescribeAddresses(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	ips, allocs := ec2List(c, "PublicIp"), ec2List(c, "AllocationId")
	filters := ec2Filters(c)
	for name := range filters {
		if name != "public-ip" && name != "allocation-id" && name != "domain" {
			return nil, wire.Errf(400, "InvalidParameterValue", "The filter '%s' is invalid", name)
		}
	}
	found := map[string]bool{}
	var kept []*wire.Node
	for _, r := range st.OfType(c.Account, c.Region, "AWS::EC2::EIP") {
		ip := world.FieldString(r, "PublicIp")
		if ip == "" {
			ip = r.PhysicalID
		}
		alloc := world.FieldString(r, "AllocationId")
		if alloc == "" {
			alloc = derivedID("eipalloc", ip)
		}
		domain := world.FieldString(r, "Domain")
		if domain == "" {
			domain = "vpc"
		}
		if (len(ips) > 0 && !world.Contains(ips, ip)) || (len(allocs) > 0 && !world.Contains(allocs, alloc)) {
			continue
		}
		match := true
		for name, want := range filters {
			v := map[string]string{"public-ip": ip, "allocation-id": alloc, "domain": domain}[name]
			match = match && world.Contains(want, v)
		}
		if !match {
			continue
		}
		found[ip], found[alloc] = true, true
		kept = append(kept, wire.El("", wire.Tx("publicIp", ip), wire.Tx("allocationId", alloc), wire.Tx("domain", domain),
			wire.Opt("networkBorderGroup", world.FieldString(r, "NetworkBorderGroup")), wire.Tx("publicIpv4Pool", "amazon"),
			wire.Opt("instanceId", world.FieldString(r, "InstanceId")), wire.Opt("networkInterfaceId", world.FieldString(r, "NetworkInterfaceId")), tagSet(r)))
	}
	for _, ip := range ips {
		if !found[ip] {
			return nil, wire.Errf(400, "InvalidAddress.NotFound", "Address '%s' not found.", ip)
		}
	}
	for _, a := range allocs {
		if !found[a] {
			return nil, wire.Errf(400, "InvalidAllocationID.NotFound", "The allocation ID '%s' does not exist", a)
		}
	}
	return wire.El("", items("addressesSet", kept)), nil
}

// ec2ReplaceNetworkAclEntry rewrites the AWS::EC2::NetworkAclEntry model
// of an ACL's rule (number and direction) with the request's protocol,
// action, CIDR block, ports and ICMP code.
func ec2ReplaceNetworkAclEntry(st *world.State, c *wire.Call) (any, error) {
	acl, rule := c.Str("NetworkAclId"), c.Str("RuleNumber")
	egress := c.Str("Egress") == "true"
	n, err := strconv.Atoi(rule)
	if err != nil {
		return nil, wire.Errf(400, "InvalidParameterValue", "Invalid value '%s' for ruleNumber", rule)
	}
	st.Lock()
	defer st.Unlock()
	var entry *world.Resource
	for _, e := range st.OfType(c.Account, c.Region, "AWS::EC2::NetworkAclEntry") {
		num, _ := world.FieldValue(e, "RuleNumber").(float64)
		eg, _ := world.FieldValue(e, "Egress").(bool)
		if world.FieldString(e, "NetworkAclId") == acl && int(num) == n && eg == egress {
			entry = e
		}
	}
	if entry == nil {
		return nil, wire.Errf(400, "InvalidNetworkAclEntry.NotFound", "The network ACL entry identified by %s cannot be found", rule)
	}
	num := func(name string) any {
		v := c.Str(name)
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
		return v
	}
	set := map[string]any{"Protocol": num("Protocol"), "RuleAction": c.Str("RuleAction")}
	for _, k := range []string{"CidrBlock", "Ipv6CidrBlock"} {
		if v := c.Str(k); v != "" {
			set[k] = v
		} else if err := world.RemoveField(entry, k); err != nil {
			return nil, err
		}
	}
	if c.Str("PortRange.From") != "" || c.Str("PortRange.To") != "" {
		set["PortRange"] = map[string]any{"From": num("PortRange.From"), "To": num("PortRange.To")}
	} else if err := world.RemoveField(entry, "PortRange"); err != nil {
		return nil, err
	}
	if c.Str("Icmp.Code") != "" || c.Str("Icmp.Type") != "" {
		set["Icmp"] = map[string]any{"Code": num("Icmp.Code"), "Type": num("Icmp.Type")}
	} else if err := world.RemoveField(entry, "Icmp"); err != nil {
		return nil, err
	}
	for _, k := range world.SortedKeys(set) {
		if err := world.SetField(entry, k, set[k]); err != nil {
			return nil, err
		}
	}
	return wire.El("", wire.Bool("return", true)), nil
}
