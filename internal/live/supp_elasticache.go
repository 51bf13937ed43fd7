package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
)

// AWS::ElastiCache::ReplicationGroup: PreferredMaintenanceWindow,
// NotificationTopicArn and EngineVersion are write-only to Cloud Control
// and not in DescribeReplicationGroups' answer either: they are its
// member clusters' settings, read from the first member through
// DescribeCacheClusters (the group applies them to every member).
//
// AWS::ElastiCache::User: AccessString is write-only to Cloud Control;
// DescribeUsers by the user id answers it.

var (
	cacheReplicationGroupProps = []string{"PreferredMaintenanceWindow", "NotificationTopicArn", "EngineVersion"}
	cacheUserProps             = []string{"AccessString"}
)

// readCacheReplicationGroupSupplement reads a replication group's first
// member cluster (physical id: the replication group id).
func readCacheReplicationGroupSupplement(ctx context.Context, c *Clients, r Request, _ map[string]any) (map[string]any, error) {
	if c.ElastiCache == nil {
		return nil, skip("no ElastiCache client")
	}
	id := r.PhysicalID
	rgs, err := c.ElastiCache.DescribeReplicationGroups(ctx, &elasticache.DescribeReplicationGroupsInput{ReplicationGroupId: &id})
	if err != nil {
		return nil, err
	}
	var member string
	for _, g := range rgs.ReplicationGroups {
		if aws.ToString(g.ReplicationGroupId) == id && len(g.MemberClusters) > 0 {
			member = g.MemberClusters[0]
		}
	}
	if member == "" {
		return nil, fmt.Errorf("member clusters of replication group %s: %w", id, ErrNotFound)
	}
	ccs, err := c.ElastiCache.DescribeCacheClusters(ctx, &elasticache.DescribeCacheClustersInput{CacheClusterId: &member})
	if err != nil {
		return nil, err
	}
	for _, cc := range ccs.CacheClusters {
		if aws.ToString(cc.CacheClusterId) != member {
			continue
		}
		out := map[string]any{}
		if v := aws.ToString(cc.PreferredMaintenanceWindow); v != "" {
			out["PreferredMaintenanceWindow"] = v
		}
		if v := aws.ToString(cc.EngineVersion); v != "" {
			out["EngineVersion"] = v
		}
		if n := cc.NotificationConfiguration; n != nil && aws.ToString(n.TopicArn) != "" && aws.ToString(n.TopicStatus) != "inactive" {
			out["NotificationTopicArn"] = aws.ToString(n.TopicArn)
		}
		return out, nil
	}
	return nil, fmt.Errorf("cache cluster %s: %w", member, ErrNotFound)
}

// readCacheUserSupplement reads a user's access string (physical id: the
// user id).
func readCacheUserSupplement(ctx context.Context, c *Clients, r Request, _ map[string]any) (map[string]any, error) {
	if c.ElastiCache == nil {
		return nil, skip("no ElastiCache client")
	}
	id := r.PhysicalID
	p := elasticache.NewDescribeUsersPaginator(c.ElastiCache, &elasticache.DescribeUsersInput{UserId: &id})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, u := range page.Users {
			if aws.ToString(u.UserId) == id {
				out := map[string]any{}
				if u.AccessString != nil {
					out["AccessString"] = *u.AccessString
				}
				return out, nil
			}
		}
	}
	return nil, fmt.Errorf("ElastiCache user %s: %w", id, ErrNotFound)
}
