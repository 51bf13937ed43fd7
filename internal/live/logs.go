package live

import (
	"context"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs"
	logstypes "github.com/aws/aws-sdk-go-v2/service/cloudwatchlogs/types"
)

// The CloudWatch Logs family: AWS::Logs::MetricFilter (Cloud Control
// cannot read it) through DescribeMetricFilters; the out-of-band
// subscription and metric filters of a declared AWS::Logs::LogGroup.

type logsAPI interface {
	cloudwatchlogs.DescribeMetricFiltersAPIClient
	cloudwatchlogs.DescribeSubscriptionFiltersAPIClient
}

var _ logsAPI = (*cloudwatchlogs.Client)(nil)

// readMetricFilter reads AWS::Logs::MetricFilter (physical id: the filter
// name) of the declared LogGroupName: {FilterName, LogGroupName,
// FilterPattern, MetricTransformations, ApplyOnTransformedLogs}.
func readMetricFilter(ctx context.Context, c *Clients, r Request) (map[string]any, error) {
	group, err := declaredString(r.Declared, "LogGroupName")
	if err != nil {
		return nil, err
	}
	fs, err := listMetricFilters(ctx, c, group, r.PhysicalID)
	if err != nil {
		return nil, err
	}
	for _, f := range fs {
		if aws.ToString(f.FilterName) == r.PhysicalID {
			return metricFilterModel(f), nil
		}
	}
	return nil, fmt.Errorf("metric filter %s of log group %s: %w", r.PhysicalID, group, ErrNotFound)
}

// listMetricFilters lists a log group's metric filters, every page;
// prefix narrows them by name ("" for all).
func listMetricFilters(ctx context.Context, c *Clients, group, prefix string) ([]logstypes.MetricFilter, error) {
	if c.Logs == nil {
		return nil, skip("no CloudWatch Logs client")
	}
	in := &cloudwatchlogs.DescribeMetricFiltersInput{LogGroupName: &group}
	if prefix != "" {
		in.FilterNamePrefix = &prefix
	}
	var out []logstypes.MetricFilter
	p := cloudwatchlogs.NewDescribeMetricFiltersPaginator(c.Logs, in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		out = append(out, page.MetricFilters...)
	}
	return out, nil
}

func metricFilterModel(f logstypes.MetricFilter) map[string]any {
	m := map[string]any{
		"FilterName":    aws.ToString(f.FilterName),
		"LogGroupName":  aws.ToString(f.LogGroupName),
		"FilterPattern": aws.ToString(f.FilterPattern),
	}
	if f.ApplyOnTransformedLogs {
		m["ApplyOnTransformedLogs"] = true
	}
	ts := make([]any, 0, len(f.MetricTransformations))
	for _, t := range f.MetricTransformations {
		mt := map[string]any{
			"MetricName":      aws.ToString(t.MetricName),
			"MetricNamespace": aws.ToString(t.MetricNamespace),
			"MetricValue":     aws.ToString(t.MetricValue),
		}
		if t.DefaultValue != nil {
			mt["DefaultValue"] = *t.DefaultValue
		}
		if t.Unit != "" {
			mt["Unit"] = string(t.Unit)
		}
		if len(t.Dimensions) > 0 {
			// The template's Dimensions is a list of {Key, Value}; the API
			// answers a map. Listed by key, the order the API cannot keep.
			keys := sortedNames(t.Dimensions)
			ds := make([]any, len(keys))
			for i, k := range keys {
				ds[i] = map[string]any{"Key": k, "Value": t.Dimensions[k]}
			}
			mt["Dimensions"] = ds
		}
		ts = append(ts, mt)
	}
	m["MetricTransformations"] = ts
	return m
}

// logGroupName is a declared log group's name: its physical id.
func logGroupName(parent StackResource) string { return parent.PhysicalID }

// declaresFilterOn reports whether the stack declares a filter of typ
// named name on group. A declared filter whose log group or name is not
// resolved may be any filter (fail closed).
func declaresFilterOn(stack []StackResource, typ, group, name string) bool {
	for _, r := range stack {
		if r.Type != typ {
			continue
		}
		g, err := declaredString(r.Declared, "LogGroupName")
		if err != nil {
			return true
		}
		n := r.PhysicalID
		if _, ok := r.Declared["FilterName"]; ok {
			if n, err = declaredString(r.Declared, "FilterName"); err != nil {
				return true
			}
		}
		if g == group && n == name {
			return true
		}
	}
	return false
}

// subscriptionFilters lists the subscription filters of a declared log
// group the stack does not declare; each is read in full through Cloud
// Control by its identifier "<filter name>|<log group name>".
func subscriptionFilters(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	if c.Logs == nil {
		return nil, skip("no CloudWatch Logs client")
	}
	group := logGroupName(parent)
	var out []candidate
	p := cloudwatchlogs.NewDescribeSubscriptionFiltersPaginator(c.Logs, &cloudwatchlogs.DescribeSubscriptionFiltersInput{LogGroupName: &group})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if isNotFound(err) {
			return nil, nil // the group itself is reported deleted
		}
		if err != nil {
			return nil, err
		}
		for _, f := range page.SubscriptionFilters {
			name := aws.ToString(f.FilterName)
			if declaresFilterOn(stack, "AWS::Logs::SubscriptionFilter", group, name) {
				continue
			}
			out = append(out, candidate{typ: "AWS::Logs::SubscriptionFilter", id: name + "|" + group, physical: name})
		}
	}
	return out, nil
}

// metricFilters lists the metric filters of a declared log group the stack
// does not declare, with their models (Cloud Control cannot read them);
// the identifier is "<log group name>|<filter name>".
func metricFilters(ctx context.Context, c *Clients, parent StackResource, stack []StackResource) ([]candidate, error) {
	group := logGroupName(parent)
	fs, err := listMetricFilters(ctx, c, group, "")
	if isNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []candidate
	for _, f := range fs {
		name := aws.ToString(f.FilterName)
		if declaresFilterOn(stack, "AWS::Logs::MetricFilter", group, name) {
			continue
		}
		out = append(out, candidate{typ: "AWS::Logs::MetricFilter", id: group + "|" + name, physical: name, model: metricFilterModel(f)})
	}
	return out, nil
}
