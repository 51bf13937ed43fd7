package scan_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/internal/scan"
)

const (
	acct   = "111111111111"
	region = "us-east-1"
	key    = "AKIATEST000000000001"
)

// startSandbox serves w over loopback HTTP and returns the server and its URL.
func startSandbox(t *testing.T, w *sandbox.World) (*sandbox.Server, string) {
	t.Helper()
	return sandboxtest.Serve(t, w, sandbox.Options{})
}

// clients builds the production clients for the sandbox at url.
func clients(t *testing.T, url, accessKey string) *scan.Clients {
	t.Helper()
	return clientsIn(t, url, accessKey, region)
}

// clientsIn builds the production clients for one region of the sandbox.
func clientsIn(t *testing.T, url, accessKey, region string) *scan.Clients {
	t.Helper()
	cfg, err := scan.Config(testCtx(t), scan.Settings{Region: region, EndpointURL: url, AccessKeyID: accessKey, SecretAccessKey: "secret"})
	if err != nil {
		t.Fatal(err)
	}
	return scan.NewClients(cfg)
}

func testCtx(t *testing.T) context.Context {
	t.Helper()
	return sandboxtest.Context(t, 3*time.Minute)
}

func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// res is a stack resource with its template properties and live model.
type res struct {
	logical, typ, physical string
	props                  map[string]any // template properties (long form)
	live                   map[string]any // live model; nil = no live model
	deleted                bool
}

// world builds a one-account world with one stack of rs plus live-only
// resources.
func world(t testing.TB, stackName string, rs []res, liveOnly []*sandbox.Resource) *sandbox.World {
	t.Helper()
	resources := map[string]any{}
	var stackRes []*sandbox.Resource
	for _, r := range rs {
		entry := map[string]any{"Type": r.typ}
		if r.props != nil {
			entry["Properties"] = r.props
		}
		resources[r.logical] = entry
		sr := &sandbox.Resource{LogicalID: r.logical, Type: r.typ, PhysicalID: r.physical, Deleted: r.deleted}
		if r.live != nil {
			sr.Properties = mustJSON(t, r.live)
		}
		stackRes = append(stackRes, sr)
	}
	body := mustJSON(t, map[string]any{"Resources": resources})
	return &sandbox.World{
		DefaultAccount: acct,
		CCGaps:         []string{"AWS::IAM::Policy", "AWS::Lambda::Permission", "AWS::S3::BucketPolicy", "AWS::SNS::TopicPolicy", "AWS::SQS::QueuePolicy", "AWS::IAM::ManagedPolicy"},
		Accounts: []*sandbox.Account{{
			ID: acct, AccessKeys: []sandbox.AccessKey{{ID: key, UserName: "tester"}},
			Regions: []*sandbox.Region{{
				Name:      region,
				Stacks:    []*sandbox.Stack{{Name: stackName, TemplateBody: string(body), Resources: stackRes, Tags: []sandbox.Tag{{Key: "team", Value: "core"}}}},
				Resources: liveOnly,
			}},
		}},
	}
}

func ref(id string) map[string]any       { return map[string]any{"Ref": id} }
func getAtt(id, a string) map[string]any { return map[string]any{"Fn::GetAtt": []any{id, a}} }

func policyDoc(action, resource string) map[string]any {
	return map[string]any{"Version": "2012-10-17", "Statement": []any{map[string]any{
		"Effect": "Allow", "Principal": map[string]any{"Service": "sns.amazonaws.com"}, "Action": action, "Resource": resource,
	}}}
}

// appStack is a small application: bucket + policy, queue + policy, topic
// with a subscription, a function with a permission that waits on a GetAtt
// (pass 1.5), a role with inline and managed policies, a custom resource and
// a queue deleted out of band.
func appStack() ([]res, []*sandbox.Resource) {
	const (
		bucket    = "app-data-1"
		logs      = "app-logs-1"
		queueURL  = "https://sqs.us-east-1.amazonaws.com/111111111111/App-Queue-A"
		queueArn  = "arn:aws:sqs:us-east-1:111111111111:App-Queue-A"
		goneURL   = "https://sqs.us-east-1.amazonaws.com/111111111111/App-Gone-B"
		topicArn  = "arn:aws:sns:us-east-1:111111111111:App-Topic-C"
		subArn    = topicArn + ":0c0c0c0c-1111-2222-3333-444444444444"
		oobSubArn = topicArn + ":0d0d0d0d-1111-2222-3333-444444444444"
		fnArn     = "arn:aws:lambda:us-east-1:111111111111:function:App-Fn-D"
		roleArn   = "arn:aws:iam::111111111111:role/App-Role-E"
		managed   = "arn:aws:iam::111111111111:policy/App-Managed-F"
	)
	bucketDoc := policyDoc("s3:GetObject", "arn:aws:s3:::"+bucket+"/*")
	queueDoc := policyDoc("sqs:SendMessage", queueArn)
	inlineDoc := map[string]any{"Version": "2012-10-17", "Statement": []any{map[string]any{"Effect": "Allow", "Action": "sqs:*", "Resource": queueArn}}}
	trust := map[string]any{"Version": "2012-10-17", "Statement": []any{map[string]any{"Effect": "Allow", "Principal": map[string]any{"Service": "lambda.amazonaws.com"}, "Action": "sts:AssumeRole"}}}
	rs := []res{
		{"Bucket", "AWS::S3::Bucket", bucket, map[string]any{"BucketName": bucket},
			map[string]any{"BucketName": bucket, "Arn": "arn:aws:s3:::" + bucket}, false},
		{"BucketPolicy", "AWS::S3::BucketPolicy", bucket, map[string]any{"Bucket": ref("Bucket"), "PolicyDocument": bucketDoc},
			map[string]any{"Bucket": bucket, "PolicyDocument": bucketDoc}, false},
		{"LogsBucket", "AWS::S3::Bucket", logs, map[string]any{"BucketName": logs},
			map[string]any{"BucketName": logs, "Arn": "arn:aws:s3:::" + logs}, false},
		{"Queue", "AWS::SQS::Queue", queueURL, map[string]any{"VisibilityTimeout": 30.0},
			map[string]any{"QueueName": "App-Queue-A", "QueueUrl": queueURL, "Arn": queueArn, "VisibilityTimeout": 60}, false},
		{"QueuePolicy", "AWS::SQS::QueuePolicy", "App-QueuePolicy-G", map[string]any{"Queues": []any{ref("Queue")}, "PolicyDocument": queueDoc},
			map[string]any{"Queues": []any{queueURL}, "PolicyDocument": queueDoc}, false},
		{"Gone", "AWS::SQS::Queue", goneURL, nil,
			map[string]any{"QueueName": "App-Gone-B", "QueueUrl": goneURL}, true},
		{"Topic", "AWS::SNS::Topic", topicArn, nil,
			map[string]any{"TopicArn": topicArn, "TopicName": "App-Topic-C"}, false},
		{"Sub", "AWS::SNS::Subscription", subArn, map[string]any{"TopicArn": ref("Topic"), "Protocol": "sqs", "Endpoint": getAtt("Queue", "Arn")},
			map[string]any{"TopicArn": topicArn, "Protocol": "sqs", "Endpoint": queueArn, "Arn": subArn}, false},
		{"Role", "AWS::IAM::Role", "App-Role-E", map[string]any{"AssumeRolePolicyDocument": trust},
			map[string]any{"RoleName": "App-Role-E", "Arn": roleArn, "AssumeRolePolicyDocument": trust}, false},
		{"RolePolicy", "AWS::IAM::Policy", "App-RoleP-H", map[string]any{"PolicyName": "RolePolicy", "Roles": []any{ref("Role")}, "PolicyDocument": inlineDoc},
			map[string]any{"PolicyName": "RolePolicy", "Roles": []any{"App-Role-E"}, "PolicyDocument": inlineDoc}, false},
		{"Managed", "AWS::IAM::ManagedPolicy", managed, map[string]any{"Description": "", "Path": "/", "Roles": []any{ref("Role")}, "PolicyDocument": inlineDoc},
			map[string]any{"Description": "", "Path": "/", "Roles": []any{"App-Role-E"}, "PolicyDocument": inlineDoc}, false},
		{"Fn", "AWS::Lambda::Function", "App-Fn-D", map[string]any{"Role": getAtt("Role", "Arn")},
			map[string]any{"FunctionName": "App-Fn-D", "Arn": fnArn, "Role": roleArn}, false},
		{"FnPermission", "AWS::Lambda::Permission", "App-FnPermission-I",
			map[string]any{"FunctionName": getAtt("Fn", "Arn"), "Action": "lambda:InvokeFunction", "Principal": "sns.amazonaws.com", "SourceArn": ref("Topic")},
			map[string]any{"FunctionName": fnArn, "Action": "lambda:InvokeFunction", "Principal": "sns.amazonaws.com", "SourceArn": topicArn}, false},
		{"Hook", "Custom::Hook", "hook-1", map[string]any{"ServiceToken": getAtt("Fn", "Arn")}, nil, false},
	}
	liveOnly := []*sandbox.Resource{
		{Type: "AWS::SNS::Subscription", PhysicalID: oobSubArn, Properties: json.RawMessage(`{"TopicArn":"` + topicArn + `","Protocol":"email","Endpoint":"eve@example.com","Arn":"` + oobSubArn + `"}`)},
		{Type: "AWS::S3::BucketPolicy", PhysicalID: logs, Properties: json.RawMessage(`{"Bucket":"` + logs + `","PolicyDocument":{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":"*","Action":"s3:GetObject","Resource":"arn:aws:s3:::` + logs + `/*"}]}}`)},
		{Type: "AWS::Lambda::Alias", PhysicalID: fnArn + ":live", Properties: json.RawMessage(`{"FunctionName":"App-Fn-D","Name":"live","FunctionVersion":"1","AliasArn":"` + fnArn + `:live"}`)},
	}
	return rs, liveOnly
}

func TestCheckAppStack(t *testing.T) {
	rs, liveOnly := appStack()
	srv, url := startSandbox(t, world(t, "App", rs, liveOnly))
	c := clients(t, url, key)
	got, err := scan.Check(testCtx(t), c, drift.StackRef{Region: region, Name: "App"}, scan.Options{Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	if got.Desired.Stack.Account != acct {
		t.Errorf("account = %q, want it from the stack id", got.Desired.Stack.Account)
	}
	if got.Desired.StackTags["team"] != "core" {
		t.Errorf("stack tags = %v", got.Desired.StackTags)
	}
	// The permission's FunctionName is a GetAtt: pass 1 waits, pass 1.5 reads.
	if l := got.Lives["FnPermission"]; l.Status.String() != "found" {
		t.Errorf("FnPermission: %+v, want found after pass 1.5", l)
	}
	for _, id := range []string{"BucketPolicy", "QueuePolicy", "RolePolicy", "Managed", "Sub", "Fn"} {
		if l := got.Lives[id]; l.Status.String() != "found" {
			t.Errorf("%s: %+v, want found", id, l)
		}
	}

	type key struct{ tier, logical, physical, path string }
	seen := map[key]drift.Finding{}
	for _, f := range got.Findings {
		seen[key{f.Tier.String(), f.LogicalID, f.PhysicalID, f.Path}] = f
		t.Logf("finding: %s %s %s %q reason=%q", f.Tier, f.LogicalID, f.PhysicalID, f.Path, f.Reason)
	}
	want := []key{
		{"deleted", "Gone", "https://sqs.us-east-1.amazonaws.com/111111111111/App-Gone-B", ""},
		{"nothingToRead", "Hook", "hook-1", ""},
		{"added", "Topic/Subscription", "arn:aws:sns:us-east-1:111111111111:App-Topic-C:0d0d0d0d-1111-2222-3333-444444444444", ""},
		{"added", "LogsBucket/BucketPolicy", "app-logs-1", ""},
		{"added", "Fn/Alias", "arn:aws:lambda:us-east-1:111111111111:function:App-Fn-D:live", ""},
		{"declared", "Queue", "https://sqs.us-east-1.amazonaws.com/111111111111/App-Queue-A", "VisibilityTimeout"},
	}
	for _, k := range want {
		if _, ok := seen[k]; !ok {
			t.Errorf("missing finding %+v", k)
		}
	}
	// Nothing else is added, deleted or skipped, and the policies are clean.
	for k := range seen {
		switch k.tier {
		case "added", "deleted", "skipped":
			found := false
			for _, w := range want {
				found = found || w == k
			}
			if !found {
				t.Errorf("unexpected finding %+v", k)
			}
		case "declared", "undeclared":
			switch k.logical {
			case "BucketPolicy", "QueuePolicy", "RolePolicy", "Managed", "FnPermission", "Sub":
				t.Errorf("override/declared child not clean: %+v", k)
			}
		}
	}
	added := seen[key{"added", "Topic/Subscription", "arn:aws:sns:us-east-1:111111111111:App-Topic-C:0d0d0d0d-1111-2222-3333-444444444444", ""}]
	if m, _ := added.Actual.(map[string]any); m["Endpoint"] != "eve@example.com" {
		t.Errorf("added subscription not read in full: %#v", added.Actual)
	}
	if st := srv.Calls(); st.MaxInFlight > 3 {
		t.Errorf("max in flight %d > concurrency 3", st.MaxInFlight)
	}
}

// TestStepsRoundTripThroughJSON runs the pipeline the way the Lambdas do:
// every step's output goes through JSON before the next step reads it, and
// the findings equal the in-process Check's.
func TestStepsRoundTripThroughJSON(t *testing.T) {
	rs, liveOnly := appStack()
	_, url := startSandbox(t, world(t, "App", rs, liveOnly))
	c := clients(t, url, key)
	ctx := testCtx(t)
	ref := drift.StackRef{Region: region, Name: "App"}
	want, err := scan.Check(ctx, c, ref, scan.Options{})
	if err != nil {
		t.Fatal(err)
	}

	roundTrip := func(in, out any) {
		t.Helper()
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, out); err != nil {
			t.Fatal(err)
		}
	}
	d0, err := scan.LoadDesired(ctx, c, ref)
	if err != nil {
		t.Fatal(err)
	}
	var d scan.Desired
	roundTrip(d0, &d)
	lives := map[string]live.Result{}
	for _, r := range d.Resources {
		var res live.Result
		roundTrip(scan.ReadResource(ctx, c, r, nil), &res)
		lives[r.LogicalID] = res
	}
	reread, err := scan.Resolve(&d, lives)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(reread, []string{"FnPermission"}); diff != "" {
		t.Errorf("pass 1.5 (-got +want):\n%s", diff)
	}
	var d2 scan.Desired
	roundTrip(&d, &d2)
	for _, id := range reread {
		for _, r := range d2.Resources {
			if r.LogicalID == id {
				var res live.Result
				roundTrip(scan.ReadResource(ctx, c, r, nil), &res)
				lives[id] = res
			}
		}
	}
	var children []scan.Children
	for _, r := range d2.Resources {
		if scan.HasChildren(r) && lives[r.LogicalID].Status == live.Found {
			var ch scan.Children
			roundTrip(scan.EnumerateChildren(ctx, c, r, &d2), &ch)
			children = append(children, ch)
		}
	}
	reg, err := c.Schema()
	if err != nil {
		t.Fatal(err)
	}
	facts, err := scan.LookupFacts(ctx, reg, &d2, 4)
	if err != nil {
		t.Fatal(err)
	}
	got := scan.ClassifyStack(&d2, lives, children, facts, scan.Classifier())
	if diff := cmp.Diff(canon(t, got), canon(t, want.Findings)); diff != "" {
		t.Errorf("step-by-step findings differ from Check (-steps +check):\n%s", diff)
	}
}
