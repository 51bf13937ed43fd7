package elasticache

import (
	"encoding/json"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

func cacheGroups(st *world.State, c *wire.Call) map[string]*world.Resource {
	out := map[string]*world.Resource{}
	for _, r := range st.OfType(c.Account, c.Region, "AWS::ElastiCache::ParameterGroup") {
		n := world.FieldString(r, "CacheParameterGroupName")
		if n == "" {
			n = r.CCID()
		}
		out[n] = r
	}
	return out
}

func cacheGroupArn(c *wire.Call, name string) string {
	return "arn:aws:elasticache:" + c.Region + ":" + c.Account + ":parametergroup:" + name
}

func noCacheGroup(name string) error {
	return wire.Errf(404, "CacheParameterGroupNotFound", "CacheParameterGroup %s not found.", name)
}

// cachePage reads MaxRecords (20-100, default 100) and Marker.
func cachePage(c *wire.Call) (wire.Cursor, error) {
	return wire.Paging{Prefix: "elasticache", Default: 100, Min: 20, Max: 100,
		BadSize: func(string) error {
			return wire.Errf(400, "InvalidParameterValue", "MaxRecords must be between 20 and 100")
		},
		BadToken: wire.Errf(400, "InvalidParameterValue", "Invalid Marker")}.StartText(c, c.Str("MaxRecords"), c.Str("Marker"))
}

func cacheDescribeParameterGroups(st *world.State, c *wire.Call) (any, error) {
	cur, err := cachePage(c)
	if err != nil {
		return nil, err
	}
	want := c.Str("CacheParameterGroupName")
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
	var nodes []*wire.Node
	for _, n := range names {
		g := groups[n]
		nodes = append(nodes, wire.El("", wire.Tx("CacheParameterGroupName", n), wire.Tx("CacheParameterGroupFamily", world.FieldString(g, "CacheParameterGroupFamily")),
			wire.Tx("Description", world.FieldString(g, "Description")), wire.Bool("IsGlobal", false), wire.Tx("ARN", cacheGroupArn(c, n))))
	}
	lo, hi, next := cur.Cut(len(nodes))
	out := wire.El("", wire.ListOf("CacheParameterGroups", "CacheParameterGroup", nodes[lo:hi]))
	if next != "" {
		out.Kids = append(out.Kids, wire.Tx("Marker", next))
	}
	return out, nil
}

func cacheDescribeParameters(st *world.State, c *wire.Call) (any, error) {
	cur, err := cachePage(c)
	if err != nil {
		return nil, err
	}
	name := c.Str("CacheParameterGroupName")
	st.RLock()
	defer st.RUnlock()
	g := cacheGroups(st, c)[name]
	if g == nil {
		return nil, noCacheGroup(name)
	}
	var nodes []*wire.Node
	if src := c.Str("Source"); src != "system" && src != "engine-default" {
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
			nodes = append(nodes, wire.El("", wire.Tx("ParameterName", k), wire.Tx("ParameterValue", v), wire.Tx("Source", "user"), wire.Tx("DataType", "string"),
				wire.Bool("IsModifiable", true), wire.Tx("ChangeType", "immediate")))
		}
	}
	lo, hi, next := cur.Cut(len(nodes))
	out := wire.El("", wire.ListOf("Parameters", "Parameter", nodes[lo:hi]))
	if next != "" {
		out.Kids = append(out.Kids, wire.Tx("Marker", next))
	}
	return out, nil
}

func cacheListTags(st *world.State, c *wire.Call) (any, error) {
	arn := c.Str("ResourceName")
	name := world.ARNTail(arn, ":parametergroup:")
	st.RLock()
	defer st.RUnlock()
	g := cacheGroups(st, c)[name]
	if g == nil || arn != cacheGroupArn(c, name) {
		return nil, noCacheGroup(name)
	}
	var nodes []*wire.Node
	if ts, ok := world.FieldValue(g, "Tags").([]any); ok {
		for _, t := range ts {
			if m, ok := t.(map[string]any); ok {
				k, _ := m["Key"].(string)
				v, _ := m["Value"].(string)
				nodes = append(nodes, wire.El("", wire.Tx("Key", k), wire.Tx("Value", v)))
			}
		}
	}
	return wire.El("", wire.ListOf("TagList", "Tag", nodes)), nil
}
