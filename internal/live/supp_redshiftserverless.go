package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	rss "github.com/aws/aws-sdk-go-v2/service/redshiftserverless"
)

// AWS::RedshiftServerless::Workgroup: ConfigParameters, SecurityGroupIds
// and SubnetIds are write-only in the registry schema. GetWorkgroup
// (WorkgroupName) answers all three: the parameters as {ParameterKey,
// ParameterValue} (the resolved set, about nine, of which a template
// declares one or two: the classifier folds them as a ParameterKey-keyed
// subset), the security groups and subnets as id lists (compared as
// sets).

type redshiftServerlessAPI interface {
	GetWorkgroup(ctx context.Context, in *rss.GetWorkgroupInput, optFns ...func(*rss.Options)) (*rss.GetWorkgroupOutput, error)
}

var _ redshiftServerlessAPI = (*rss.Client)(nil)

var rsWorkgroupProps = []string{"ConfigParameters", "SecurityGroupIds", "SubnetIds"}

// readRSWorkgroupSupplement reads the workgroup's parameters and network
// (physical id: the workgroup name).
func readRSWorkgroupSupplement(ctx context.Context, c *Clients, r Request, _ map[string]any) (map[string]any, error) {
	if c.RedshiftServerless == nil {
		return nil, skip("no Redshift Serverless client")
	}
	out, err := c.RedshiftServerless.GetWorkgroup(ctx, &rss.GetWorkgroupInput{WorkgroupName: aws.String(r.PhysicalID)})
	if err != nil {
		return nil, err
	}
	w := out.Workgroup
	if w == nil {
		return nil, fmt.Errorf("Redshift Serverless workgroup %s: %w", r.PhysicalID, ErrNotFound)
	}
	add := map[string]any{}
	if len(w.ConfigParameters) > 0 {
		ps := make([]any, 0, len(w.ConfigParameters))
		for _, p := range w.ConfigParameters {
			e := map[string]any{}
			if p.ParameterKey != nil {
				e["ParameterKey"] = *p.ParameterKey
			}
			if p.ParameterValue != nil {
				e["ParameterValue"] = *p.ParameterValue
			}
			ps = append(ps, e)
		}
		add["ConfigParameters"] = ps
	}
	if len(w.SecurityGroupIds) > 0 {
		add["SecurityGroupIds"] = strList(w.SecurityGroupIds)
	}
	if len(w.SubnetIds) > 0 {
		add["SubnetIds"] = strList(w.SubnetIds)
	}
	return add, nil
}
