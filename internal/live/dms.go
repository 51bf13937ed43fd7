package live

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	dms "github.com/aws/aws-sdk-go-v2/service/databasemigrationservice"
	dmstypes "github.com/aws/aws-sdk-go-v2/service/databasemigrationservice/types"
)

// The DMS family (Cloud Control cannot read it): AWS::DMS::Endpoint,
// ReplicationInstance and ReplicationTask by their ARN (the physical id)
// through DescribeEndpoints, DescribeReplicationInstances and
// DescribeReplicationTasks filtered by it, AWS::DMS::ReplicationSubnetGroup
// by its identifier through DescribeReplicationSubnetGroups; tags through
// ListTagsForResource (the template's Key/Value list; tags that cannot be
// read skip the read). Every call follows Marker. In the template's shape:
// an instance's VpcSecurityGroups as VpcSecurityGroupIds and its subnet
// group as ReplicationSubnetGroupIdentifier, a subnet group's Subnets as
// SubnetIds; a task's TableMappings and ReplicationTaskSettings are JSON
// text in both, so the declared text stands when it parses to the same
// JSON as the answer. Never read: an endpoint's Password and the engine
// settings objects (MySqlSettings, S3Settings, …, which hold secrets and
// are answered only in part) — readGaps; an instance's
// AllowMajorVersionUpgrade (not answered).

type dmsAPI interface {
	DescribeEndpoints(ctx context.Context, in *dms.DescribeEndpointsInput, optFns ...func(*dms.Options)) (*dms.DescribeEndpointsOutput, error)
	DescribeReplicationInstances(ctx context.Context, in *dms.DescribeReplicationInstancesInput, optFns ...func(*dms.Options)) (*dms.DescribeReplicationInstancesOutput, error)
	DescribeReplicationSubnetGroups(ctx context.Context, in *dms.DescribeReplicationSubnetGroupsInput, optFns ...func(*dms.Options)) (*dms.DescribeReplicationSubnetGroupsOutput, error)
	DescribeReplicationTasks(ctx context.Context, in *dms.DescribeReplicationTasksInput, optFns ...func(*dms.Options)) (*dms.DescribeReplicationTasksOutput, error)
	ListTagsForResource(ctx context.Context, in *dms.ListTagsForResourceInput, optFns ...func(*dms.Options)) (*dms.ListTagsForResourceOutput, error)
}

var _ dmsAPI = (*dms.Client)(nil)

// The API fields each DMS type reads, under their template names.
var (
	dmsEndpointProps = fieldsAs("EndpointIdentifier", "EndpointType", "EngineName", "Username", "ServerName", "Port", "DatabaseName",
		"ExtraConnectionAttributes", "KmsKeyId", "CertificateArn", "SslMode")
	dmsInstanceProps = fieldsAs("ReplicationInstanceIdentifier", "ReplicationInstanceClass", "AllocatedStorage", "AutoMinorVersionUpgrade",
		"AvailabilityZone", "EngineVersion", "KmsKeyId", "MultiAZ", "NetworkType", "PreferredMaintenanceWindow", "PubliclyAccessible", "DnsNameServers")
	dmsSubnetGroupProps = fieldsAs("ReplicationSubnetGroupIdentifier", "ReplicationSubnetGroupDescription")
	dmsTaskProps        = fieldsAs("ReplicationTaskIdentifier", "SourceEndpointArn", "TargetEndpointArn", "ReplicationInstanceArn", "MigrationType",
		"TableMappings", "ReplicationTaskSettings", "CdcStartPosition", "CdcStopPosition", "TaskData")
)

// fieldsAs is a pickKeys table of fields read under their own names.
func fieldsAs(names ...string) map[string]string {
	m := make(map[string]string, len(names))
	for _, n := range names {
		m[n] = n
	}
	return m
}

func dmsFilter(name, value string) []dmstypes.Filter {
	return []dmstypes.Filter{{Name: aws.String(name), Values: []string{value}}}
}

// readDMSEndpoint reads AWS::DMS::Endpoint.
func readDMSEndpoint(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.DMS == nil {
		return nil, skip("no DMS client")
	}
	in := &dms.DescribeEndpointsInput{Filters: dmsFilter("endpoint-arn", r.PhysicalID)}
	for {
		out, err := c.DMS.DescribeEndpoints(ctx, in)
		if err != nil {
			return nil, err
		}
		for _, e := range out.Endpoints {
			if aws.ToString(e.EndpointArn) == r.PhysicalID {
				return dmsTags(ctx, c, pickKeys(sdkModel(e), dmsEndpointProps), r.PhysicalID)
			}
		}
		if aws.ToString(out.Marker) == "" {
			return nil, fmt.Errorf("DMS endpoint %s: %w", r.PhysicalID, ErrNotFound)
		}
		in.Marker = out.Marker
	}
}

// readDMSReplicationInstance reads AWS::DMS::ReplicationInstance.
func readDMSReplicationInstance(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.DMS == nil {
		return nil, skip("no DMS client")
	}
	in := &dms.DescribeReplicationInstancesInput{Filters: dmsFilter("replication-instance-arn", r.PhysicalID)}
	for {
		out, err := c.DMS.DescribeReplicationInstances(ctx, in)
		if err != nil {
			return nil, err
		}
		for _, ri := range out.ReplicationInstances {
			if aws.ToString(ri.ReplicationInstanceArn) != r.PhysicalID {
				continue
			}
			m := pickKeys(sdkModel(ri), dmsInstanceProps)
			if ri.VpcSecurityGroups != nil {
				ids := []any{}
				for _, g := range ri.VpcSecurityGroups {
					ids = append(ids, aws.ToString(g.VpcSecurityGroupId))
				}
				m["VpcSecurityGroupIds"] = ids
			}
			if g := ri.ReplicationSubnetGroup; g != nil && aws.ToString(g.ReplicationSubnetGroupIdentifier) != "" {
				m["ReplicationSubnetGroupIdentifier"] = *g.ReplicationSubnetGroupIdentifier
			}
			return dmsTags(ctx, c, m, r.PhysicalID)
		}
		if aws.ToString(out.Marker) == "" {
			return nil, fmt.Errorf("DMS replication instance %s: %w", r.PhysicalID, ErrNotFound)
		}
		in.Marker = out.Marker
	}
}

// readDMSReplicationSubnetGroup reads AWS::DMS::ReplicationSubnetGroup; its
// tags are asked by the ARN DMS gives subnet groups (subgrp:<id>).
func readDMSReplicationSubnetGroup(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.DMS == nil {
		return nil, skip("no DMS client")
	}
	in := &dms.DescribeReplicationSubnetGroupsInput{Filters: dmsFilter("replication-subnet-group-id", r.PhysicalID)}
	for {
		out, err := c.DMS.DescribeReplicationSubnetGroups(ctx, in)
		if err != nil {
			return nil, err
		}
		for _, g := range out.ReplicationSubnetGroups {
			id := aws.ToString(g.ReplicationSubnetGroupIdentifier)
			if !strings.EqualFold(id, r.PhysicalID) {
				continue
			}
			m := pickKeys(sdkModel(g), dmsSubnetGroupProps)
			ids := []any{}
			for _, s := range g.Subnets {
				ids = append(ids, aws.ToString(s.SubnetIdentifier))
			}
			m["SubnetIds"] = ids
			sc, err := c.scope(ctx)()
			if err != nil {
				return nil, err
			}
			return dmsTags(ctx, c, m, "arn:"+sc.Partition+":dms:"+sc.Region+":"+sc.Account+":subgrp:"+id)
		}
		if aws.ToString(out.Marker) == "" {
			return nil, fmt.Errorf("DMS replication subnet group %s: %w", r.PhysicalID, ErrNotFound)
		}
		in.Marker = out.Marker
	}
}

// readDMSReplicationTask reads AWS::DMS::ReplicationTask.
func readDMSReplicationTask(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.DMS == nil {
		return nil, skip("no DMS client")
	}
	in := &dms.DescribeReplicationTasksInput{Filters: dmsFilter("replication-task-arn", r.PhysicalID), WithoutSettings: aws.Bool(false)}
	for {
		out, err := c.DMS.DescribeReplicationTasks(ctx, in)
		if err != nil {
			return nil, err
		}
		for _, t := range out.ReplicationTasks {
			if aws.ToString(t.ReplicationTaskArn) != r.PhysicalID {
				continue
			}
			m := pickKeys(sdkModel(t), dmsTaskProps)
			for _, p := range []string{"TableMappings", "ReplicationTaskSettings"} {
				if live, ok := m[p].(string); ok {
					m[p] = sameJSONText(live, r.Declared[p])
				}
			}
			return dmsTags(ctx, c, m, r.PhysicalID)
		}
		if aws.ToString(out.Marker) == "" {
			return nil, fmt.Errorf("DMS replication task %s: %w", r.PhysicalID, ErrNotFound)
		}
		in.Marker = out.Marker
	}
}

// sameJSONText returns the declared JSON text when it parses to the same
// value as the live text (the service reformats what it stores), else the
// live text.
func sameJSONText(live string, declared any) string {
	d, ok := declared.(string)
	if !ok {
		return live
	}
	var a, b any
	if json.Unmarshal([]byte(live), &a) != nil || json.Unmarshal([]byte(d), &b) != nil {
		return live
	}
	if reflect.DeepEqual(a, b) {
		return d
	}
	return live
}

// dmsTags adds the resource's tags to m.
func dmsTags(ctx context.Context, c *Clients, m map[string]any, arn string) (map[string]any, error) {
	t, err := c.DMS.ListTagsForResource(ctx, &dms.ListTagsForResourceInput{ResourceArn: &arn})
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
