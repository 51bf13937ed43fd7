package live_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
)

const (
	bucket   = "data-bucket-1"
	queueURL = "https://sqs.us-east-1.amazonaws.com/111111111111/Work-Q"
	queueArn = "arn:aws:sqs:us-east-1:111111111111:Work-Q"
	topicArn = "arn:aws:sns:us-east-1:111111111111:Alerts"
	fnArn    = "arn:aws:lambda:us-east-1:111111111111:function:Worker"
	managed  = "arn:aws:iam::111111111111:policy/Shared"
)

const doc = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}`

// topicDoc is a topic policy: a resource policy names its principal, or
// SNS cannot evaluate it (the sandbox refuses calls on the topic).
const topicDoc = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111111111111:root"},"Action":"sns:Publish","Resource":"` + topicArn + `"}]}`

func readersWorld() *sandbox.World {
	return worldOf(
		liveOnly("AWS::S3::Bucket", bucket, `{"BucketName":"`+bucket+`"}`),
		liveOnly("AWS::S3::BucketPolicy", bucket, `{"Bucket":"`+bucket+`","PolicyDocument":`+doc+`}`),
		liveOnly("AWS::S3::Bucket", "bare-bucket", `{"BucketName":"bare-bucket"}`),
		liveOnly("AWS::SQS::Queue", queueURL, `{"QueueName":"Work-Q","QueueUrl":"`+queueURL+`","Arn":"`+queueArn+`","VisibilityTimeout":30}`),
		liveOnly("AWS::SQS::QueuePolicy", "Stack-QP-1", `{"Queues":["`+queueURL+`"],"PolicyDocument":`+doc+`}`),
		liveOnly("AWS::SNS::Topic", topicArn, `{"TopicArn":"`+topicArn+`","TopicName":"Alerts"}`),
		liveOnly("AWS::SNS::TopicPolicy", "Stack-TP-1", `{"Topics":["`+topicArn+`"],"PolicyDocument":`+topicDoc+`}`),
		liveOnly("AWS::IAM::Role", "Worker-Role", `{"RoleName":"Worker-Role","Arn":"arn:aws:iam::111111111111:role/Worker-Role"}`),
		liveOnly("AWS::IAM::Role", "Other-Role", `{"RoleName":"Other-Role","ManagedPolicyArns":["`+managed+`"]}`),
		liveOnly("AWS::IAM::Policy", "Stack-Inl-1", `{"PolicyName":"Inline","Roles":["Worker-Role"],"PolicyDocument":`+doc+`}`),
		liveOnly("AWS::IAM::ManagedPolicy", managed, `{"Description":"shared","Path":"/","Roles":["Worker-Role"],"PolicyDocument":`+doc+`}`),
		liveOnly("AWS::Lambda::Function", "Worker", `{"FunctionName":"Worker","Arn":"`+fnArn+`"}`),
		liveOnly("AWS::Lambda::Permission", "Stack-Perm-1", `{"FunctionName":"`+fnArn+`","Action":"lambda:InvokeFunction","Principal":"sns.amazonaws.com","SourceArn":"`+topicArn+`"}`),
		liveOnly("AWS::Lambda::Permission", "Stack-Perm-2", `{"FunctionName":"Worker","Action":"lambda:InvokeFunction","Principal":"111111111111","SourceAccount":"111111111111"}`),
		liveOnly("AWS::MediaConvert::Preset", "cls", `{"Name":"cls"}`),
	)
}

func TestRead(t *testing.T) {
	_, url := serve(t, readersWorld())
	c := live.NewClients(config(url))
	var policy, topicPolicy map[string]any
	if err := jsonUnmarshal(doc, &policy); err != nil {
		t.Fatal(err)
	}
	if err := jsonUnmarshal(topicDoc, &topicPolicy); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		req  live.Request
		want live.Result
	}{
		{"cloud control", live.Request{Type: "AWS::SQS::Queue", PhysicalID: queueURL},
			live.Result{Status: live.Found, Route: live.RouteCloudControl, Model: map[string]any{"QueueName": "Work-Q", "QueueUrl": queueURL, "Arn": queueArn, "VisibilityTimeout": 30.0}}},
		{"cloud control not found", live.Request{Type: "AWS::SQS::Queue", PhysicalID: queueURL + "-gone"},
			live.Result{Status: live.NotFound, Route: live.RouteCloudControl}},
		{"cloud control gap", live.Request{Type: "AWS::MediaConvert::Preset", PhysicalID: "cls"},
			live.Result{Status: live.Skipped, Route: live.RouteCloudControl}},
		{"no read handler: no call", live.Request{Type: "AWS::MediaConvert::Preset", PhysicalID: "cls", Facts: &schema.Facts{Handlers: []string{"create", "delete"}}},
			live.Result{Status: live.Skipped, Route: live.RouteNone}},
		{"custom resource: no call, nothing to read", live.Request{Type: "Custom::Thing", PhysicalID: "x"},
			live.Result{Status: live.NothingToRead, Route: live.RouteNone}},
		{"bucket policy", live.Request{Type: "AWS::S3::BucketPolicy", PhysicalID: bucket, Declared: map[string]any{"Bucket": bucket}},
			live.Result{Status: live.Found, Route: live.RouteOverride, Model: map[string]any{"Bucket": bucket, "PolicyDocument": policy}}},
		{"bucket policy gone", live.Request{Type: "AWS::S3::BucketPolicy", PhysicalID: "bare-bucket", Declared: map[string]any{"Bucket": "bare-bucket"}},
			live.Result{Status: live.NotFound, Route: live.RouteOverride}},
		{"queue policy", live.Request{Type: "AWS::SQS::QueuePolicy", PhysicalID: "Stack-QP-1", Declared: map[string]any{"Queues": []any{queueURL}}},
			live.Result{Status: live.Found, Route: live.RouteOverride, Model: map[string]any{"Queues": []any{queueURL}, "PolicyDocument": policy}}},
		{"queue policy waits on an unresolved queue", live.Request{Type: "AWS::SQS::QueuePolicy", PhysicalID: "Stack-QP-1", Declared: map[string]any{"Queues": []any{drift.Unknown{Reason: "GetAtt"}}}},
			live.Result{Status: live.Skipped, Route: live.RouteOverride, Waiting: true}},
		{"topic policy", live.Request{Type: "AWS::SNS::TopicPolicy", PhysicalID: "Stack-TP-1", Declared: map[string]any{"Topics": []any{topicArn}}},
			live.Result{Status: live.Found, Route: live.RouteOverride, Model: map[string]any{"Topics": []any{topicArn}, "PolicyDocument": topicPolicy}}},
		{"inline policy", live.Request{Type: "AWS::IAM::Policy", PhysicalID: "Stack-Inl-1", Declared: map[string]any{"PolicyName": "Inline", "Roles": []any{"Worker-Role", "Other-Role"}}},
			live.Result{Status: live.Found, Route: live.RouteOverride, Model: map[string]any{"PolicyName": "Inline", "Roles": []any{"Worker-Role"}, "PolicyDocument": policy}}},
		{"inline policy gone", live.Request{Type: "AWS::IAM::Policy", PhysicalID: "Stack-Inl-9", Declared: map[string]any{"PolicyName": "Missing", "Roles": []any{"Worker-Role"}}},
			live.Result{Status: live.NotFound, Route: live.RouteOverride}},
		{"managed policy with an attachment made elsewhere", live.Request{Type: "AWS::IAM::ManagedPolicy", PhysicalID: managed, Declared: map[string]any{"Roles": []any{"Worker-Role"}}},
			live.Result{Status: live.Found, Route: live.RouteOverride, Model: map[string]any{"Description": "shared", "Path": "/", "Roles": []any{"Worker-Role", "Other-Role"}, "Users": []any{}, "Groups": []any{}, "PolicyDocument": policy}}},
		{"permission by sid", live.Request{Type: "AWS::Lambda::Permission", PhysicalID: "Stack-Perm-1", Declared: map[string]any{"FunctionName": fnArn, "Action": "lambda:InvokeFunction", "Principal": "sns.amazonaws.com"}},
			live.Result{Status: live.Found, Route: live.RouteOverride, Model: map[string]any{"FunctionName": fnArn, "Action": "lambda:InvokeFunction", "Principal": "sns.amazonaws.com", "SourceArn": topicArn}}},
		{"permission by action and principal, account principal", live.Request{Type: "AWS::Lambda::Permission", PhysicalID: "Renamed-Sid", Declared: map[string]any{"FunctionName": "Worker", "Action": "lambda:InvokeFunction", "Principal": "111111111111"}},
			live.Result{Status: live.Found, Route: live.RouteOverride, Model: map[string]any{"FunctionName": "Worker", "Action": "lambda:InvokeFunction", "Principal": "111111111111", "SourceAccount": "111111111111"}}},
		{"permission removed", live.Request{Type: "AWS::Lambda::Permission", PhysicalID: "Stack-Perm-9", Declared: map[string]any{"FunctionName": "Worker", "Action": "lambda:InvokeFunction", "Principal": "events.amazonaws.com"}},
			live.Result{Status: live.NotFound, Route: live.RouteOverride}},
		{"permission waits on its function", live.Request{Type: "AWS::Lambda::Permission", PhysicalID: "Stack-Perm-1", Declared: map[string]any{"FunctionName": drift.Unknown{Reason: "GetAtt Fn.Arn"}}},
			live.Result{Status: live.Skipped, Route: live.RouteOverride, Waiting: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := live.Read(ctx(t), c, tt.req)
			if got.Status != live.Found && got.Reason == "" {
				t.Errorf("%s result without a reason", got.Status)
			}
			got.Reason = ""
			if diff := cmp.Diff(got, tt.want); diff != "" {
				t.Errorf("result (-got +want):\n%s", diff)
			}
		})
	}
}

func TestReadFailuresAreSkipped(t *testing.T) {
	srv, url := serve(t, readersWorld())
	c := live.NewClients(config(url))
	for _, f := range []sandbox.FaultRule{
		{Service: "cloudcontrolapi", Action: "GetResource", Code: "AccessDeniedException", Status: 403},
		{Service: "cloudcontrolapi", Action: "GetResource", Code: "ThrottlingException", Status: 400},
		{Service: "cloudcontrolapi", Action: "GetResource", Code: "InternalFailure"},
	} {
		t.Run(f.Code, func(t *testing.T) {
			if err := srv.SetFaults([]sandbox.FaultRule{f}); err != nil {
				t.Fatal(err)
			}
			got := live.Read(ctx(t), c, live.Request{Type: "AWS::SQS::Queue", PhysicalID: queueURL})
			if got.Status != live.Skipped || got.Model != nil {
				t.Fatalf("got %+v, want skipped", got)
			}
			if want := "CloudControl GetResource: " + f.Code; len(got.Reason) < len(want) || got.Reason[:len(want)] != want {
				t.Errorf("reason %q, want it to start with %q", got.Reason, want)
			}
		})
	}
}
