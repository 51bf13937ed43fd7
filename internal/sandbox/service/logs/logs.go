package logs

import (
	"sort"
	"strings"

	"github.com/realdrift/realdrift/internal/sandbox/wire"
	"github.com/realdrift/realdrift/internal/sandbox/world"
)

type logsFilterQuery struct {
	LogGroupName     string `json:"logGroupName"`
	FilterNamePrefix string `json:"filterNamePrefix"`
	Limit            int    `json:"limit"`
	NextToken        string `json:"nextToken"`
}

// logGroupExists reports whether the account region has the log group.
func logGroupExists(st *world.State, c *wire.Call, name string) bool {
	for _, g := range st.OfType(c.Account, c.Region, "AWS::Logs::LogGroup") {
		if world.FieldString(g, "LogGroupName") == name || g.PhysicalID == name {
			return true
		}
	}
	for _, typ := range []string{"AWS::Logs::MetricFilter", "AWS::Logs::SubscriptionFilter"} {
		for _, f := range st.OfType(c.Account, c.Region, typ) {
			if world.FieldString(f, "LogGroupName") == name {
				return true
			}
		}
	}
	return false
}

// logsFilters selects the filters of typ on the query's log group, by
// name, and pages them (limit 1..50, default 50).
func logsFilters(st *world.State, c *wire.Call, typ, tokenPrefix string, render func(*world.Resource, string) map[string]any) (items []map[string]any, next string, err error) {
	var in logsFilterQuery
	if err := c.Decode(&in); err != nil {
		return nil, "", err
	}
	if in.LogGroupName == "" && typ == "AWS::Logs::SubscriptionFilter" {
		return nil, "", wire.Errf(400, "InvalidParameterException", "1 validation error detected: Value null at 'logGroupName' failed to satisfy constraint: Member must not be null")
	}
	cur, err := wire.Paging{Prefix: tokenPrefix, Default: 50, Max: 50,
		BadSize: func(n string) error {
			return wire.Errf(400, "InvalidParameterException", "1 validation error detected: Value '%s' at 'limit' failed to satisfy constraint: Member must have value less than or equal to 50", n)
		},
		BadToken: wire.Errf(400, "InvalidParameterException", "The specified nextToken is not valid.")}.Start(c, in.Limit, in.NextToken)
	if err != nil {
		return nil, "", err
	}
	st.RLock()
	defer st.RUnlock()
	if in.LogGroupName != "" && !logGroupExists(st, c, in.LogGroupName) {
		return nil, "", wire.Errf(400, "ResourceNotFoundException", "The specified log group does not exist.")
	}
	type named struct {
		name string
		res  *world.Resource
	}
	var all []named
	for _, f := range st.OfType(c.Account, c.Region, typ) {
		name := world.FieldString(f, "FilterName")
		if name == "" {
			name = f.PhysicalID
		}
		if in.LogGroupName != "" && world.FieldString(f, "LogGroupName") != in.LogGroupName {
			continue
		}
		if !strings.HasPrefix(name, in.FilterNamePrefix) {
			continue
		}
		all = append(all, named{name, f})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].name < all[j].name })
	lo, hi, next := cur.Cut(len(all))
	items = []map[string]any{}
	for _, n := range all[lo:hi] {
		items = append(items, render(n.res, n.name))
	}
	return items, next, nil
}

func logsDescribeMetricFilters(st *world.State, c *wire.Call) (any, error) {
	items, next, err := logsFilters(st, c, "AWS::Logs::MetricFilter", "mf", func(f *world.Resource, name string) map[string]any {
		m := map[string]any{
			"filterName": name, "logGroupName": world.FieldString(f, "LogGroupName"),
			"filterPattern": world.FieldString(f, "FilterPattern"), "creationTime": world.DefaultTime.UnixMilli(),
		}
		if b, ok := world.FieldValue(f, "ApplyOnTransformedLogs").(bool); ok {
			m["applyOnTransformedLogs"] = b
		}
		var ts []map[string]any
		list, _ := world.FieldValue(f, "MetricTransformations").([]any)
		for _, t := range list {
			mt, _ := t.(map[string]any)
			out := map[string]any{"metricName": mt["MetricName"], "metricNamespace": mt["MetricNamespace"], "metricValue": mt["MetricValue"]}
			if v, ok := mt["DefaultValue"]; ok {
				out["defaultValue"] = v
			}
			if v, ok := mt["Unit"]; ok {
				out["unit"] = v
			}
			if ds, ok := mt["Dimensions"].([]any); ok {
				dims := map[string]any{}
				for _, d := range ds {
					kv, _ := d.(map[string]any)
					if k, ok := kv["Key"].(string); ok {
						dims[k] = kv["Value"]
					}
				}
				out["dimensions"] = dims
			}
			ts = append(ts, out)
		}
		m["metricTransformations"] = ts
		return m
	})
	if err != nil {
		return nil, err
	}
	out := map[string]any{"metricFilters": items}
	if next != "" {
		out["nextToken"] = next
	}
	return out, nil
}

func logsDescribeSubscriptionFilters(st *world.State, c *wire.Call) (any, error) {
	items, next, err := logsFilters(st, c, "AWS::Logs::SubscriptionFilter", "sf", func(f *world.Resource, name string) map[string]any {
		m := map[string]any{
			"filterName": name, "logGroupName": world.FieldString(f, "LogGroupName"),
			"filterPattern": world.FieldString(f, "FilterPattern"), "destinationArn": world.FieldString(f, "DestinationArn"),
			"creationTime": world.DefaultTime.UnixMilli(),
		}
		if v := world.FieldString(f, "RoleArn"); v != "" {
			m["roleArn"] = v
		}
		if v := world.FieldString(f, "Distribution"); v != "" {
			m["distribution"] = v
		}
		return m
	})
	if err != nil {
		return nil, err
	}
	out := map[string]any{"subscriptionFilters": items}
	if next != "" {
		out["nextToken"] = next
	}
	return out, nil
}
