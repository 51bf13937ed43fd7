package rds

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves the RDS query API (signing name rds, the one DocDB's
// SDK client speaks) for DocumentDB: DescribeDBClusters and
// DescribeDBInstances from the world's AWS::DocDB::DBCluster and DBInstance
// models (by identifier, else their identifier property, matched without
// regard to case as RDS does), answering what the model holds in the API's
// shape — DBClusterParameterGroupName as DBClusterParameterGroup,
// DBSubnetGroupName as DBSubnetGroup, VpcSecurityGroupIds as
// <VpcSecurityGroupMembership>s, EnableCloudwatchLogsExports as
// EnabledCloudwatchLogsExports, EnablePerformanceInsights as
// PerformanceInsightsEnabled; a master password is never answered.
// ListTagsForResource lists a model's Tags by its ARN (cluster:<id>,
// db:<id>). DescribeDBInstances also answers the world's
// AWS::RDS::DBInstance models (the RDS API is the same one; Engine is the
// model's), and takes the Filters db-cluster-id, db-instance-id and engine
// (another filter name is InvalidParameterValue). Pages are MaxRecords
// (20-100) and Marker; a missing cluster is DBClusterNotFoundFault, a
// missing instance DBInstanceNotFound (404).
func Service() *wire.Service {
	return wire.Query("rds", "http://rds.amazonaws.com/doc/2014-10-31/", wire.Ops{
		"DescribeDBClusters":  docDBDescribeClusters,
		"DescribeDBInstances": docDBDescribeInstances,
		"ListTagsForResource": docDBListTags,
	})
}
