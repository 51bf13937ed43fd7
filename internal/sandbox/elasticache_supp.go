package sandbox

import (
	"fmt"
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"strings"
)

// ElastiCache replication groups, their member clusters and users, from
// the world's AWS::ElastiCache::ReplicationGroup and AWS::ElastiCache::User
// models. A group's members are "<group id>-00N", one per NumCacheClusters
// (default 1); each member answers the group model's EngineVersion,
// PreferredMaintenanceWindow and NotificationTopicArn (an active topic),
// as ElastiCache applies them to every member.

// cacheReplicationGroups maps a group id (ReplicationGroupId, else the
// identifier) to its model.
func cacheReplicationGroups(st *world.State, c *call) map[string]*world.Resource {
	out := map[string]*world.Resource{}
	for _, r := range st.OfType(c.account, c.region, "AWS::ElastiCache::ReplicationGroup") {
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

func cacheDescribeReplicationGroups(st *world.State, c *call) (any, error) {
	size, off, err := cachePage(c)
	if err != nil {
		return nil, err
	}
	want := strings.ToLower(c.str("ReplicationGroupId"))
	st.RLock()
	defer st.RUnlock()
	groups := cacheReplicationGroups(st, c)
	ids := world.SortedKeys(groups)
	if want != "" {
		if groups[want] == nil {
			return nil, errf(404, "ReplicationGroupNotFoundFault", "ReplicationGroup %s not found.", c.str("ReplicationGroupId"))
		}
		ids = []string{want}
	}
	var nodes []*xnode
	for _, id := range ids {
		g := groups[id]
		var ms []*xnode
		for _, m := range cacheMembers(id, g) {
			ms = append(ms, tx("", m))
		}
		nodes = append(nodes, el("", tx("ReplicationGroupId", id), tx("Description", world.FieldString(g, "ReplicationGroupDescription")), tx("Status", "available"),
			listOf("MemberClusters", "ClusterId", ms), opt("CacheNodeType", world.FieldString(g, "CacheNodeType")), opt("Engine", world.FieldString(g, "Engine")),
			tx("ARN", "arn:aws:elasticache:"+c.region+":"+c.account+":replicationgroup:"+id)))
	}
	lo, hi, next := page(len(nodes), off, size)
	out := el("", listOf("ReplicationGroups", "ReplicationGroup", nodes[lo:hi]))
	if next >= 0 {
		out.kids = append(out.kids, tx("Marker", pageToken("elasticache", next)))
	}
	return out, nil
}

func cacheDescribeCacheClusters(st *world.State, c *call) (any, error) {
	if _, _, err := cachePage(c); err != nil {
		return nil, err
	}
	want := strings.ToLower(c.str("CacheClusterId"))
	st.RLock()
	defer st.RUnlock()
	var nodes []*xnode
	for _, id := range world.SortedKeys(cacheReplicationGroups(st, c)) {
		g := cacheReplicationGroups(st, c)[id]
		for _, m := range cacheMembers(id, g) {
			if want != "" && m != want {
				continue
			}
			n := el("", tx("CacheClusterId", m), tx("ReplicationGroupId", id), tx("CacheClusterStatus", "available"),
				opt("CacheNodeType", world.FieldString(g, "CacheNodeType")), opt("Engine", world.FieldString(g, "Engine")),
				opt("EngineVersion", world.FieldString(g, "EngineVersion")), opt("PreferredMaintenanceWindow", world.FieldString(g, "PreferredMaintenanceWindow")))
			if t := world.FieldString(g, "NotificationTopicArn"); t != "" {
				n.kids = append(n.kids, el("NotificationConfiguration", tx("TopicArn", t), tx("TopicStatus", "active")))
			}
			nodes = append(nodes, n)
		}
	}
	if want != "" && len(nodes) == 0 {
		return nil, errf(404, "CacheClusterNotFound", "CacheCluster not found: %s", c.str("CacheClusterId"))
	}
	return el("", listOf("CacheClusters", "CacheCluster", nodes)), nil
}

// cacheDescribeUsers answers the AWS::ElastiCache::User models (by UserId,
// else the identifier); an unknown UserId is UserNotFound.
func cacheDescribeUsers(st *world.State, c *call) (any, error) {
	size, off, err := cachePage(c)
	if err != nil {
		return nil, err
	}
	want := c.str("UserId")
	st.RLock()
	defer st.RUnlock()
	users := map[string]*world.Resource{}
	for _, r := range st.OfType(c.account, c.region, "AWS::ElastiCache::User") {
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
			return nil, errf(404, "UserNotFound", "User %s not found.", want)
		}
		ids = []string{want}
	}
	var nodes []*xnode
	for _, id := range ids {
		u := users[id]
		nodes = append(nodes, el("", tx("UserId", id), opt("UserName", world.FieldString(u, "UserName")), tx("Status", "active"),
			opt("Engine", world.FieldString(u, "Engine")), opt("AccessString", world.FieldString(u, "AccessString")),
			tx("ARN", "arn:aws:elasticache:"+c.region+":"+c.account+":user:"+id)))
	}
	lo, hi, next := page(len(nodes), off, size)
	out := el("", members("Users", nodes[lo:hi]))
	if next >= 0 {
		out.kids = append(out.kids, tx("Marker", pageToken("elasticache", next)))
	}
	return out, nil
}
