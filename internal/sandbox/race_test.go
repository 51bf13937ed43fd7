package sandbox_test

import (
	"encoding/json"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	"github.com/aws/aws-sdk-go-v2/service/cloudformation"
	"github.com/aws/aws-sdk-go-v2/service/sqs"

	"github.com/realdrift/realdrift/internal/sandbox"
)

// TestParallelClients mutates and reads the world from parallel clients
// through every path (Cloud Control writes, SQS writes, admin changes,
// snapshots, reads). Run it with -race.
func TestParallelClients(t *testing.T) {
	srv, u := start(t, "testdata/services.json", sandbox.Options{})
	conf := cfg(u, mgmtKey, "us-east-1")
	cc := cloudcontrol.NewFromConfig(conf)
	q := sqs.NewFromConfig(conf)
	cfn := cloudformation.NewFromConfig(conf)
	c := ctx(t)
	var wg sync.WaitGroup
	errs := make(chan error, 1000)
	run := func(n int, f func(i int) error) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range n {
				if err := f(i); err != nil {
					errs <- err
				}
			}
		}()
	}
	for w := range 4 {
		run(20, func(i int) error {
			_, err := cc.GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String("AWS::SQS::Queue"), Identifier: aws.String(svcQueue)})
			return err
		})
		run(10, func(i int) error {
			_, err := q.SetQueueAttributes(c, &sqs.SetQueueAttributesInput{QueueUrl: aws.String(svcQueue), Attributes: map[string]string{"DelaySeconds": strconv.Itoa(w*10 + i)}})
			return err
		})
		run(10, func(i int) error {
			_, err := q.GetQueueAttributes(c, &sqs.GetQueueAttributesInput{QueueUrl: aws.String(svcQueue)})
			return err
		})
		run(10, func(i int) error {
			return srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: "us-east-1", Type: "AWS::SNS::Topic", Identifier: svcTopic, Path: "DisplayName", Value: json.RawMessage(fmt.Sprintf("%q", fmt.Sprint(w, i)))})
		})
		run(5, func(i int) error {
			_, err := cfn.ListStackResources(c, &cloudformation.ListStackResourcesInput{StackName: aws.String("Svc")})
			return err
		})
	}
	run(5, func(i int) error {
		out, err := cc.UpdateResource(c, &cloudcontrol.UpdateResourceInput{TypeName: aws.String("AWS::SQS::Queue"), Identifier: aws.String(svcQueue),
			PatchDocument: aws.String(fmt.Sprintf(`[{"op":"replace","path":"/VisibilityTimeout","value":%d}]`, 100+i))})
		if err != nil {
			return err
		}
		w := cloudcontrol.NewResourceRequestSuccessWaiter(cc, func(o *cloudcontrol.ResourceRequestSuccessWaiterOptions) {
			o.MinDelay, o.MaxDelay = 10*time.Millisecond, 50*time.Millisecond
		})
		return w.Wait(c, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: out.ProgressEvent.RequestToken}, 30*time.Second)
	})
	run(5, func(i int) error {
		_, err := srv.Snapshot()
		_ = srv.Calls()
		return err
	})
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if m := getProps(t, cc, "AWS::SQS::Queue", svcQueue); m["VisibilityTimeout"] != 104.0 {
		t.Errorf("final VisibilityTimeout %v", m["VisibilityTimeout"])
	}
	if st := srv.Calls(); st.MaxInFlight < 2 {
		t.Errorf("max in flight %d: the clients did not overlap", st.MaxInFlight)
	}
}
