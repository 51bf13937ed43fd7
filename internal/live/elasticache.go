package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/elasticache"
)

// The ElastiCache family: AWS::ElastiCache::ParameterGroup (Cloud Control
// cannot read it) by its name (the physical id): DescribeCacheParameterGroups
// for the family and description, DescribeCacheParameters with Source
// "user" (every page) for Properties, the parameters set away from the
// family's defaults, and ListTagsForResource for its tags. A replication
// group's member-cluster settings and a user's access string are read by
// their supplements (supp_elasticache.go).

type elastiCacheAPI interface {
	elasticache.DescribeCacheParameterGroupsAPIClient
	elasticache.DescribeCacheParametersAPIClient
	elasticache.DescribeReplicationGroupsAPIClient
	elasticache.DescribeCacheClustersAPIClient
	elasticache.DescribeUsersAPIClient
	ListTagsForResource(ctx context.Context, in *elasticache.ListTagsForResourceInput, optFns ...func(*elasticache.Options)) (*elasticache.ListTagsForResourceOutput, error)
}

var _ elastiCacheAPI = (*elasticache.Client)(nil)

// readCacheParameterGroup reads AWS::ElastiCache::ParameterGroup:
// {CacheParameterGroupName, CacheParameterGroupFamily, Description,
// Properties, Tags}.
func readCacheParameterGroup(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	if c.ElastiCache == nil {
		return nil, skip("no ElastiCache client")
	}
	out, err := c.ElastiCache.DescribeCacheParameterGroups(ctx, &elasticache.DescribeCacheParameterGroupsInput{CacheParameterGroupName: &r.PhysicalID})
	if err != nil {
		return nil, err
	}
	var m map[string]any
	arn := ""
	for _, g := range out.CacheParameterGroups {
		if aws.ToString(g.CacheParameterGroupName) == r.PhysicalID {
			m = map[string]any{"CacheParameterGroupName": r.PhysicalID, "CacheParameterGroupFamily": aws.ToString(g.CacheParameterGroupFamily), "Description": aws.ToString(g.Description)}
			arn = aws.ToString(g.ARN)
		}
	}
	if m == nil {
		return nil, fmt.Errorf("cache parameter group %s: %w", r.PhysicalID, ErrNotFound)
	}
	props := map[string]any{}
	p := elasticache.NewDescribeCacheParametersPaginator(c.ElastiCache, &elasticache.DescribeCacheParametersInput{CacheParameterGroupName: &r.PhysicalID, Source: aws.String("user")})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, prm := range page.Parameters {
			if prm.ParameterValue != nil {
				props[aws.ToString(prm.ParameterName)] = *prm.ParameterValue
			}
		}
	}
	if len(props) > 0 {
		m["Properties"] = props
	}
	if arn == "" {
		return nil, skip("ElastiCache DescribeCacheParameterGroups answered no ARN: the tags cannot be read")
	}
	tags, err := c.ElastiCache.ListTagsForResource(ctx, &elasticache.ListTagsForResourceInput{ResourceName: &arn})
	if err != nil {
		return nil, err
	}
	if len(tags.TagList) > 0 {
		ts := make([]any, len(tags.TagList))
		for i, t := range tags.TagList {
			ts[i] = map[string]any{"Key": aws.ToString(t.Key), "Value": aws.ToString(t.Value)}
		}
		m["Tags"] = ts
	}
	return m, nil
}
