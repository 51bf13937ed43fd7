package elasticache

import (
	"fmt"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

// ElastiCache replication groups, their member clusters and users, from
// the world's AWS::ElastiCache::ReplicationGroup and AWS::ElastiCache::User
// models. A group's members are "<group id>-00N", one per NumCacheClusters
// (default 1); each member answers the group model's EngineVersion,
// PreferredMaintenanceWindow and NotificationTopicArn (an active topic),
// as ElastiCache applies them to every member.

// cacheReplicationGroups maps a group id (ReplicationGroupId, else the
// identifier) to its model.
func cacheReplicationGroups(st *world.State, c *wire.Call) map[string]*world.Resource {
	out := map[string]*world.Resource{}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::ElastiCache::ReplicationGroup") {
		if r.Deleted {
			continue
		}
		id := world.FieldString(r, "ReplicationGroupId")
		if id == "" {
			id = r.CCID()
		}
		out[strings.ToLower(id)] = r
	}
	return out
}

func cacheMembers(id string, g *world.Resource) []string {
	n := 1
	if v, ok := world.FieldValue(g, "NumCacheClusters").(float64); ok && v > 0 {
		n = int(v)
	}
	var out []string
	for i := 1; i <= n; i++ {
		out = append(out, fmt.Sprintf("%s-%03d", id, i))
	}
	return out
}

func cacheDescribeReplicationGroups(st *world.State, c *wire.Call) (any, error) {
	cur, err := cachePage(c)
	if err != nil {
		return nil, err
	}
	want := strings.ToLower(c.Str("ReplicationGroupId"))
	st.RLock()
	defer st.RUnlock()
	groups := cacheReplicationGroups(st, c)
	ids := world.SortedKeys(groups)
	if want != "" {
		if groups[want] == nil {
			return nil, wire.Errf(404, "ReplicationGroupNotFoundFault", "ReplicationGroup %s not found.", c.Str("ReplicationGroupId"))
		}
		ids = []string{want}
	}
	var nodes []*wire.Node
	for _, id := range ids {
		g := groups[id]
		var ms []*wire.Node
		for _, m := range cacheMembers(id, g) {
			ms = append(ms, wire.Tx("", m))
		}
		nodes = append(nodes, wire.El("", wire.Tx("ReplicationGroupId", id), wire.Tx("Description", world.FieldString(g, "ReplicationGroupDescription")), wire.Tx("Status", "available"),
			wire.ListOf("MemberClusters", "ClusterId", ms), wire.Opt("CacheNodeType", world.FieldString(g, "CacheNodeType")), wire.Opt("Engine", world.FieldString(g, "Engine")),
			wire.Tx("ARN", "arn:aws:elasticache:"+c.Region+":"+c.Account+":replicationgroup:"+id)))
	}
	lo, hi, next := cur.Cut(len(nodes))
	out := wire.El("", wire.ListOf("ReplicationGroups", "ReplicationGroup", nodes[lo:hi]))
	if next != "" {
		out.Kids = append(out.Kids, wire.Tx("Marker", next))
	}
	return out, nil
}

func cacheDescribeCacheClusters(st *world.State, c *wire.Call) (any, error) {
	if _, err := cachePage(c); err != nil {
		return nil, err
	}
	want := strings.ToLower(c.Str("CacheClusterId"))
	st.RLock()
	defer st.RUnlock()
	var nodes []*wire.Node
	for _, id := range world.SortedKeys(cacheReplicationGroups(st, c)) {
		g := cacheReplicationGroups(st, c)[id]
		for _, m := range cacheMembers(id, g) {
			if want != "" && m != want {
				continue
			}
			n := wire.El("", wire.Tx("CacheClusterId", m), wire.Tx("ReplicationGroupId", id), wire.Tx("CacheClusterStatus", "available"),
				wire.Opt("CacheNodeType", world.FieldString(g, "CacheNodeType")), wire.Opt("Engine", world.FieldString(g, "Engine")),
				wire.Opt("EngineVersion", world.FieldString(g, "EngineVersion")), wire.Opt("PreferredMaintenanceWindow", world.FieldString(g, "PreferredMaintenanceWindow")))
			if t := world.FieldString(g, "NotificationTopicArn"); t != "" {
				n.Kids = append(n.Kids, wire.El("NotificationConfiguration", wire.Tx("TopicArn", t), wire.Tx("TopicStatus", "active")))
			}
			nodes = append(nodes, n)
		}
	}
	if want != "" && len(nodes) == 0 {
		return nil, wire.Errf(404, "CacheClusterNotFound", "CacheCluster not found: %s", c.Str("CacheClusterId"))
	}
	return wire.El("", wire.ListOf("CacheClusters", "CacheCluster", nodes)), nil
}

// cacheDescribeUsers answers the AWS::ElastiCache::User models (by UserId,
// else the identifier); an unknown UserId is UserNotFound.
func cacheDescribeUsers(st *world.State, c *wire.Call) (any, error) {
	cur, err := cachePage(c)
	if err != nil {
		return nil, err
	}
	want := c.Str("UserId")
	st.RLock()
	defer st.RUnlock()
	users := map[string]*world.Resource{}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::ElastiCache::User") {
		if r.Deleted {
			continue
		}
		id := world.FieldString(r, "UserId")
		if id == "" {
			id = r.CCID()
		}
		users[id] = r
	}
	ids := world.SortedKeys(users)
	if want != "" {
		if users[want] == nil {
			return nil, wire.Errf(404, "UserNotFound", "User %s not found.", want)
		}
		ids = []string{want}
	}
	var nodes []*wire.Node
	for _, id := range ids {
		u := users[id]
		nodes = append(nodes, wire.El("", wire.Tx("UserId", id), wire.Opt("UserName", world.FieldString(u, "UserName")), wire.Tx("Status", "active"),
			wire.Opt("Engine", world.FieldString(u, "Engine")), wire.Opt("AccessString", world.FieldString(u, "AccessString")),
			wire.Tx("ARN", "arn:aws:elasticache:"+c.Region+":"+c.Account+":user:"+id)))
	}
	lo, hi, next := cur.Cut(len(nodes))
	out := wire.El("", wire.Members("Users", nodes[lo:hi]))
	if next != "" {
		out.Kids = append(out.Kids, wire.Tx("Marker", next))
	}
	return out, nil
}
