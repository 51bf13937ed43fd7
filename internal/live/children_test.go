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
	subArn   = topicArn + ":11111111-aaaa-bbbb-cccc-000000000001"
	oobSub   = topicArn + ":11111111-aaaa-bbbb-cccc-000000000002"
	otherSub = topicArn + ":11111111-aaaa-bbbb-cccc-000000000003"
	aliasArn = fnArn + ":live"
	oobAlias = fnArn + ":canary"
)

// childrenWorld: a topic with a declared, an out-of-band and a
// sibling-stack subscription; a function with a declared alias, an
// out-of-band alias, URL and event source mapping; a bucket and a queue
// with out-of-band policies; a quiet topic with only the AWS default policy.
func childrenWorld() *sandbox.World {
	w := worldOf(
		liveOnly("AWS::SNS::Topic", topicArn, `{"TopicArn":"`+topicArn+`","TopicName":"Alerts"}`),
		liveOnly("AWS::SNS::Subscription", oobSub, `{"TopicArn":"`+topicArn+`","Protocol":"email","Endpoint":"eve@example.com","Arn":"`+oobSub+`"}`),
		liveOnly("AWS::SNS::Topic", "arn:aws:sns:us-east-1:111111111111:Quiet", `{"TopicArn":"arn:aws:sns:us-east-1:111111111111:Quiet","TopicName":"Quiet"}`),
		liveOnly("AWS::Lambda::Function", "Worker", `{"FunctionName":"Worker","Arn":"`+fnArn+`"}`),
		liveOnly("AWS::Lambda::Alias", oobAlias, `{"FunctionName":"Worker","Name":"canary","FunctionVersion":"2","AliasArn":"`+oobAlias+`"}`),
		liveOnly("AWS::Lambda::Url", fnArn, `{"TargetFunctionArn":"Worker","AuthType":"NONE","FunctionArn":"`+fnArn+`","FunctionUrl":"https://x.lambda-url.us-east-1.on.aws/"}`),
		liveOnly("AWS::Lambda::Version", fnArn+":3", `{"FunctionName":"Worker","Version":"3","FunctionArn":"`+fnArn+`:3"}`),
		liveOnly("AWS::Lambda::Permission", "Console-Sid-7", `{"FunctionName":"Worker","Action":"lambda:InvokeFunction","Principal":"events.amazonaws.com"}`),
		liveOnly("AWS::Lambda::Permission", "oob-invoke", `{"FunctionName":"Worker","Action":"lambda:InvokeFunction","Principal":"*"}`),
		liveOnly("AWS::Lambda::EventSourceMapping", "9aed2c55-0000-0000-0000-000000000001", `{"FunctionName":"`+fnArn+`","EventSourceArn":"`+queueArn+`","BatchSize":10,"Id":"9aed2c55-0000-0000-0000-000000000001"}`),
		liveOnly("AWS::S3::Bucket", bucket, `{"BucketName":"`+bucket+`"}`),
		liveOnly("AWS::S3::BucketPolicy", bucket, `{"Bucket":"`+bucket+`","PolicyDocument":`+doc+`}`),
		liveOnly("AWS::SQS::Queue", queueURL, `{"QueueName":"Work-Q","QueueUrl":"`+queueURL+`","Arn":"`+queueArn+`"}`),
		liveOnly("AWS::SQS::QueuePolicy", "oob-qp", `{"Queues":["`+queueURL+`"],"PolicyDocument":`+doc+`}`),
	)
	reg := w.Accounts[0].Regions[0]
	reg.Stacks = []*sandbox.Stack{
		{Name: "App", TemplateBody: `{"Resources":{}}`, Resources: []*sandbox.Resource{
			{LogicalID: "Sub", Type: "AWS::SNS::Subscription", PhysicalID: subArn, Properties: json.RawMessage(`{"TopicArn":"` + topicArn + `","Protocol":"sqs","Endpoint":"` + queueArn + `","Arn":"` + subArn + `"}`)},
			{LogicalID: "Alias", Type: "AWS::Lambda::Alias", PhysicalID: aliasArn, Properties: json.RawMessage(`{"FunctionName":"Worker","Name":"live","FunctionVersion":"1","AliasArn":"` + aliasArn + `"}`)},
			{LogicalID: "Ver", Type: "AWS::Lambda::Version", PhysicalID: fnArn + ":1", Properties: json.RawMessage(`{"FunctionName":"Worker","Version":"1","FunctionArn":"` + fnArn + `:1"}`)},
			{LogicalID: "Perm", Type: "AWS::Lambda::Permission", PhysicalID: "App-Perm-1", Properties: json.RawMessage(`{"FunctionName":"` + fnArn + `","Action":"lambda:InvokeFunction","Principal":"sns.amazonaws.com","SourceArn":"` + topicArn + `"}`)},
		}},
		{Name: "Sibling", TemplateBody: `{"Resources":{}}`, Resources: []*sandbox.Resource{
			{LogicalID: "OtherPerm", Type: "AWS::Lambda::Permission", PhysicalID: "Sibling-Perm-1", Properties: json.RawMessage(`{"FunctionName":"Worker","Action":"lambda:InvokeFunction","Principal":"s3.amazonaws.com"}`)},
			{LogicalID: "QueueSub", Type: "AWS::SNS::Subscription", PhysicalID: otherSub, Properties: json.RawMessage(`{"TopicArn":"` + topicArn + `","Protocol":"sqs","Endpoint":"arn:aws:sqs:us-east-1:111111111111:Other","Arn":"` + otherSub + `"}`)},
		}},
	}
	return w
}

func TestEnumerate(t *testing.T) {
	_, url := serve(t, childrenWorld())
	c := live.NewClients(config(url))
	var policy map[string]any
	if err := jsonUnmarshal(doc, &policy); err != nil {
		t.Fatal(err)
	}
	stack := []live.StackResource{
		{LogicalID: "Topic", Type: "AWS::SNS::Topic", PhysicalID: topicArn},
		{LogicalID: "Sub", Type: "AWS::SNS::Subscription", PhysicalID: subArn},
		{LogicalID: "Fn", Type: "AWS::Lambda::Function", PhysicalID: "Worker"},
		{LogicalID: "Alias", Type: "AWS::Lambda::Alias", PhysicalID: aliasArn},
		{LogicalID: "Bucket", Type: "AWS::S3::Bucket", PhysicalID: bucket},
		{LogicalID: "Queue", Type: "AWS::SQS::Queue", PhysicalID: queueURL},
		{LogicalID: "Ver", Type: "AWS::Lambda::Version", PhysicalID: fnArn + ":1"},
		{LogicalID: "Perm", Type: "AWS::Lambda::Permission", PhysicalID: "App-Perm-1", Declared: map[string]any{"FunctionName": fnArn, "Action": "lambda:InvokeFunction", "Principal": "sns.amazonaws.com"}},
		// Deployed under another physical id than its statement's Sid: matched
		// by action and principal.
		{LogicalID: "Renamed", Type: "AWS::Lambda::Permission", PhysicalID: "Renamed-Sid", Declared: map[string]any{"FunctionName": "Worker", "Action": "lambda:InvokeFunction", "Principal": "events.amazonaws.com"}},
	}
	tests := []struct {
		name   string
		parent live.StackResource
		stack  []live.StackResource
		want   []live.Child
	}{
		{"topic: out-of-band subscription, declared and sibling-stack ones folded", stack[0], stack, []live.Child{
			{Type: "AWS::SNS::Subscription", Identifier: oobSub, Model: map[string]any{"TopicArn": topicArn, "Protocol": "email", "Endpoint": "eve@example.com", "Arn": oobSub}},
		}},
		{"topic: an inline subscription is declared", live.StackResource{LogicalID: "Topic", Type: "AWS::SNS::Topic", PhysicalID: topicArn,
			Declared: map[string]any{"Subscription": []any{map[string]any{"Protocol": "email", "Endpoint": "eve@example.com"}}}}, stack, nil},
		{"topic: an unresolved inline subscription stops the listing", live.StackResource{LogicalID: "Topic", Type: "AWS::SNS::Topic", PhysicalID: topicArn,
			Declared: map[string]any{"Subscription": []any{map[string]any{"Protocol": "sqs", "Endpoint": drift.Unknown{}}}}}, stack, nil},
		{"topic with only the AWS default policy", live.StackResource{LogicalID: "Quiet", Type: "AWS::SNS::Topic", PhysicalID: "arn:aws:sns:us-east-1:111111111111:Quiet"}, stack, nil},
		{"function: out-of-band alias, URL, mapping, version and permission; declared and sibling-stack ones folded", stack[2], stack, []live.Child{
			{Type: "AWS::Lambda::Alias", Identifier: oobAlias, Model: map[string]any{"FunctionName": "Worker", "Name": "canary", "FunctionVersion": "2", "AliasArn": oobAlias}},
			{Type: "AWS::Lambda::EventSourceMapping", Identifier: "9aed2c55-0000-0000-0000-000000000001", Model: map[string]any{"FunctionName": fnArn, "EventSourceArn": queueArn, "BatchSize": 10.0, "Id": "9aed2c55-0000-0000-0000-000000000001"}},
			{Type: "AWS::Lambda::Permission", Identifier: "oob-invoke", Model: map[string]any{"FunctionName": "Worker", "Action": "lambda:InvokeFunction", "Principal": "*"}},
			{Type: "AWS::Lambda::Url", Identifier: fnArn, Model: map[string]any{"TargetFunctionArn": "Worker", "AuthType": "NONE", "FunctionArn": fnArn, "FunctionUrl": "https://x.lambda-url.us-east-1.on.aws/"}},
			{Type: "AWS::Lambda::Version", Identifier: fnArn + ":3", Model: map[string]any{"FunctionName": "Worker", "Version": "3", "FunctionArn": fnArn + ":3"}},
		}},
		{"function: a permission whose statement fields are unresolved may be any statement", stack[2], append(stack[:len(stack):len(stack)],
			live.StackResource{LogicalID: "Open", Type: "AWS::Lambda::Permission", PhysicalID: "App-Perm-9", Declared: map[string]any{"FunctionName": "Worker", "Action": "lambda:InvokeFunction", "Principal": drift.Unknown{}}}), []live.Child{
			{Type: "AWS::Lambda::Alias", Identifier: oobAlias, Model: map[string]any{"FunctionName": "Worker", "Name": "canary", "FunctionVersion": "2", "AliasArn": oobAlias}},
			{Type: "AWS::Lambda::EventSourceMapping", Identifier: "9aed2c55-0000-0000-0000-000000000001", Model: map[string]any{"FunctionName": fnArn, "EventSourceArn": queueArn, "BatchSize": 10.0, "Id": "9aed2c55-0000-0000-0000-000000000001"}},
			{Type: "AWS::Lambda::Url", Identifier: fnArn, Model: map[string]any{"TargetFunctionArn": "Worker", "AuthType": "NONE", "FunctionArn": fnArn, "FunctionUrl": "https://x.lambda-url.us-east-1.on.aws/"}},
			{Type: "AWS::Lambda::Version", Identifier: fnArn + ":3", Model: map[string]any{"FunctionName": "Worker", "Version": "3", "FunctionArn": fnArn + ":3"}},
		}},
		{"bucket without a declared policy", stack[4], stack, []live.Child{
			{Type: "AWS::S3::BucketPolicy", Identifier: bucket, Model: map[string]any{"Bucket": bucket, "PolicyDocument": policy}},
		}},
		{"bucket with a declared policy", stack[4], append(stack, live.StackResource{LogicalID: "BP", Type: "AWS::S3::BucketPolicy", PhysicalID: bucket, Declared: map[string]any{"Bucket": bucket}}), nil},
		{"bucket whose declared policy target is unresolved", stack[4], append(stack, live.StackResource{LogicalID: "BP", Type: "AWS::S3::BucketPolicy", PhysicalID: "x", Declared: map[string]any{"Bucket": drift.Unknown{}}}), nil},
		{"queue without a declared policy", stack[5], stack, []live.Child{
			{Type: "AWS::SQS::QueuePolicy", Identifier: queueURL, Model: map[string]any{"Queues": []any{queueURL}, "PolicyDocument": policy}},
		}},
		{"queue with a declared policy", stack[5], append(stack, live.StackResource{LogicalID: "QP", Type: "AWS::SQS::QueuePolicy", PhysicalID: "qp", Declared: map[string]any{"Queues": []any{queueURL}}}), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := live.Enumerate(ctx(t), c, tt.parent, tt.stack)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("children (-got +want):\n%s", diff)
			}
		})
	}
}

func TestEnumerateFailureIsAReason(t *testing.T) {
	srv, url := serve(t, childrenWorld())
	c := live.NewClients(config(url))
	if err := srv.SetFaults([]sandbox.FaultRule{{Service: "sns", Action: "ListSubscriptionsByTopic", Code: "AuthorizationError", Status: 403}}); err != nil {
		t.Fatal(err)
	}
	_, err := live.Enumerate(ctx(t), c, live.StackResource{LogicalID: "Topic", Type: "AWS::SNS::Topic", PhysicalID: topicArn}, nil)
	var ee *live.EnumerateError
	if !asEnumerateError(err, &ee) {
		t.Fatalf("err = %v, want an EnumerateError", err)
	}
	if want := "enumerate children: SNS ListSubscriptionsByTopic: AuthorizationError"; len(ee.Reason) < len(want) || ee.Reason[:len(want)] != want {
		t.Errorf("reason %q, want prefix %q", ee.Reason, want)
	}
}
