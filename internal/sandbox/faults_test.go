package sandbox_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"

	"github.com/realdrift/realdrift/internal/deadlinetest"
	"github.com/realdrift/realdrift/internal/sandbox"
)

// A hang rule holds the matching call until the client gives up; Match
// narrows a rule to the calls naming one resource, so others answer.
func TestFaultHangAndMatch(t *testing.T) {
	srv, u := start(t, "testdata/world.json", sandbox.Options{})
	conf := cfg(u, mgmtKey, "us-east-1")
	conf.Retryer = func() aws.Retryer { return aws.NopRetryer{} }
	cc := cloudcontrol.NewFromConfig(conf)
	get := func(ctx context.Context, id string) error {
		_, err := cc.GetResource(ctx, &cloudcontrol.GetResourceInput{TypeName: aws.String("AWS::SQS::Queue"), Identifier: aws.String(id)})
		return err
	}
	const hung, other = "https://sqs.us-east-1.amazonaws.com/111111111111/App-Queue-ABC", "https://sqs.us-east-1.amazonaws.com/111111111111/App-Queue2-DEF"
	if err := srv.SetFaults([]sandbox.FaultRule{
		{Service: "cloudcontrolapi", Action: "GetResource", Match: "App-Queue-ABC", Hang: true},
		{Service: "cloudcontrolapi", Action: "GetResource", Match: "App-Queue3-GHI", Code: "AccessDeniedException", Status: 403},
	}); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx(t), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := get(short, hung)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("hung call: %v, want the client's deadline", err)
	}
	if d := time.Since(start); d > deadlinetest.Scale(t, 10*time.Second) {
		t.Errorf("hung call returned after %s, want at the client's deadline", d)
	}
	if err := get(ctx(t), other); err != nil {
		t.Errorf("unmatched call: %v, want an answer", err)
	}
	if err := get(ctx(t), "https://sqs.us-east-1.amazonaws.com/111111111111/App-Queue3-GHI"); code(err) != "AccessDeniedException" {
		t.Errorf("matched error rule: %v, want AccessDeniedException", err)
	}
	if err := srv.SetFaults([]sandbox.FaultRule{{Hang: true, Role: "x"}}); err == nil {
		t.Error("hang with role accepted")
	}
}
