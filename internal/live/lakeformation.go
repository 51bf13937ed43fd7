package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/lakeformation"
)

// AWS::LakeFormation::Resource (Cloud Control cannot read it) through
// DescribeResource by the declared ResourceArn: {ResourceArn, RoleArn,
// WithFederation, HybridAccessEnabled}. UseServiceLinkedRole (how the
// resource was registered) cannot be read back: a readGap; Lake
// Formation's verification status, owner account and privileged access
// are its own and dropped.

type lakeFormationAPI interface {
	DescribeResource(ctx context.Context, in *lakeformation.DescribeResourceInput, optFns ...func(*lakeformation.Options)) (*lakeformation.DescribeResourceOutput, error)
}

var _ lakeFormationAPI = (*lakeformation.Client)(nil)

// readLakeFormationResource reads AWS::LakeFormation::Resource.
func readLakeFormationResource(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	arn, err := declaredString(r.Declared, "ResourceArn")
	if err != nil {
		return nil, err
	}
	if c.LakeFormation == nil {
		return nil, skip("no Lake Formation client")
	}
	out, err := c.LakeFormation.DescribeResource(ctx, &lakeformation.DescribeResourceInput{ResourceArn: &arn})
	if err != nil {
		return nil, err
	}
	if out.ResourceInfo == nil {
		return nil, fmt.Errorf("lake formation resource %s: %w", arn, ErrNotFound)
	}
	m := sdkModel(*out.ResourceInfo)
	dropKeys(m, "VerificationStatus", "ExpectedResourceOwnerAccount", "WithPrivilegedAccess")
	return m, nil
}
