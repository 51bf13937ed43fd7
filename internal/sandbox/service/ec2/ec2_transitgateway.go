package ec2

import "github.com/realdrift/realdrift/internal/sandbox/wire"
import "github.com/realdrift/realdrift/internal/sandbox/world"
import "strings"

// Transit gateway children (EC2 query protocol):
// DescribeTransitGatewayVpcAttachments lists the world's
// AWS::EC2::TransitGatewayVpcAttachment models (Id, else the identifier;
// TransitGatewayId, VpcId, SubnetIds, State, default available) and
// DescribeTransitGatewayRouteTables the AWS::EC2::TransitGatewayRouteTable
// models (TransitGatewayRouteTableId, else the identifier; TransitGatewayId,
// State) plus the default route table AWS creates with each
// AWS::EC2::TransitGateway whose DefaultRouteTableAssociation or
// DefaultRouteTablePropagation is not "disable": its id is the gateway
// model's AssociationDefaultRouteTableId (else one derived from the
// gateway id), flagged defaultAssociationRouteTable and
// defaultPropagationRouteTable as the gateway's options say. Both take ids
// and the filters transit-gateway-id, state and the table's or
// attachment's id (route tables also default-association-route-table and
// default-propagation-route-table), and page by MaxResults (5-1000) and
// NextToken.

func ec2DescribeTransitGatewayVpcAttachments(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	var objs []ec2Object
	for _, r := range st.OfType(c.Account, c.Region, "AWS::EC2::TransitGatewayVpcAttachment") {
		id := world.FieldString(r, "Id")
		if id == "" {
			id = r.CCID()
		}
		tgw, vpc, state := world.FieldString(r, "TransitGatewayId"), world.FieldString(r, "VpcId"), world.FieldString(r, "State")
		if state == "" {
			state = "available"
		}
		var subnets []*wire.Node
		for _, sn := range world.FieldStrings(r, "SubnetIds") {
			subnets = append(subnets, wire.Tx("", sn))
		}
		node := wire.El("", wire.Tx("transitGatewayAttachmentId", id), wire.Tx("transitGatewayId", tgw), wire.Tx("vpcId", vpc), wire.Tx("vpcOwnerId", c.Account),
			wire.Tx("state", state), items("subnetIds", subnets), tagSet(r))
		objs = append(objs, ec2Object{id: id, node: node, values: map[string][]string{
			"transit-gateway-attachment-id": {id}, "transit-gateway-id": {tgw}, "vpc-id": {vpc}, "state": {state}}})
	}
	return ec2Describe(c, "transitGatewayVpcAttachments", "TransitGatewayAttachmentIds", "InvalidTransitGatewayAttachmentID.NotFound", "transit gateway attachment",
		map[string]bool{"transit-gateway-attachment-id": true, "transit-gateway-id": true, "vpc-id": true, "state": true}, objs)
}

func ec2DescribeTransitGatewayRouteTables(st *world.State, c *wire.Call) (any, error) {
	st.RLock()
	defer st.RUnlock()
	var objs []ec2Object
	seen := map[string]bool{}
	add := func(id, tgw, state string, assoc, prop bool, tags *wire.Node) {
		seen[id] = true
		node := wire.El("", wire.Tx("transitGatewayRouteTableId", id), wire.Tx("transitGatewayId", tgw), wire.Tx("state", state),
			wire.Tx("defaultAssociationRouteTable", boolText(assoc)), wire.Tx("defaultPropagationRouteTable", boolText(prop)), tags)
		objs = append(objs, ec2Object{id: id, node: node, values: map[string][]string{
			"transit-gateway-route-table-id": {id}, "transit-gateway-id": {tgw}, "state": {state},
			"default-association-route-table": {boolText(assoc)}, "default-propagation-route-table": {boolText(prop)}}})
	}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::EC2::TransitGatewayRouteTable") {
		id := world.FieldString(r, "TransitGatewayRouteTableId")
		if id == "" {
			id = r.CCID()
		}
		state := world.FieldString(r, "State")
		if state == "" {
			state = "available"
		}
		add(id, world.FieldString(r, "TransitGatewayId"), state, false, false, tagSet(r))
	}
	for _, g := range st.OfType(c.Account, c.Region, "AWS::EC2::TransitGateway") {
		tgw := world.FieldString(g, "Id")
		if tgw == "" {
			tgw = g.CCID()
		}
		assoc := !strings.EqualFold(world.FieldString(g, "DefaultRouteTableAssociation"), "disable")
		prop := !strings.EqualFold(world.FieldString(g, "DefaultRouteTablePropagation"), "disable")
		if !assoc && !prop {
			continue
		}
		id := world.FieldString(g, "AssociationDefaultRouteTableId")
		if id == "" {
			id = world.FieldString(g, "PropagationDefaultRouteTableId")
		}
		if id == "" {
			id = derivedID("tgw-rtb", tgw)
		}
		if !seen[id] {
			add(id, tgw, "available", assoc, prop, items("tagSet", nil))
		}
	}
	return ec2Describe(c, "transitGatewayRouteTables", "TransitGatewayRouteTableIds", "InvalidRouteTableID.NotFound", "transit gateway route table",
		map[string]bool{"transit-gateway-route-table-id": true, "transit-gateway-id": true, "state": true,
			"default-association-route-table": true, "default-propagation-route-table": true}, objs)
}

func boolText(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
