package live_test

import (
	"testing"

	"github.com/realdrift/realdrift/internal/live"
)

func TestCacheReplicationGroupSupplement(t *testing.T) {
	const declared = `{"ReplicationGroupDescription":"sessions","Engine":"valkey","CacheNodeType":"cache.t4g.micro","NumCacheClusters":2,"EngineVersion":"8.0","PreferredMaintenanceWindow":"sun:05:00-sun:06:00","NotificationTopicArn":"arn:aws:sns:us-east-1:` + acct + `:cache-events"}`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::ElastiCache::ReplicationGroup", "sessions", `{"ReplicationGroupId":"sessions",`+declared[1:]),
		liveOnly("AWS::ElastiCache::ReplicationGroup", "other", `{"ReplicationGroupId":"other","EngineVersion":"7.1","PreferredMaintenanceWindow":"mon:01:00-mon:02:00"}`),
	))
	c := live.NewClients(config(url))
	supplementRoundTrip(t, c, srv, supplementCase{
		req:  live.Request{Type: "AWS::ElastiCache::ReplicationGroup", LogicalID: "Sessions", PhysicalID: "sessions", Declared: declaredOf(t, declared)},
		want: map[string]any{"EngineVersion": "8.0", "PreferredMaintenanceWindow": "sun:05:00-sun:06:00", "NotificationTopicArn": "arn:aws:sns:us-east-1:" + acct + ":cache-events"},
		id:   "sessions", path: "PreferredMaintenanceWindow", value: `"tue:01:00-tue:02:00"`,
		deny: "elasticache:DescribeCacheClusters",
	})
}

func TestCacheUserSupplement(t *testing.T) {
	const declared = `{"UserId":"app-user","UserName":"app","Engine":"redis","AccessString":"on ~app:* +@read","NoPasswordRequired":true}`
	srv, url := serve(t, worldOf(
		liveOnly("AWS::ElastiCache::User", "app-user", declared),
		liveOnly("AWS::ElastiCache::User", "app-user-2", `{"UserId":"app-user-2","UserName":"app2","Engine":"redis","AccessString":"off"}`),
	))
	c := live.NewClients(config(url))
	supplementRoundTrip(t, c, srv, supplementCase{
		req:  live.Request{Type: "AWS::ElastiCache::User", LogicalID: "AppUser", PhysicalID: "app-user", Declared: declaredOf(t, declared)},
		want: map[string]any{"AccessString": "on ~app:* +@read"},
		id:   "app-user", path: "AccessString", value: `"on ~* +@all"`,
		deny: "elasticache:DescribeUsers",
	})
}
