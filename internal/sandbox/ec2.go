package sandbox

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"net/http"
	"sort"
	"strconv"
	"strings"
)

// ec2Service serves the EC2 query protocol: form-encoded requests (lists as
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
func ec2Service() *service {
	return &service{
		name:     "ec2",
		protocol: protoEC2,
		xmlns:    "http://ec2.amazonaws.com/doc/2016-11-15/",
		throttle: apiError{Status: 503, Code: "RequestLimitExceeded"},
		deny:     apiError{Status: 403, Code: "UnauthorizedOperation"},
		ops: map[string]handler{
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
	}
}

// writeEC2 writes an EC2-protocol success reply: the result's children
// directly under <ActionResponse>, after the requestId.
func writeEC2(w http.ResponseWriter, svc *service, action, reqID string, result *xnode) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	fmt.Fprintf(&b, `<%sResponse xmlns="%s">`, action, svc.xmlns)
	tx("requestId", reqID).write(&b)
	if result != nil {
		for _, k := range result.kids {
			k.write(&b)
		}
	}
	fmt.Fprintf(&b, `</%sResponse>`, action)
	w.Header().Set("Content-Type", "text/xml;charset=UTF-8")
	w.Header().Set("x-amzn-RequestId", reqID)
	w.WriteHeader(200)
	_, _ = w.Write(b.Bytes())
}

// writeEC2Error writes an EC2-protocol error.
func writeEC2Error(w http.ResponseWriter, reqID string, status int, e *apiError) {
	var b bytes.Buffer
	b.WriteString(xml.Header)
	b.WriteString("<Response><Errors>")
	el("Error", tx("Code", e.Code), tx("Message", e.Message)).write(&b)
	b.WriteString("</Errors>")
	tx("RequestID", reqID).write(&b)
	b.WriteString("</Response>")
	w.Header().Set("Content-Type", "text/xml;charset=UTF-8")
	w.WriteHeader(status)
	_, _ = w.Write(b.Bytes())
}

// items is an EC2 list: <name><item>...</item></name>.
func items(name string, its []*xnode) *xnode {
	n := &xnode{name: name}
	for _, it := range its {
		it.name = "item"
		n.kids = append(n.kids, it)
	}
	return n
}

// ec2List reads an EC2 list parameter: Name.1, Name.2, ...
func (c *call) ec2List(name string) []string {
	var out []string
	for i := 1; ; i++ {
		v, ok := c.form[name+"."+strconv.Itoa(i)]
		if !ok {
			return out
		}
		out = append(out, v[0])
	}
}

// ec2Filters reads Filter.N.Name / Filter.N.Value.M.
func (c *call) ec2Filters() map[string][]string {
	out := map[string][]string{}
	for i := 1; ; i++ {
		name, ok := c.form["Filter."+strconv.Itoa(i)+".Name"]
		if !ok {
			return out
		}
		out[name[0]] = append(out[name[0]], c.ec2List("Filter."+strconv.Itoa(i)+".Value")...)
	}
}

// ec2Object is one EC2 object the Describe calls list.
type ec2Object struct {
	id     string
	values map[string][]string // filter name → values it matches
	node   *xnode
}

// ec2Describe filters objects by ids and filters and pages them.
func (c *call) ec2Describe(setName, idParam, notFound, kind string, allowed map[string]bool, objs []ec2Object) (any, error) {
	ids := c.ec2List(idParam)
	filters := c.ec2Filters()
	for name := range filters {
		if !allowed[name] {
			return nil, errf(400, "InvalidParameterValue", "The filter '%s' is invalid", name)
		}
	}
	size := 1000
	if m := c.str("MaxResults"); m != "" {
		n, err := strconv.Atoi(m)
		if err != nil || n < 5 || n > 1000 {
			return nil, errf(400, "InvalidParameterValue", "Value ( %s ) for parameter maxResults is invalid. Expecting a value between 5 and 1000.", m)
		}
		if len(ids) > 0 {
			return nil, errf(400, "InvalidParameterCombination", "The parameter %ss cannot be used with the parameter maxResults", idParam)
		}
		size = n
	}
	off, ok := pageOffset("ec2", c.str("NextToken"))
	if !ok {
		return nil, errf(400, "InvalidPaginationToken", "Invalid pagination token")
	}
	sort.Slice(objs, func(i, j int) bool { return objs[i].id < objs[j].id })
	byID := map[string]bool{}
	for _, o := range objs {
		byID[o.id] = true
	}
	for _, id := range ids {
		if !byID[id] {
			return nil, errf(400, notFound, "The %s ID '%s' does not exist", kind, id)
		}
	}
	var kept []*xnode
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
	lo, hi, next := page(len(kept), off, size)
	out := el("", items(setName, kept[lo:hi]))
	if next >= 0 {
		out.kids = append(out.kids, tx("nextToken", pageToken("ec2", next)))
	}
	return out, nil
}

// derivedID is the id AWS would give a resource created with parent.
func derivedID(prefix, parent string) string {
	h := sha256.Sum256([]byte(prefix + parent))
	return prefix + "-" + hex.EncodeToString(h[:])[:17]
}

// vpcs returns the ids of the VPCs of the account region.
func vpcs(st *world.State, c *call) []string {
	var out []string
	for _, v := range st.OfType(c.account, c.region, "AWS::EC2::VPC") {
		id := world.FieldString(v, "VpcId")
		if id == "" {
			id = v.CCID()
		}
		out = append(out, id)
	}
	return out
}

func tagSet(res *world.Resource) *xnode {
	var its []*xnode
	if tags, ok := world.FieldValue(res, "Tags").([]any); ok {
		for _, t := range tags {
			m, _ := t.(map[string]any)
			k, _ := m["Key"].(string)
			v, _ := m["Value"].(string)
			its = append(its, el("", tx("key", k), tx("value", v)))
		}
	}
	return items("tagSet", its)
}

func ec2DescribeNetworkAcls(st *world.State, c *call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	type acl struct {
		id, vpc string
		dflt    bool
		res     *world.Resource
		entries []*xnode
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
	for _, r := range st.OfType(c.account, c.region, "AWS::EC2::NetworkAcl") {
		id := world.FieldString(r, "Id")
		if id == "" {
			id = r.CCID()
		}
		a := get(id)
		a.vpc, a.res = world.FieldString(r, "VpcId"), r
	}
	for _, e := range st.OfType(c.account, c.region, "AWS::EC2::NetworkAclEntry") {
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
			a.entries = append(a.entries, el("", tx("cidrBlock", "0.0.0.0/0"), xbool("egress", egress), tx("protocol", "-1"), tx("ruleAction", "deny"), tx("ruleNumber", "32767")))
		}
		node := el("", tx("networkAclId", a.id), tx("vpcId", a.vpc), xbool("default", a.dflt), items("entrySet", a.entries), items("associationSet", nil), tagSet(a.res), tx("ownerId", c.account))
		objs = append(objs, ec2Object{id: a.id, node: node, values: map[string][]string{
			"network-acl-id": {a.id}, "vpc-id": {a.vpc}, "default": {strconv.FormatBool(a.dflt)},
		}})
	}
	return c.ec2Describe("networkAclSet", "NetworkAclId", "InvalidNetworkAclID.NotFound", "networkAcl", map[string]bool{"network-acl-id": true, "vpc-id": true, "default": true}, objs)
}

// aclEntry renders an AWS::EC2::NetworkAclEntry model as an entrySet item.
func aclEntry(e *world.Resource) *xnode {
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
	n := el("", tx("ruleNumber", num(world.FieldValue(e, "RuleNumber"))), tx("protocol", num(world.FieldValue(e, "Protocol"))),
		tx("ruleAction", strings.ToLower(world.FieldString(e, "RuleAction"))), xbool("egress", egress),
		opt("cidrBlock", world.FieldString(e, "CidrBlock")), opt("ipv6CidrBlock", world.FieldString(e, "Ipv6CidrBlock")))
	if m, ok := world.FieldValue(e, "Icmp").(map[string]any); ok {
		n.kids = append(n.kids, el("icmpTypeCode", opt("code", num(m["Code"])), opt("type", num(m["Type"]))))
	}
	if m, ok := world.FieldValue(e, "PortRange").(map[string]any); ok {
		n.kids = append(n.kids, el("portRange", opt("from", num(m["From"])), opt("to", num(m["To"]))))
	}
	return n
}

func ec2DescribeSubnets(st *world.State, c *call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	var objs []ec2Object
	for _, r := range st.OfType(c.account, c.region, "AWS::EC2::Subnet") {
		id := world.FieldString(r, "SubnetId")
		if id == "" {
			id = r.CCID()
		}
		vpc := world.FieldString(r, "VpcId")
		node := el("", tx("subnetId", id), tx("vpcId", vpc), tx("state", "available"), opt("cidrBlock", world.FieldString(r, "CidrBlock")),
			opt("availabilityZone", world.FieldString(r, "AvailabilityZone")), tagSet(r), tx("ownerId", c.account))
		objs = append(objs, ec2Object{id: id, node: node, values: map[string][]string{"subnet-id": {id}, "vpc-id": {vpc}}})
	}
	return c.ec2Describe("subnetSet", "SubnetId", "InvalidSubnetID.NotFound", "subnet", map[string]bool{"subnet-id": true, "vpc-id": true}, objs)
}

func ec2DescribeSecurityGroups(st *world.State, c *call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	var objs []ec2Object
	add := func(id, name, vpc, desc string, res *world.Resource) {
		node := el("", tx("groupId", id), tx("groupName", name), opt("vpcId", vpc), tx("groupDescription", desc), tagSet(res), tx("ownerId", c.account))
		objs = append(objs, ec2Object{id: id, node: node, values: map[string][]string{"group-id": {id}, "group-name": {name}, "vpc-id": {vpc}}})
	}
	for _, vpc := range vpcs(st, c) {
		add(derivedID("sg", vpc), "default", vpc, "default VPC security group", nil)
	}
	if r := st.Region(c.account, c.region); r != nil {
		for _, id := range r.DefaultSecurityGroups {
			add(id, "default", derivedID("vpc", id), "default VPC security group", nil)
		}
	}
	for _, r := range st.OfType(c.account, c.region, "AWS::EC2::SecurityGroup") {
		id := world.FieldString(r, "GroupId")
		if id == "" {
			id = r.CCID()
		}
		add(id, world.FieldString(r, "GroupName"), world.FieldString(r, "VpcId"), world.FieldString(r, "GroupDescription"), r)
	}
	return c.ec2Describe("securityGroupInfo", "GroupId", "InvalidGroup.NotFound", "security group", map[string]bool{"group-id": true, "group-name": true, "vpc-id": true}, objs)
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
func routeSet(st *world.State, c *call, table, vpc string) *xnode {
	var its []*xnode
	for _, v := range st.OfType(c.account, c.region, "AWS::EC2::VPC") {
		if (world.FieldString(v, "VpcId") == vpc || v.CCID() == vpc) && world.FieldString(v, "CidrBlock") != "" {
			its = append(its, el("", tx("destinationCidrBlock", world.FieldString(v, "CidrBlock")), tx("gatewayId", "local"), tx("state", "active"), tx("origin", "CreateRouteTable")))
		}
	}
	for _, r := range st.OfType(c.account, c.region, "AWS::EC2::Route") {
		if world.FieldString(r, "RouteTableId") != table {
			continue
		}
		n := el("", opt("destinationCidrBlock", world.FieldString(r, "DestinationCidrBlock")), opt("destinationIpv6CidrBlock", world.FieldString(r, "DestinationIpv6CidrBlock")),
			opt("destinationPrefixListId", world.FieldString(r, "DestinationPrefixListId")))
		for _, t := range routeTargets {
			if v := world.FieldString(r, t[0]); v != "" {
				n.kids = append(n.kids, tx(t[1], v))
			}
		}
		n.kids = append(n.kids, tx("state", "active"), tx("origin", "CreateRoute"))
		its = append(its, n)
	}
	return items("routeSet", its)
}

func ec2DescribeRouteTables(st *world.State, c *call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	var objs []ec2Object
	add := func(id, vpc string, main bool, res *world.Resource) {
		var assoc []*xnode
		if main {
			assoc = append(assoc, el("", tx("routeTableAssociationId", derivedID("rtbassoc", id)), tx("routeTableId", id), xbool("main", true)))
		}
		node := el("", tx("routeTableId", id), tx("vpcId", vpc), items("associationSet", assoc), routeSet(st, c, id, vpc), tagSet(res), tx("ownerId", c.account))
		objs = append(objs, ec2Object{id: id, node: node, values: map[string][]string{"route-table-id": {id}, "vpc-id": {vpc}, "association.main": {strconv.FormatBool(main)}}})
	}
	for _, vpc := range vpcs(st, c) {
		add(derivedID("rtb", vpc), vpc, true, nil)
	}
	for _, r := range st.OfType(c.account, c.region, "AWS::EC2::RouteTable") {
		id := world.FieldString(r, "RouteTableId")
		if id == "" {
			id = r.CCID()
		}
		add(id, world.FieldString(r, "VpcId"), false, r)
	}
	return c.ec2Describe("routeTableSet", "RouteTableId", "InvalidRouteTableID.NotFound", "route table", map[string]bool{"route-table-id": true, "vpc-id": true, "association.main": true}, objs)
}

// ec2DescribeAddresses lists the Elastic IPs (AWS::EC2::EIP models; an
// allocation id the model lacks is derived from the address). Addresses
// are not paged; an unknown public IP or allocation id is an error.
func ec2DescribeAddresses(st *world.State, c *call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	ips, allocs := c.ec2List("PublicIp"), c.ec2List("AllocationId")
	filters := c.ec2Filters()
	for name := range filters {
		if name != "public-ip" && name != "allocation-id" && name != "domain" {
			return nil, errf(400, "InvalidParameterValue", "The filter '%s' is invalid", name)
		}
	}
	found := map[string]bool{}
	var kept []*xnode
	for _, r := range st.OfType(c.account, c.region, "AWS::EC2::EIP") {
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
		kept = append(kept, el("", tx("publicIp", ip), tx("allocationId", alloc), tx("domain", domain),
			opt("networkBorderGroup", world.FieldString(r, "NetworkBorderGroup")), tx("publicIpv4Pool", "amazon"),
			opt("instanceId", world.FieldString(r, "InstanceId")), opt("networkInterfaceId", world.FieldString(r, "NetworkInterfaceId")), tagSet(r)))
	}
	for _, ip := range ips {
		if !found[ip] {
			return nil, errf(400, "InvalidAddress.NotFound", "Address '%s' not found.", ip)
		}
	}
	for _, a := range allocs {
		if !found[a] {
			return nil, errf(400, "InvalidAllocationID.NotFound", "The allocation ID '%s' does not exist", a)
		}
	}
	return el("", items("addressesSet", kept)), nil
}

// ec2ReplaceNetworkAclEntry rewrites the AWS::EC2::NetworkAclEntry model
// of an ACL's rule (number and direction) with the request's protocol,
// action, CIDR block, ports and ICMP code.
func ec2ReplaceNetworkAclEntry(st *world.State, c *call) (any, error) {
	acl, rule := c.str("NetworkAclId"), c.str("RuleNumber")
	egress := c.str("Egress") == "true"
	n, err := strconv.Atoi(rule)
	if err != nil {
		return nil, errf(400, "InvalidParameterValue", "Invalid value '%s' for ruleNumber", rule)
	}
	st.Lock()
	defer st.Unlock()
	var entry *world.Resource
	for _, e := range st.OfType(c.account, c.region, "AWS::EC2::NetworkAclEntry") {
		num, _ := world.FieldValue(e, "RuleNumber").(float64)
		eg, _ := world.FieldValue(e, "Egress").(bool)
		if world.FieldString(e, "NetworkAclId") == acl && int(num) == n && eg == egress {
			entry = e
		}
	}
	if entry == nil {
		return nil, errf(400, "InvalidNetworkAclEntry.NotFound", "The network ACL entry identified by %s cannot be found", rule)
	}
	num := func(name string) any {
		v := c.str(name)
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
		return v
	}
	set := map[string]any{"Protocol": num("Protocol"), "RuleAction": c.str("RuleAction")}
	for _, k := range []string{"CidrBlock", "Ipv6CidrBlock"} {
		if v := c.str(k); v != "" {
			set[k] = v
		} else if err := world.RemoveField(entry, k); err != nil {
			return nil, err
		}
	}
	if c.str("PortRange.From") != "" || c.str("PortRange.To") != "" {
		set["PortRange"] = map[string]any{"From": num("PortRange.From"), "To": num("PortRange.To")}
	} else if err := world.RemoveField(entry, "PortRange"); err != nil {
		return nil, err
	}
	if c.str("Icmp.Code") != "" || c.str("Icmp.Type") != "" {
		set["Icmp"] = map[string]any{"Code": num("Icmp.Code"), "Type": num("Icmp.Type")}
	} else if err := world.RemoveField(entry, "Icmp"); err != nil {
		return nil, err
	}
	for _, k := range world.SortedKeys(set) {
		if err := world.SetField(entry, k, set[k]); err != nil {
			return nil, err
		}
	}
	return el("", xbool("return", true)), nil
}
