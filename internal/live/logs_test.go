package live_test

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	logGroup  = "App-Logs-1"
	errorsMF  = `{"FilterName":"errors","LogGroupName":"` + logGroup + `","FilterPattern":"ERROR","MetricTransformations":[{"MetricName":"Errors","MetricNamespace":"App","MetricValue":"1","DefaultValue":0,"Dimensions":[{"Key":"Service","Value":"$.service"}]}]}`
	oobSubArn = "arn:aws:lambda:us-east-1:111111111111:function:Shipper"
)

// logsWorld: a log group with a declared metric filter, a declared
// subscription filter, an out-of-band one of each, and a subscription
// filter another stack owns.
func logsWorld() *sandbox.World {
	sub := func(name, dest string) *sandbox.Resource {
		return &sandbox.Resource{Type: "AWS::Logs::SubscriptionFilter", PhysicalID: name, Identifier: name + "|" + logGroup,
			Properties: json.RawMessage(`{"FilterName":"` + name + `","LogGroupName":"` + logGroup + `","FilterPattern":"","DestinationArn":"` + dest + `"}`)}
	}
	w := worldOf(
		liveOnly("AWS::Logs::LogGroup", logGroup, `{"LogGroupName":"`+logGroup+`","RetentionInDays":14}`),
		liveOnly("AWS::Logs::MetricFilter", "errors", errorsMF),
		liveOnly("AWS::Logs::MetricFilter", "console-latency", `{"FilterName":"console-latency","LogGroupName":"`+logGroup+`","FilterPattern":"[..., latency]","MetricTransformations":[{"MetricName":"Latency","MetricNamespace":"App","MetricValue":"$latency","Unit":"Milliseconds"}]}`),
		sub("declared-sub", "arn:aws:kinesis:us-east-1:111111111111:stream/s"),
		sub("console-sub", oobSubArn),
	)
	other := sub("sibling-sub", "arn:aws:firehose:us-east-1:111111111111:deliverystream/d")
	other.LogicalID = "SiblingSub"
	w.Accounts[0].Regions[0].Stacks = []*sandbox.Stack{{Name: "Shipping", TemplateBody: `{"Resources":{}}`, Resources: []*sandbox.Resource{other}}}
	return w
}

func TestMetricFilterRoundTrip(t *testing.T) {
	srv, url := serve(t, logsWorld())
	c := live.NewClients(config(url))
	var declared map[string]any
	if err := json.Unmarshal([]byte(errorsMF), &declared); err != nil {
		t.Fatal(err)
	}
	req := live.Request{Type: "AWS::Logs::MetricFilter", LogicalID: "Errors", PhysicalID: "errors", Declared: declared}
	got := live.Read(ctx(t), c, req)
	if got.Status != live.Found || got.Route != live.RouteOverride {
		t.Fatalf("read: %+v", got)
	}
	if diff := cmp.Diff(got.Model, declared); diff != "" {
		t.Errorf("model (-got +want):\n%s", diff)
	}
	if fs := classifyEntry(t, req, got.Model); len(fs) != 0 {
		t.Errorf("clean read classified as %+v", fs)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: region, Type: "AWS::Logs::MetricFilter", Identifier: "errors", Path: "FilterPattern", Value: json.RawMessage(`"WARN"`)}); err != nil {
		t.Fatal(err)
	}
	fs := classifyEntry(t, req, live.Read(ctx(t), c, req).Model)
	if len(fs) != 1 || fs[0].Path != "FilterPattern" || fs[0].Tier != drift.Declared {
		t.Errorf("out-of-band pattern change: %+v, want one declared finding on FilterPattern", fs)
	}
	for _, r := range []live.Request{
		{Type: "AWS::Logs::MetricFilter", PhysicalID: "gone", Declared: map[string]any{"LogGroupName": logGroup}},
		{Type: "AWS::Logs::MetricFilter", PhysicalID: "errors", Declared: map[string]any{"LogGroupName": "no-such-group"}},
	} {
		if got := live.Read(ctx(t), c, r); got.Status != live.NotFound {
			t.Errorf("%s on %v: %+v, want notFound", r.PhysicalID, r.Declared["LogGroupName"], got)
		}
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "logs", Action: "DescribeMetricFilters", Code: "AccessDeniedException", Status: 400}}); err != nil {
		t.Fatal(err)
	}
	if got := live.Read(ctx(t), c, req); got.Status != live.Skipped || got.Reason[:len("CloudWatch Logs DescribeMetricFilters: AccessDeniedException")] != "CloudWatch Logs DescribeMetricFilters: AccessDeniedException" {
		t.Errorf("denied: %+v", got)
	}
}

func TestEnumerateLogGroup(t *testing.T) {
	_, url := serve(t, logsWorld())
	c := live.NewClients(config(url))
	parent := live.StackResource{LogicalID: "Logs", Type: "AWS::Logs::LogGroup", PhysicalID: logGroup}
	stack := []live.StackResource{parent,
		{LogicalID: "Errors", Type: "AWS::Logs::MetricFilter", PhysicalID: "errors", Declared: map[string]any{"LogGroupName": logGroup}},
		{LogicalID: "Sub", Type: "AWS::Logs::SubscriptionFilter", PhysicalID: "declared-sub", Declared: map[string]any{"LogGroupName": logGroup, "FilterName": "declared-sub"}},
	}
	got, err := live.Enumerate(ctx(t), c, parent, stack)
	if err != nil {
		t.Fatal(err)
	}
	want := []live.Child{
		{Type: "AWS::Logs::MetricFilter", Identifier: logGroup + "|console-latency", Model: map[string]any{"FilterName": "console-latency", "LogGroupName": logGroup, "FilterPattern": "[..., latency]",
			"MetricTransformations": []any{map[string]any{"MetricName": "Latency", "MetricNamespace": "App", "MetricValue": "$latency", "Unit": "Milliseconds"}}}},
		{Type: "AWS::Logs::SubscriptionFilter", Identifier: "console-sub|" + logGroup, Model: map[string]any{"FilterName": "console-sub", "LogGroupName": logGroup, "FilterPattern": "", "DestinationArn": oobSubArn}},
	}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("children (-got +want):\n%s", diff)
	}
	// A declared filter on an unresolved group may be any filter.
	open := append(stack[:len(stack):len(stack)], live.StackResource{LogicalID: "Any", Type: "AWS::Logs::SubscriptionFilter", PhysicalID: "x", Declared: map[string]any{"LogGroupName": drift.Unknown{}}})
	got, err = live.Enumerate(ctx(t), c, parent, open)
	if err != nil {
		t.Fatal(err)
	}
	for _, ch := range got {
		if ch.Type == "AWS::Logs::SubscriptionFilter" {
			t.Errorf("subscription filter %s added although a declared one is unresolved", ch.Identifier)
		}
	}
}
