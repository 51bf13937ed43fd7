package live_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/live"
	"github.com/realdrift/realdrift/internal/sandbox"
)

const (
	wQueueURL = "https://sqs.us-east-1.amazonaws.com/111111111111/wq"
	wTopic    = "arn:aws:sns:us-east-1:111111111111:wt"
	wManaged  = "arn:aws:iam::111111111111:policy/wm"
	wDoc      = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Action":"s3:GetObject","Resource":"*"}]}`
	// wTopicDoc is a topic policy: a resource policy names its principal,
	// or SNS cannot evaluate it (the sandbox refuses calls on the topic).
	wTopicDoc = `{"Version":"2012-10-17","Statement":[{"Effect":"Allow","Principal":{"AWS":"arn:aws:iam::111111111111:root"},"Action":"sns:Publish","Resource":"` + wTopic + `"}]}`
)

func writersWorld() *sandbox.World {
	return worldOf(
		liveOnly("AWS::SQS::Queue", wQueueURL, `{"QueueName":"wq","QueueUrl":"`+wQueueURL+`","VisibilityTimeout":60}`),
		liveOnly("AWS::S3::Bucket", "wb", `{"BucketName":"wb"}`),
		liveOnly("AWS::SNS::Topic", wTopic, `{"TopicName":"wt","TopicArn":"`+wTopic+`"}`),
		liveOnly("AWS::SNS::TopicPolicy", wTopic, `{"Topics":["`+wTopic+`"],"PolicyDocument":`+wTopicDoc+`}`),
		liveOnly("AWS::SNS::Subscription", wTopic+":s1", `{"TopicArn":"`+wTopic+`","Protocol":"email","Endpoint":"a@example.com","SubscriptionArn":"`+wTopic+`:s1"}`),
		liveOnly("AWS::IAM::Role", "wr", `{"RoleName":"wr","Policies":[{"PolicyName":"Default","PolicyDocument":`+wDoc+`},{"PolicyName":"rogue","PolicyDocument":`+wDoc+`}]}`),
		liveOnly("AWS::IAM::User", "wu", `{"UserName":"wu"}`),
		liveOnly("AWS::IAM::ManagedPolicy", wManaged, `{"ManagedPolicyName":"wm","PolicyArn":"`+wManaged+`","PolicyDocument":`+wDoc+`}`),
		liveOnly("AWS::Lambda::Function", "wf", `{"FunctionName":"wf","Arn":"arn:aws:lambda:us-east-1:111111111111:function:wf"}`),
		liveOnly("AWS::Lambda::Permission", "wp", `{"FunctionName":"wf","Action":"lambda:InvokeFunction","Principal":"999999999999"}`),
	)
}

func writers(t *testing.T, url string) *live.Writers {
	t.Helper()
	cfg := config(url)
	w := live.NewWriters(cfg, live.NewClients(cfg))
	w.Poll = time.Millisecond
	return w
}

func read(t *testing.T, c *live.Clients, r live.Request) map[string]any {
	t.Helper()
	res := live.Read(ctx(t), c, r)
	if res.Status != live.Found {
		t.Fatalf("read %s %s: %s %s", r.Type, r.PhysicalID, res.Status, res.Reason)
	}
	return res.Model
}

// TestWriters writes through every writer against the sandbox with the
// real SDK clients, and writes each twice: the second write succeeds
// and, for a patch, makes no write call (a delete of what is gone is a
// success).
func TestWriters(t *testing.T) {
	srv, url := serve(t, writersWorld())
	w := writers(t, url)
	c := ctx(t)
	twice := func(name string, write func() error, writeAPI string) {
		t.Helper()
		if err := write(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		before := srv.Calls().Requests[writeAPI]
		if err := write(); err != nil {
			t.Fatalf("%s again: %v", name, err)
		}
		if after := srv.Calls().Requests[writeAPI]; writeAPI != "" && after != before {
			t.Errorf("%s again made %d %s call(s)", name, after-before, writeAPI)
		}
	}

	twice("cloud control update", func() error {
		return w.UpdateCloudControl(c, "AWS::SQS::Queue", wQueueURL, []byte(`[{"op":"replace","path":"/VisibilityTimeout","value":30},{"op":"add","path":"/RedrivePolicy/maxReceiveCount","value":3}]`), "")
	}, "cloudcontrolapi:UpdateResource")
	q, _ := srv.Live("", region, "AWS::SQS::Queue", wQueueURL)
	if !strings.Contains(string(q), `"VisibilityTimeout":30`) || !strings.Contains(string(q), `"RedrivePolicy":{"maxReceiveCount":3}`) {
		t.Errorf("queue after update: %s", q)
	}

	bp := live.Target{Type: "AWS::S3::BucketPolicy", LogicalID: "BP", PhysicalID: "wb", Declared: map[string]any{"Bucket": "wb"}}
	twice("bucket policy", func() error {
		return w.WriteSDK(c, bp, []byte(`[{"op":"add","path":"/PolicyDocument","value":`+wDoc+`}]`), nil)
	}, "s3:PutBucketPolicy")
	if m := read(t, w.Read, live.Request{Type: bp.Type, PhysicalID: "wb", Declared: bp.Declared}); m["PolicyDocument"] == nil {
		t.Errorf("bucket policy not written: %v", m)
	}
	twice("bucket policy child delete", func() error { return w.DeleteChild(c, "AWS::S3::BucketPolicy", "wb", nil, "") }, "")

	qp := live.Target{Type: "AWS::SQS::QueuePolicy", LogicalID: "QP", PhysicalID: "qp", Declared: map[string]any{"Queues": []any{wQueueURL}}}
	twice("queue policy", func() error {
		return w.WriteSDK(c, qp, []byte(`[{"op":"replace","path":"/PolicyDocument","value":`+wDoc+`},{"op":"replace","path":"/Queues","value":["`+wQueueURL+`"]}]`), nil)
	}, "sqs:SetQueueAttributes")
	if err := w.DeleteChild(c, "AWS::SQS::QueuePolicy", wQueueURL, nil, ""); err != nil {
		t.Fatal(err)
	}
	if _, ok := srv.Live("", region, "AWS::SQS::QueuePolicy", wQueueURL); ok {
		t.Error("queue policy left after the delete")
	}

	twice("topic policy child delete", func() error {
		err := w.DeleteChild(c, "AWS::SNS::TopicPolicy", wTopic, nil, "")
		return err
	}, "")
	tp, _ := srv.Live("", region, "AWS::SNS::TopicPolicy", wTopic)
	if !strings.Contains(string(tp), "__default_policy_ID") {
		t.Errorf("topic policy after delete: %s", tp)
	}

	twice("subscription delete", func() error { return w.DeleteChild(c, "AWS::SNS::Subscription", wTopic+":s1", nil, "") }, "")
	if _, ok := srv.Live("", region, "AWS::SNS::Subscription", wTopic+":s1"); ok {
		t.Error("subscription left after the delete")
	}

	// An inline policy on a user: put, then the user leaves the list.
	ip := live.Target{Type: "AWS::IAM::Policy", LogicalID: "IP", PhysicalID: "ip", Declared: map[string]any{"PolicyName": "p1", "Users": []any{"wu"}}}
	twice("inline policy", func() error {
		return w.WriteSDK(c, ip, []byte(`[{"op":"add","path":"/PolicyDocument","value":`+wDoc+`},{"op":"add","path":"/Users","value":["wu"]}]`), nil)
	}, "iam:PutUserPolicy")
	if m := read(t, w.Read, live.Request{Type: ip.Type, PhysicalID: "ip", Declared: ip.Declared}); len(m["Users"].([]any)) != 1 {
		t.Errorf("inline policy: %v", m)
	}

	// A managed policy at the five-version cap: the oldest goes first.
	doc := func(i int) string { return strings.Replace(wDoc, "s3:GetObject", "s3:Get"+string(rune('A'+i)), 1) }
	mp := live.Target{Type: "AWS::IAM::ManagedPolicy", LogicalID: "MP", PhysicalID: wManaged}
	for i := range 6 {
		if err := w.WriteSDK(c, mp, []byte(`[{"op":"replace","path":"/PolicyDocument","value":`+doc(i)+`}]`), nil); err != nil {
			t.Fatalf("managed policy version %d: %v", i, err)
		}
	}
	if got := srv.Calls().Requests["iam:DeletePolicyVersion"]; got != 2 {
		t.Errorf("DeletePolicyVersion calls: %d, want 2", got)
	}
	if m := read(t, w.Read, live.Request{Type: mp.Type, PhysicalID: wManaged}); !strings.Contains(mustJSON(m["PolicyDocument"]), "s3:GetF") {
		t.Errorf("managed policy document: %v", m["PolicyDocument"])
	}

	// A permission rebuilt with the target principal, then removed.
	perm := live.Target{Type: "AWS::Lambda::Permission", LogicalID: "P", PhysicalID: "wp", Declared: map[string]any{"FunctionName": "wf", "Action": "lambda:InvokeFunction", "Principal": "s3.amazonaws.com"}}
	twice("permission", func() error {
		return w.WriteSDK(c, perm, []byte(`[{"op":"replace","path":"/Principal","value":"s3.amazonaws.com"}]`), nil)
	}, "lambda:AddPermission")
	if m := read(t, w.Read, live.Request{Type: perm.Type, PhysicalID: "wp", Declared: perm.Declared}); m["Principal"] != "s3.amazonaws.com" {
		t.Errorf("permission: %v", m)
	}
	twice("permission child delete", func() error {
		return w.DeleteChild(c, "AWS::Lambda::Permission", "wp", map[string]any{"FunctionName": "wf"}, "")
	}, "")

	// A role's rogue inline policy goes; the entry the finding did not
	// show (the stack's own policy) stays.
	role := live.Target{Type: "AWS::IAM::Role", LogicalID: "R", PhysicalID: "wr"}
	prior := []any{map[string]any{"PolicyName": "rogue", "PolicyDocument": map[string]any{}}}
	twice("role policies", func() error {
		return w.WriteSDK(c, role, []byte(`[{"op":"remove","path":"/Policies"}]`), prior)
	}, "")
	r, _ := srv.Live("", region, "AWS::IAM::Role", "wr")
	if strings.Contains(string(r), "rogue") || !strings.Contains(string(r), "Default") {
		t.Errorf("role after the revert: %s", r)
	}
}

// TestUpdateCloudControlFailure: a request that ends FAILED is a
// *live.RequestError with the handler's code.
func TestUpdateCloudControlFailure(t *testing.T) {
	_, url := serve(t, writersWorld())
	w := writers(t, url)
	err := w.UpdateCloudControl(ctx(t), "AWS::SQS::Queue", wQueueURL, []byte(`[{"op":"replace","path":"/VisibilityTimeout/x","value":1}]`), "")
	if err == nil {
		t.Fatal("a patch that does not apply succeeded")
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
