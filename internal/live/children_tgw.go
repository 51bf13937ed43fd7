package live

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	ec2types "github.com/aws/aws-sdk-go-v2/service/ec2/types"
)

// The transit gateway family's children: the out-of-band VPC attachments
// and route tables of a declared AWS::EC2::TransitGateway, listed by
// DescribeTransitGatewayVpcAttachments and DescribeTransitGatewayRouteTables
// with the transit-gateway-id filter (paged by NextToken). Each child's
// physical id is its Cloud Control identifier (tgw-attach-..., tgw-rtb-...)
// and is read in full through Cloud Control.

type transitGatewayAPI interface {
	ec2.DescribeTransitGatewayVpcAttachmentsAPIClient
	ec2.DescribeTransitGatewayRouteTablesAPIClient
}

var _ transitGatewayAPI = (*ec2.Client)(nil)

// tgwGone are the states of an attachment or route table that is gone or
// going: never an added resource.
var tgwGone = map[string]bool{"deleting": true, "deleted": true, "failed": true, "failing": true, "rejected": true, "rejecting": true}

func tgwFilter(tgw string) []ec2types.Filter {
	return []ec2types.Filter{{Name: aws.String("transit-gateway-id"), Values: []string{tgw}}}
}

// gatewayAttachments lists a declared transit gateway's VPC attachments the
// stack does not declare (AWS::EC2::TransitGatewayVpcAttachment, or the
// older AWS::EC2::TransitGatewayAttachment, whose physical id is the same
// attachment id).
func gatewayAttachments(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.EC2 == nil {
		return nil, skip("no EC2 client")
	}
	declared := declaredIDs(stack, "AWS::EC2::TransitGatewayVpcAttachment")
	for id := range declaredIDs(stack, "AWS::EC2::TransitGatewayAttachment") {
		declared[id] = true
	}
	var out []candidate
	p := ec2.NewDescribeTransitGatewayVpcAttachmentsPaginator(c.EC2, &ec2.DescribeTransitGatewayVpcAttachmentsInput{Filters: tgwFilter(parent.PhysicalID)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, a := range page.TransitGatewayVpcAttachments {
			id := aws.ToString(a.TransitGatewayAttachmentId)
			if id == "" || declared[id] || tgwGone[string(a.State)] {
				continue
			}
			out = append(out, candidate{typ: "AWS::EC2::TransitGatewayVpcAttachment", id: id})
		}
	}
	return out, nil
}

// gatewayRouteTables lists a declared transit gateway's route tables the
// stack does not declare. The default association and propagation route
// table AWS creates with the gateway (flagged DefaultAssociationRouteTable
// or DefaultPropagationRouteTable, or named by the gateway's declared
// AssociationDefaultRouteTableId / PropagationDefaultRouteTableId) is
// AWS-made and never added.
func gatewayRouteTables(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.EC2 == nil {
		return nil, skip("no EC2 client")
	}
	declared := declaredIDs(stack, "AWS::EC2::TransitGatewayRouteTable")
	for _, prop := range []string{"AssociationDefaultRouteTableId", "PropagationDefaultRouteTableId"} {
		if _, ok := parent.Declared[prop]; ok {
			id, err := declaredString(parent.Declared, prop)
			if err != nil {
				return nil, err
			}
			declared[id] = true
		}
	}
	var out []candidate
	p := ec2.NewDescribeTransitGatewayRouteTablesPaginator(c.EC2, &ec2.DescribeTransitGatewayRouteTablesInput{Filters: tgwFilter(parent.PhysicalID)})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, t := range page.TransitGatewayRouteTables {
			id := aws.ToString(t.TransitGatewayRouteTableId)
			if id == "" || declared[id] || tgwGone[string(t.State)] || aws.ToBool(t.DefaultAssociationRouteTable) || aws.ToBool(t.DefaultPropagationRouteTable) {
				continue
			}
			out = append(out, candidate{typ: "AWS::EC2::TransitGatewayRouteTable", id: id})
		}
	}
	return out, nil
}
