package scan_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/scan"
)

// TestDefaultSecurityGroupsFromTheRegion: a resource whose template names
// no security group but whose live model holds one makes the check ask EC2
// for the region's default groups (DescribeSecurityGroups, group-name
// "default"); the group is then atDefault only when it is one of them,
// undeclared drift otherwise. A resource that declares its groups, or has
// none, asks nothing.
func TestDefaultSecurityGroupsFromTheRegion(t *testing.T) {
	const dflt, other = "sg-0123456789abcdef0", "sg-0fedcba9876543210"
	tests := []struct {
		name     string
		props    map[string]any
		live     []any
		defaults []string // the Desired's fact: nil when not asked
		tier     drift.Tier
	}{
		{"the default group", map[string]any{}, []any{dflt}, []string{dflt}, drift.AtDefault},
		{"another group", map[string]any{}, []any{other}, []string{dflt}, drift.Undeclared},
		{"two groups", map[string]any{}, []any{dflt, other}, nil, drift.Undeclared},
		{"declared groups", map[string]any{"VpcSecurityGroupIds": []any{other}}, []any{other}, nil, drift.TierUnknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			props := map[string]any{"Engine": "redis", "CacheNodeType": "cache.t3.micro", "NumCacheNodes": 1.0}
			for k, v := range tt.props {
				props[k] = v
			}
			liveModel := map[string]any{"Engine": "redis", "CacheNodeType": "cache.t3.micro", "NumCacheNodes": 1.0, "VpcSecurityGroupIds": tt.live}
			w := world(t, "Cache", []res{{logical: "C", typ: "AWS::ElastiCache::CacheCluster", physical: "cache-c", props: props, live: liveModel}}, nil)
			w.Accounts[0].Regions[0].DefaultSecurityGroups = []string{dflt}
			_, url := startSandbox(t, w)
			res, err := scan.Check(testCtx(t), clients(t, url, "AKIATEST000000000001"), drift.StackRef{Account: acct, Region: region, Name: "Cache"}, scan.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(res.Desired.DefaultSecurityGroups, tt.defaults); diff != "" {
				t.Errorf("default groups (-got +want):\n%s", diff)
			}
			var got drift.Tier
			for _, f := range res.Findings {
				if f.Path == "VpcSecurityGroupIds" {
					got = f.Tier
				}
			}
			if got != tt.tier {
				t.Errorf("VpcSecurityGroupIds: tier %v, want %v (findings %v)", got, tt.tier, res.Findings)
			}
		})
	}
}
