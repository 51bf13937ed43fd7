package dax

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves DAX (JSON 1.1, PascalCase): clusters, subnet groups
// and parameter groups from the world's AWS::DAX::Cluster, SubnetGroup and
// ParameterGroup models (by identifier, else their name property),
// answering what the model holds in the API's shape: a cluster's
// IAMRoleARN as IamRoleArn, SubnetGroupName as SubnetGroup, its
// SecurityGroupIds as SecurityGroups memberships, ParameterGroupName as
// its ParameterGroup status, ReplicationFactor as TotalNodes,
// NotificationTopicARN as NotificationConfiguration and SSESpecification
// as SSEDescription; its Tags map is what ListTags lists by the cluster's
// ARN. A parameter group's ParameterNameValues are its parameters of
// source "user". Asked by names, one that does not exist is the
// ...NotFoundFault DAX answers.
func Service() *wire.Service {
	return wire.JSON("dax", "1.1", "AmazonDAXV3.", wire.Ops{
		"DescribeClusters":        wire.Read(daxDescribeClusters),
		"DescribeSubnetGroups":    wire.Read(daxDescribeSubnetGroups),
		"DescribeParameterGroups": wire.Read(daxDescribeParameterGroups),
		"DescribeParameters":      wire.Read(daxDescribeParameters),
		"ListTags":                wire.Read(daxListTags),
	})
}
