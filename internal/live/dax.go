package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dax"
)

// The DAX family (Cloud Control cannot read it): AWS::DAX::Cluster through
// DescribeClusters and ListTags, AWS::DAX::SubnetGroup through
// DescribeSubnetGroups and AWS::DAX::ParameterGroup through
// DescribeParameterGroups and DescribeParameters, each by its name (the
// physical id), in the template's shape: a cluster's role, subnet group,
// parameter group, security groups, notification topic and encryption
// under the template's names, its tags as the template's map. A cluster's
// ReplicationFactor is not read (its node count moves while DAX scales it:
// a readGap), nor are the clusters' AvailabilityZones.

type daxAPI interface {
	DescribeClusters(ctx context.Context, in *dax.DescribeClustersInput, optFns ...func(*dax.Options)) (*dax.DescribeClustersOutput, error)
	DescribeSubnetGroups(ctx context.Context, in *dax.DescribeSubnetGroupsInput, optFns ...func(*dax.Options)) (*dax.DescribeSubnetGroupsOutput, error)
	DescribeParameterGroups(ctx context.Context, in *dax.DescribeParameterGroupsInput, optFns ...func(*dax.Options)) (*dax.DescribeParameterGroupsOutput, error)
	DescribeParameters(ctx context.Context, in *dax.DescribeParametersInput, optFns ...func(*dax.Options)) (*dax.DescribeParametersOutput, error)
	ListTags(ctx context.Context, in *dax.ListTagsInput, optFns ...func(*dax.Options)) (*dax.ListTagsOutput, error)
}

var _ daxAPI = (*dax.Client)(nil)

// readDAXCluster reads AWS::DAX::Cluster.
func readDAXCluster(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.DAX == nil {
		return nil, skip("no DAX client")
	}
	out, err := c.DAX.DescribeClusters(ctx, &dax.DescribeClustersInput{ClusterNames: []string{r.PhysicalID}})
	if err != nil {
		return nil, err
	}
	for _, cl := range out.Clusters {
		if aws.ToString(cl.ClusterName) != r.PhysicalID {
			continue
		}
		m := map[string]any{"ClusterName": r.PhysicalID}
		for k, v := range map[string]*string{"NodeType": cl.NodeType, "IAMRoleARN": cl.IamRoleArn, "PreferredMaintenanceWindow": cl.PreferredMaintenanceWindow,
			"SubnetGroupName": cl.SubnetGroup, "Description": cl.Description} {
			if aws.ToString(v) != "" {
				m[k] = *v
			}
		}
		if cl.ClusterEndpointEncryptionType != "" {
			m["ClusterEndpointEncryptionType"] = string(cl.ClusterEndpointEncryptionType)
		}
		if cl.NetworkType != "" {
			m["NetworkType"] = string(cl.NetworkType)
		}
		if cl.SecurityGroups != nil {
			ids := []any{}
			for _, g := range cl.SecurityGroups {
				ids = append(ids, aws.ToString(g.SecurityGroupIdentifier))
			}
			m["SecurityGroupIds"] = ids
		}
		if p := cl.ParameterGroup; p != nil && aws.ToString(p.ParameterGroupName) != "" {
			m["ParameterGroupName"] = *p.ParameterGroupName
		}
		if n := cl.NotificationConfiguration; n != nil && aws.ToString(n.TopicArn) != "" {
			m["NotificationTopicARN"] = *n.TopicArn
		}
		if s := cl.SSEDescription; s != nil && s.Status != "" {
			m["SSESpecification"] = map[string]any{"SSEEnabled": s.Status == "ENABLED" || s.Status == "ENABLING"}
		}
		arn := aws.ToString(cl.ClusterArn)
		if arn == "" {
			return nil, skip("DAX DescribeClusters answered no ARN: the tags cannot be read")
		}
		tags := map[string]any{}
		var token *string
		for {
			t, err := c.DAX.ListTags(ctx, &dax.ListTagsInput{ResourceName: &arn, NextToken: token})
			if err != nil {
				return nil, err
			}
			for _, tg := range t.Tags {
				tags[aws.ToString(tg.Key)] = aws.ToString(tg.Value)
			}
			if aws.ToString(t.NextToken) == "" {
				break
			}
			token = t.NextToken
		}
		if len(tags) > 0 {
			m["Tags"] = tags
		}
		return m, nil
	}
	return nil, fmt.Errorf("DAX cluster %s: %w", r.PhysicalID, ErrNotFound)
}

// readDAXSubnetGroup reads AWS::DAX::SubnetGroup: {SubnetGroupName,
// Description, SubnetIds}.
func readDAXSubnetGroup(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.DAX == nil {
		return nil, skip("no DAX client")
	}
	out, err := c.DAX.DescribeSubnetGroups(ctx, &dax.DescribeSubnetGroupsInput{SubnetGroupNames: []string{r.PhysicalID}})
	if err != nil {
		return nil, err
	}
	for _, g := range out.SubnetGroups {
		if aws.ToString(g.SubnetGroupName) != r.PhysicalID {
			continue
		}
		m := map[string]any{"SubnetGroupName": r.PhysicalID}
		if d := aws.ToString(g.Description); d != "" {
			m["Description"] = d
		}
		ids := []any{}
		for _, s := range g.Subnets {
			ids = append(ids, aws.ToString(s.SubnetIdentifier))
		}
		m["SubnetIds"] = ids
		return m, nil
	}
	return nil, fmt.Errorf("DAX subnet group %s: %w", r.PhysicalID, ErrNotFound)
}

// readDAXParameterGroup reads AWS::DAX::ParameterGroup: {ParameterGroupName,
// Description, ParameterNameValues}, the values of the parameters of source
// "user" (every page).
func readDAXParameterGroup(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.DAX == nil {
		return nil, skip("no DAX client")
	}
	out, err := c.DAX.DescribeParameterGroups(ctx, &dax.DescribeParameterGroupsInput{ParameterGroupNames: []string{r.PhysicalID}})
	if err != nil {
		return nil, err
	}
	var m map[string]any
	for _, g := range out.ParameterGroups {
		if aws.ToString(g.ParameterGroupName) == r.PhysicalID {
			m = map[string]any{"ParameterGroupName": r.PhysicalID}
			if d := aws.ToString(g.Description); d != "" {
				m["Description"] = d
			}
		}
	}
	if m == nil {
		return nil, fmt.Errorf("DAX parameter group %s: %w", r.PhysicalID, ErrNotFound)
	}
	values := map[string]any{}
	var token *string
	for {
		p, err := c.DAX.DescribeParameters(ctx, &dax.DescribeParametersInput{ParameterGroupName: &r.PhysicalID, Source: aws.String("user"), NextToken: token})
		if err != nil {
			return nil, err
		}
		for _, prm := range p.Parameters {
			if prm.ParameterValue != nil {
				values[aws.ToString(prm.ParameterName)] = *prm.ParameterValue
			}
		}
		if aws.ToString(p.NextToken) == "" {
			break
		}
		token = p.NextToken
	}
	if len(values) > 0 {
		m["ParameterNameValues"] = values
	}
	return m, nil
}
