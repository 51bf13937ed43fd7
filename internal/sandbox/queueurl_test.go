package sandbox_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
)

// TestLocalQueueURLs: with LocalQueueURLs every answer names a queue at
// the sandbox, so a client that sends SQS calls to the queue's own URL (as
// the JavaScript SDK does) reaches the sandbox; those URLs are read back
// as the world's in every request; without the option the world's AWS
// URLs are answered unchanged.
func TestLocalQueueURLs(t *testing.T) {
	const aws_ = "https://sqs.us-east-1.amazonaws.com/111111111111/App-Queue-ABC"
	physical := func(endpoint string) string {
		t.Helper()
		out, err := cloudformation.NewFromConfig(cfg(endpoint, mgmtKey, "us-east-1")).DescribeStackResources(ctx(t),
			&cloudformation.DescribeStackResourcesInput{StackName: aws.String("App"), LogicalResourceId: aws.String("Queue")})
		if err != nil || len(out.StackResources) != 1 {
			t.Fatalf("DescribeStackResources: %v %v", out, err)
		}
		return aws.ToString(out.StackResources[0].PhysicalResourceId)
	}
	w := sandboxtest.LoadWorld(t, "testdata/world.json")
	_, plain := startWorld(t, w, sandbox.Options{})
	if got := physical(plain); got != aws_ {
		t.Errorf("without LocalQueueURLs: %s, want the world's %s", got, aws_)
	}

	w = sandboxtest.LoadWorld(t, "testdata/world.json")
	_, endpoint := startWorld(t, w, sandbox.Options{LocalQueueURLs: true})
	local := physical(endpoint)
	want := endpoint + "/queues/us-east-1/111111111111/App-Queue-ABC"
	if local != want {
		t.Fatalf("physical id %s, want %s", local, want)
	}
	// Route by the queue URL: the client's endpoint is the URL's host.
	u, err := url.Parse(local)
	if err != nil {
		t.Fatal(err)
	}
	byURL := sqs.NewFromConfig(cfg(u.Scheme+"://"+u.Host, mgmtKey, "us-east-1"))
	attrs, err := byURL.GetQueueAttributes(ctx(t), &sqs.GetQueueAttributesInput{QueueUrl: aws.String(local), AttributeNames: []types.QueueAttributeName{"All"}})
	if err != nil {
		t.Fatalf("GetQueueAttributes at the queue's URL: %v", err)
	}
	if attrs.Attributes["QueueArn"] != "arn:aws:sqs:us-east-1:111111111111:App-Queue-ABC" {
		t.Errorf("attributes %v", attrs.Attributes)
	}
	// Cloud Control by the local URL, and its model names the local URL.
	cc := cloudcontrol.NewFromConfig(cfg(endpoint, mgmtKey, "us-east-1"))
	got, err := cc.GetResource(ctx(t), &cloudcontrol.GetResourceInput{TypeName: aws.String("AWS::SQS::Queue"), Identifier: aws.String(local)})
	if err != nil {
		t.Fatalf("GetResource by the local URL: %v", err)
	}
	if id := aws.ToString(got.ResourceDescription.Identifier); id != local {
		t.Errorf("identifier %s, want %s", id, local)
	}
	if props := aws.ToString(got.ResourceDescription.Properties); strings.Contains(props, "amazonaws.com/111111111111") {
		t.Errorf("model names an AWS queue URL: %s", props)
	}
}
