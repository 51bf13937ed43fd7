package elasticache

import "github.com/realdrift/realdrift/internal/sandbox/wire"

// Service serves ElastiCache (query/XML): cache parameter
// groups from the world's AWS::ElastiCache::ParameterGroup models (by
// identifier, else CacheParameterGroupName). A group's Properties are its
// parameters of source "user"; the family's defaults are not modelled, so
// DescribeCacheParameters lists the user parameters whatever Source asks
// for other than "system" / "engine-default" (which list none). Lists are
// of <CacheParameterGroup>, <Parameter> and <Tag> elements, as ElastiCache
// names them; its Tags are what ListTagsForResource answers by the group's
// ARN. Replication groups, their member clusters and users are served
// for the supplements (elasticache_supp.go).
func Service() *wire.Service {
	return wire.Query("elasticache", "http://elasticache.amazonaws.com/doc/2015-02-02/", wire.Ops{
		"DescribeCacheParameterGroups": cacheDescribeParameterGroups,
		"DescribeCacheParameters":      cacheDescribeParameters,
		"ListTagsForResource":          cacheListTags,
		"DescribeReplicationGroups":    cacheDescribeReplicationGroups,
		"DescribeCacheClusters":        cacheDescribeCacheClusters,
		"DescribeUsers":                cacheDescribeUsers,
	})
}
