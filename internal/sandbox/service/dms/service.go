package dms

import (
	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// Service serves AWS DMS (JSON 1.1, PascalCase): DescribeEndpoints,
// DescribeReplicationInstances, DescribeReplicationSubnetGroups and
// DescribeReplicationTasks from the world's AWS::DMS::Endpoint,
// ReplicationInstance, ReplicationSubnetGroup and ReplicationTask models,
// filtered by ARN (endpoint-arn, replication-instance-arn,
// replication-task-arn) or identifier (…-id, case-insensitive as DMS
// lower-cases them) and paged by MaxRecords (20-100) and Marker. An
// endpoint, instance or task is known by its ARN (the physical id when it
// is one, else arn:aws:dms:<region>:<account>:<kind>:<id>); a subnet group
// by its identifier, its ARN ending subgrp:<id>. What the model holds is
// answered in the API's shape — an instance's VpcSecurityGroupIds as
// VpcSecurityGroups memberships and ReplicationSubnetGroupIdentifier as its
// ReplicationSubnetGroup, a subnet group's SubnetIds as Subnets — and never
// an endpoint's Password. A filter that matches nothing is the
// ResourceNotFoundFault DMS answers. ListTagsForResource lists a model's
// Tags by its ARN.
func Service() *wire.Service {
	return wire.JSON("dms", "1.1", "AmazonDMSv20160101.", wire.Ops{
		"DescribeEndpoints":               func(st *world.State, c *wire.Call) (any, error) { return dmsDescribe(st, c, dmsEndpoint) },
		"DescribeReplicationInstances":    func(st *world.State, c *wire.Call) (any, error) { return dmsDescribe(st, c, dmsInstance) },
		"DescribeReplicationSubnetGroups": func(st *world.State, c *wire.Call) (any, error) { return dmsDescribe(st, c, dmsSubnetGroup) },
		"DescribeReplicationTasks":        func(st *world.State, c *wire.Call) (any, error) { return dmsDescribe(st, c, dmsTask) },
		"ListTagsForResource":             wire.Read(dmsListTags),
	}).Denies(400, "AccessDeniedFault")
}
