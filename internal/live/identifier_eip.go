package live

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
)

// AWS::EC2::EIP's Cloud Control identifier is the pinned schema's
// primaryIdentifier, <PublicIp>|<AllocationId>; CloudFormation's physical
// id is the public IP alone, and the allocation id is an attribute no
// template declares. eipIdentifier takes an identifier that already holds
// both, or a declared AllocationId; otherwise only EC2 knows the
// allocation id: (*Clients).Identifier asks DescribeAddresses for it, and
// Identifier / IdentifierIn, which have no clients, fail closed with that
// reason rather than guess.
func eipIdentifier(pid string, d map[string]any, _ scopeFunc) (string, error) {
	if strings.Count(pid, "|") == 1 {
		return pid, nil
	}
	if _, ok := d["AllocationId"]; ok {
		id, err := declaredString(d, "AllocationId")
		if err != nil {
			return "", err
		}
		return pid + "|" + id, nil
	}
	return "", skip("the Cloud Control identifier of AWS::EC2::EIP " + pid + " is <PublicIp>|<AllocationId>, and the allocation id is known only to EC2 DescribeAddresses")
}

// lookupIdentifiers are the adapters that may need an API call: tried
// after the type's identifierAdapters entry fails.
func lookupIdentifiers() map[string]func(ctx context.Context, c *Clients, r Request) (string, error) {
	return map[string]func(ctx context.Context, c *Clients, r Request) (string, error){
		"AWS::EC2::EIP": eipAllocationIdentifier,
	}
}

// eipAllocationIdentifier asks DescribeAddresses for the address's
// allocation id.
func eipAllocationIdentifier(ctx context.Context, c *Clients, r Request) (string, error) {
	if c.EC2 == nil {
		return "", skip("no EC2 client to ask the allocation id of " + r.PhysicalID)
	}
	out, err := c.EC2.DescribeAddresses(ctx, &ec2.DescribeAddressesInput{PublicIps: []string{r.PhysicalID}})
	if err != nil {
		return "", err
	}
	for _, a := range out.Addresses {
		if aws.ToString(a.PublicIp) == r.PhysicalID && aws.ToString(a.AllocationId) != "" {
			return r.PhysicalID + "|" + *a.AllocationId, nil
		}
	}
	return "", fmt.Errorf("address %s: %w", r.PhysicalID, ErrNotFound)
}

// Identifier returns the Cloud Control identifier of a resource of the
// clients' account and region, asking the service for the parts no
// template holds (an EIP's allocation id) when the physical id and the
// declared properties do not name them.
func (c *Clients) Identifier(ctx context.Context, typeName, physicalID string, declared map[string]any) (string, error) {
	r := Request{Type: typeName, PhysicalID: physicalID, Declared: declared}
	id, err := identifier(r, c.scope(ctx))
	if err == nil || isWaiting(err) {
		return id, err
	}
	if l, ok := lookupIdentifiers()[typeName]; ok {
		return l(ctx, c, r)
	}
	return id, err
}
