package sandbox

import (
	"encoding/json"
	"github.com/realdrift/realdrift/internal/sandbox/world"
	"strconv"
	"strings"
)

// elastiCacheService serves ElastiCache (query/XML): cache parameter
// groups from the world's AWS::ElastiCache::ParameterGroup models (by
// identifier, else CacheParameterGroupName). A group's Properties are its
// parameters of source "user"; the family's defaults are not modelled, so
// DescribeCacheParameters lists the user parameters whatever Source asks
// for other than "system" / "engine-default" (which list none). Lists are
// of <CacheParameterGroup>, <Parameter> and <Tag> elements, as ElastiCache
// names them; its Tags are what ListTagsForResource answers by the group's
// ARN. Replication groups, their member clusters and users are served
// for the supplements (elasticache_supp.go).
func elastiCacheService() *service {
	return &service{
		name:     "elasticache",
		protocol: protoQuery,
		xmlns:    "http://elasticache.amazonaws.com/doc/2015-02-02/",
		throttle: apiError{Status: 400, Code: "Throttling"},
		deny:     apiError{Status: 403, Code: "AccessDenied"},
		ops: map[string]handler{
			"DescribeCacheParameterGroups": cacheDescribeParameterGroups,
			"DescribeCacheParameters":      cacheDescribeParameters,
			"ListTagsForResource":          cacheListTags,
			"DescribeReplicationGroups":    cacheDescribeReplicationGroups,
			"DescribeCacheClusters":        cacheDescribeCacheClusters,
			"DescribeUsers":                cacheDescribeUsers,
		},
	}
}

// listOf is a query list whose items are named item.
func listOf(name, item string, kids []*xnode) *xnode {
	n := &xnode{name: name}
	for _, k := range kids {
		k.name = item
		n.kids = append(n.kids, k)
	}
	return n
}

func cacheGroups(st *world.State, c *call) map[string]*world.Resource {
	out := map[string]*world.Resource{}
	for _, r := range st.OfType(c.account, c.region, "AWS::ElastiCache::ParameterGroup") {
		n := world.FieldString(r, "CacheParameterGroupName")
		if n == "" {
			n = r.CCID()
		}
		out[n] = r
	}
	return out
}

func cacheGroupArn(c *call, name string) string {
	return "arn:aws:elasticache:" + c.region + ":" + c.account + ":parametergroup:" + name
}

func noCacheGroup(name string) error {
	return errf(404, "CacheParameterGroupNotFound", "CacheParameterGroup %s not found.", name)
}

// cachePage reads MaxRecords (20-100, default 100) and Marker.
func cachePage(c *call) (size, off int, err error) {
	size = 100
	if m := c.str("MaxRecords"); m != "" {
		n, e := strconv.Atoi(m)
		if e != nil || n < 20 || n > 100 {
			return 0, 0, errf(400, "InvalidParameterValue", "MaxRecords must be between 20 and 100")
		}
		size = n
	}
	off, ok := pageOffset("elasticache", c.str("Marker"))
	if !ok {
		return 0, 0, errf(400, "InvalidParameterValue", "Invalid Marker")
	}
	return size, off, nil
}

func cacheDescribeParameterGroups(st *world.State, c *call) (any, error) {
	size, off, err := cachePage(c)
	if err != nil {
		return nil, err
	}
	want := c.str("CacheParameterGroupName")
	st.RLock()
	defer st.RUnlock()
	groups := cacheGroups(st, c)
	names := world.SortedKeys(groups)
	if want != "" {
		if groups[want] == nil {
			return nil, noCacheGroup(want)
		}
		names = []string{want}
	}
	var nodes []*xnode
	for _, n := range names {
		g := groups[n]
		nodes = append(nodes, el("", tx("CacheParameterGroupName", n), tx("CacheParameterGroupFamily", world.FieldString(g, "CacheParameterGroupFamily")),
			tx("Description", world.FieldString(g, "Description")), xbool("IsGlobal", false), tx("ARN", cacheGroupArn(c, n))))
	}
	lo, hi, next := page(len(nodes), off, size)
	out := el("", listOf("CacheParameterGroups", "CacheParameterGroup", nodes[lo:hi]))
	if next >= 0 {
		out.kids = append(out.kids, tx("Marker", pageToken("elasticache", next)))
	}
	return out, nil
}

func cacheDescribeParameters(st *world.State, c *call) (any, error) {
	size, off, err := cachePage(c)
	if err != nil {
		return nil, err
	}
	name := c.str("CacheParameterGroupName")
	st.RLock()
	defer st.RUnlock()
	g := cacheGroups(st, c)[name]
	if g == nil {
		return nil, noCacheGroup(name)
	}
	var nodes []*xnode
	if src := c.str("Source"); src != "system" && src != "engine-default" {
		props, _ := world.FieldValue(g, "Properties").(map[string]any)
		for _, k := range world.SortedKeys(props) {
			v := ""
			switch t := props[k].(type) {
			case string:
				v = t
			default:
				b, _ := json.Marshal(t)
				v = strings.Trim(string(b), `"`)
			}
			nodes = append(nodes, el("", tx("ParameterName", k), tx("ParameterValue", v), tx("Source", "user"), tx("DataType", "string"),
				xbool("IsModifiable", true), tx("ChangeType", "immediate")))
		}
	}
	lo, hi, next := page(len(nodes), off, size)
	out := el("", listOf("Parameters", "Parameter", nodes[lo:hi]))
	if next >= 0 {
		out.kids = append(out.kids, tx("Marker", pageToken("elasticache", next)))
	}
	return out, nil
}

func cacheListTags(st *world.State, c *call) (any, error) {
	arn := c.str("ResourceName")
	name := world.ARNTail(arn, ":parametergroup:")
	st.RLock()
	defer st.RUnlock()
	g := cacheGroups(st, c)[name]
	if g == nil || arn != cacheGroupArn(c, name) {
		return nil, noCacheGroup(name)
	}
	var nodes []*xnode
	if ts, ok := world.FieldValue(g, "Tags").([]any); ok {
		for _, t := range ts {
			if m, ok := t.(map[string]any); ok {
				k, _ := m["Key"].(string)
				v, _ := m["Value"].(string)
				nodes = append(nodes, el("", tx("Key", k), tx("Value", v)))
			}
		}
	}
	return el("", listOf("TagList", "Tag", nodes)), nil
}
