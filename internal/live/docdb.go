package live

import (
	"context"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/docdb"
)

// The DocumentDB family (Cloud Control cannot read it in full):
// AWS::DocDB::DBCluster through DescribeDBClusters and AWS::DocDB::DBInstance
// through DescribeDBInstances, each by its identifier (the physical id),
// and ListTagsForResource by the ARN the answer names; tags that cannot be
// read skip the read rather than look removed. The projection is the
// template's: the API's DBClusterParameterGroup, DBSubnetGroup,
// VpcSecurityGroups, EnabledCloudwatchLogsExports and
// PerformanceInsightsEnabled under the template's names, tags as its
// Key/Value list. Never read: MasterUserPassword (the API does not answer
// it, and it is a secret), a cluster's AvailabilityZones and an instance's
// AvailabilityZone unless declared (AWS picks them), and what the API does
// not answer at all (CopyTagsToSnapshot of a cluster, restore and snapshot
// inputs, certificate rotation): readGaps.

type docDBAPI interface {
	DescribeDBClusters(ctx context.Context, in *docdb.DescribeDBClustersInput, optFns ...func(*docdb.Options)) (*docdb.DescribeDBClustersOutput, error)
	DescribeDBInstances(ctx context.Context, in *docdb.DescribeDBInstancesInput, optFns ...func(*docdb.Options)) (*docdb.DescribeDBInstancesOutput, error)
	ListTagsForResource(ctx context.Context, in *docdb.ListTagsForResourceInput, optFns ...func(*docdb.Options)) (*docdb.ListTagsForResourceOutput, error)
}

var _ docDBAPI = (*docdb.Client)(nil)

// docDBClusterProps and docDBInstanceProps are the API fields read, each
// under its template name.
var (
	docDBClusterProps = map[string]string{
		"DBClusterIdentifier": "DBClusterIdentifier", "BackupRetentionPeriod": "BackupRetentionPeriod", "Port": "Port",
		"EngineVersion": "EngineVersion", "MasterUsername": "MasterUsername", "PreferredBackupWindow": "PreferredBackupWindow",
		"PreferredMaintenanceWindow": "PreferredMaintenanceWindow", "StorageEncrypted": "StorageEncrypted", "KmsKeyId": "KmsKeyId",
		"DeletionProtection": "DeletionProtection", "DBClusterParameterGroup": "DBClusterParameterGroupName",
		"DBSubnetGroup": "DBSubnetGroupName", "EnabledCloudwatchLogsExports": "EnableCloudwatchLogsExports",
		"StorageType": "StorageType", "NetworkType": "NetworkType", "ServerlessV2ScalingConfiguration": "ServerlessV2ScalingConfiguration",
	}
	docDBInstanceProps = map[string]string{
		"DBInstanceIdentifier": "DBInstanceIdentifier", "DBInstanceClass": "DBInstanceClass", "DBClusterIdentifier": "DBClusterIdentifier",
		"AutoMinorVersionUpgrade": "AutoMinorVersionUpgrade", "PreferredMaintenanceWindow": "PreferredMaintenanceWindow",
		"CACertificateIdentifier": "CACertificateIdentifier", "PerformanceInsightsEnabled": "EnablePerformanceInsights",
		"AvailabilityZone": "AvailabilityZone",
	}
)

// pickKeys keeps the keys of m named in props, under their new names.
func pickKeys(m map[string]any, props map[string]string) map[string]any {
	out := map[string]any{}
	for from, to := range props {
		if v, ok := m[from]; ok {
			out[to] = v
		}
	}
	return out
}

// readDocDBCluster reads AWS::DocDB::DBCluster.
func readDocDBCluster(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.DocDB == nil {
		return nil, skip("no DocDB client")
	}
	out, err := c.DocDB.DescribeDBClusters(ctx, &docdb.DescribeDBClustersInput{DBClusterIdentifier: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	for _, cl := range out.DBClusters {
		if !strings.EqualFold(aws.ToString(cl.DBClusterIdentifier), r.PhysicalID) {
			continue
		}
		m := pickKeys(sdkModel(cl), docDBClusterProps)
		if cl.VpcSecurityGroups != nil {
			ids := []any{}
			for _, g := range cl.VpcSecurityGroups {
				ids = append(ids, aws.ToString(g.VpcSecurityGroupId))
			}
			m["VpcSecurityGroupIds"] = ids
		}
		if l, ok := m["EnableCloudwatchLogsExports"].([]any); ok && len(l) == 0 {
			delete(m, "EnableCloudwatchLogsExports")
		}
		return docDBTags(ctx, c, m, aws.ToString(cl.DBClusterArn))
	}
	return nil, fmt.Errorf("DocDB cluster %s: %w", r.PhysicalID, ErrNotFound)
}

// readDocDBInstance reads AWS::DocDB::DBInstance.
func readDocDBInstance(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.DocDB == nil {
		return nil, skip("no DocDB client")
	}
	out, err := c.DocDB.DescribeDBInstances(ctx, &docdb.DescribeDBInstancesInput{DBInstanceIdentifier: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	for _, in := range out.DBInstances {
		if !strings.EqualFold(aws.ToString(in.DBInstanceIdentifier), r.PhysicalID) {
			continue
		}
		m := pickKeys(sdkModel(in), docDBInstanceProps)
		if _, declared := r.Declared["AvailabilityZone"]; !declared {
			delete(m, "AvailabilityZone")
		}
		return docDBTags(ctx, c, m, aws.ToString(in.DBInstanceArn))
	}
	return nil, fmt.Errorf("DocDB instance %s: %w", r.PhysicalID, ErrNotFound)
}

// docDBTags adds the resource's tags (the template's Key/Value list) to m.
func docDBTags(ctx context.Context, c *Clients, m map[string]any, arn string) (map[string]any, error) {
	if arn == "" {
		return nil, skip("DocDB answered no ARN: the tags cannot be read")
	}
	t, err := c.DocDB.ListTagsForResource(ctx, &docdb.ListTagsForResourceInput{ResourceName: &arn})
	if err != nil {
		return nil, err
	}
	if len(t.TagList) > 0 {
		tags := []any{}
		for _, tg := range t.TagList {
			tags = append(tags, map[string]any{"Key": aws.ToString(tg.Key), "Value": aws.ToString(tg.Value)})
		}
		m["Tags"] = tags
	}
	return m, nil
}
