package live_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestEnumerateTransitGatewayChildren: a gateway's out-of-band VPC
// attachment and route table are added; the declared ones, ones a sibling
// stack owns, the default route table AWS made with the gateway, a
// deleted attachment and another gateway's children are not;
// DescribeTransitGatewayVpcAttachments denied skips the gateway.
func TestEnumerateTransitGatewayChildren(t *testing.T) {
	att := func(id, tgw, state string) *sandbox.Resource {
		return liveOnly("AWS::EC2::TransitGatewayVpcAttachment", id, `{"Id":"`+id+`","TransitGatewayId":"`+tgw+`","VpcId":"vpc-0a1","SubnetIds":["subnet-0a1"],"State":"`+state+`"}`)
	}
	rtb := func(id, tgw string) *sandbox.Resource {
		return liveOnly("AWS::EC2::TransitGatewayRouteTable", id, `{"TransitGatewayRouteTableId":"`+id+`","TransitGatewayId":"`+tgw+`"}`)
	}
	const tgw = "tgw-0c75b1629b5f66059"
	fc := familyCase{
		world: []*sandbox.Resource{
			liveOnly("AWS::EC2::TransitGateway", tgw, `{"Id":"`+tgw+`","AssociationDefaultRouteTableId":"tgw-rtb-0default","DefaultRouteTableAssociation":"enable","DefaultRouteTablePropagation":"enable"}`),
			liveOnly("AWS::EC2::TransitGateway", "tgw-0other", `{"Id":"tgw-0other","DefaultRouteTableAssociation":"disable","DefaultRouteTablePropagation":"disable"}`),
			att("tgw-attach-0declared", tgw, "available"), att("tgw-attach-0console", tgw, "available"), att("tgw-attach-0deleted", tgw, "deleted"),
			att("tgw-attach-0other", "tgw-0other", "available"),
			rtb("tgw-rtb-0declared", tgw), rtb("tgw-rtb-0console", tgw), rtb("tgw-rtb-0other", "tgw-0other"),
		},
		sibling: []*sandbox.Resource{
			owned("SharedAtt", "AWS::EC2::TransitGatewayVpcAttachment", "tgw-attach-0shared", `{"Id":"tgw-attach-0shared","TransitGatewayId":"`+tgw+`","VpcId":"vpc-0b2"}`),
			owned("SharedRtb", "AWS::EC2::TransitGatewayRouteTable", "tgw-rtb-0shared", `{"TransitGatewayRouteTableId":"tgw-rtb-0shared","TransitGatewayId":"`+tgw+`"}`),
		},
		parent: live.StackResource{LogicalID: "Tgw", Type: "AWS::EC2::TransitGateway", PhysicalID: tgw},
		stack: []live.StackResource{
			{LogicalID: "Tgw", Type: "AWS::EC2::TransitGateway", PhysicalID: tgw},
			{LogicalID: "Att", Type: "AWS::EC2::TransitGatewayVpcAttachment", PhysicalID: "tgw-attach-0declared"},
			{LogicalID: "Rtb", Type: "AWS::EC2::TransitGatewayRouteTable", PhysicalID: "tgw-rtb-0declared"},
		},
		want:    []string{"AWS::EC2::TransitGatewayRouteTable tgw-rtb-0console", "AWS::EC2::TransitGatewayVpcAttachment tgw-attach-0console"},
		models:  map[string]map[string]any{"tgw-rtb-0console": {"TransitGatewayRouteTableId": "tgw-rtb-0console", "TransitGatewayId": tgw}},
		service: "ec2", action: "DescribeTransitGatewayVpcAttachments", denied: "EC2 DescribeTransitGatewayVpcAttachments: AccessDenied",
	}
	runFamily(t, fc)
	// The route tables' listing denied skips the gateway too.
	fc.action, fc.denied = "DescribeTransitGatewayRouteTables", "EC2 DescribeTransitGatewayRouteTables: AccessDenied"
	runFamily(t, fc)
}
