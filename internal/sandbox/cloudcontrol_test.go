package sandbox_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/cloudcontrol"
	cctypes "github.com/aws/aws-sdk-go-v2/service/cloudcontrol/types"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/sandbox"
)

func getProps(t *testing.T, cc *cloudcontrol.Client, typ, id string) map[string]any {
	t.Helper()
	out, err := cc.GetResource(ctx(t), &cloudcontrol.GetResourceInput{TypeName: aws.String(typ), Identifier: aws.String(id)})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(aws.ToString(out.ResourceDescription.Properties)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestCloudControl(t *testing.T) {
	srv, url := start(t, "testdata/world.json", sandbox.Options{PageSize: 2})
	cc := cloudcontrol.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
	c := ctx(t)

	t.Run("GetResource", func(t *testing.T) {
		out, err := cc.GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(queueURL)})
		if err != nil {
			t.Fatal(err)
		}
		want := `{"QueueName":"App-Queue-ABC","VisibilityTimeout":30,"MessageRetentionPeriod":345600,"Arn":"arn:aws:sqs:us-east-1:111111111111:App-Queue-ABC","QueueUrl":"https://sqs.us-east-1.amazonaws.com/111111111111/App-Queue-ABC"}`
		if got := aws.ToString(out.ResourceDescription.Properties); got != want {
			t.Errorf("Properties = %s\nwant %s", got, want)
		}
		if aws.ToString(out.ResourceDescription.Identifier) != queueURL {
			t.Errorf("Identifier = %s", aws.ToString(out.ResourceDescription.Identifier))
		}
		// IAM is global: the role reads from any region.
		west := cloudcontrol.NewFromConfig(cfg(url, mgmtKey, "us-west-2"))
		if _, err := west.GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String("AWS::IAM::Role"), Identifier: aws.String("App-Role-XYZ")}); err != nil {
			t.Errorf("global role from us-west-2: %v", err)
		}
	})

	t.Run("Errors", func(t *testing.T) {
		tests := []struct {
			name, typ, id string
			want          any
		}{
			{"not found", queueType, "https://nope", &cctypes.ResourceNotFoundException{}},
			{"gap", "AWS::SQS::QueuePolicy", "x", &cctypes.UnsupportedActionException{}},
			{"custom", "Custom::Hook", "hook-1", &cctypes.UnsupportedActionException{}},
			{"no read handler", "AWS::Glue::Crawler", "x", &cctypes.UnsupportedActionException{}},
		}
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := cc.GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(tt.typ), Identifier: aws.String(tt.id)})
				switch tt.want.(type) {
				case *cctypes.ResourceNotFoundException:
					var e *cctypes.ResourceNotFoundException
					if !errors.As(err, &e) {
						t.Errorf("err = %v, want ResourceNotFoundException", err)
					}
				case *cctypes.UnsupportedActionException:
					var e *cctypes.UnsupportedActionException
					if !errors.As(err, &e) {
						t.Errorf("err = %v, want UnsupportedActionException", err)
					}
				}
			})
		}
	})

	t.Run("ListResourcesPaginator", func(t *testing.T) {
		p := cloudcontrol.NewListResourcesPaginator(cc, &cloudcontrol.ListResourcesInput{TypeName: aws.String(queueType)})
		var ids []string
		for i := 0; p.HasMorePages() && i < 10; i++ {
			out, err := p.NextPage(c)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range out.ResourceDescriptions {
				ids = append(ids, aws.ToString(d.Identifier))
			}
		}
		if len(ids) != 3 || ids[0] != queueURL {
			t.Errorf("ids %v", ids)
		}
	})

	t.Run("UpdateWaiter", func(t *testing.T) {
		out, err := cc.UpdateResource(c, &cloudcontrol.UpdateResourceInput{
			TypeName: aws.String(queueType), Identifier: aws.String(queueURL),
			PatchDocument: aws.String(`[{"op":"replace","path":"/VisibilityTimeout","value":99},{"op":"add","path":"/DelaySeconds","value":5}]`),
		})
		if err != nil {
			t.Fatal(err)
		}
		if out.ProgressEvent.OperationStatus != cctypes.OperationStatusInProgress {
			t.Errorf("first status %s", out.ProgressEvent.OperationStatus)
		}
		w := cloudcontrol.NewResourceRequestSuccessWaiter(cc, func(o *cloudcontrol.ResourceRequestSuccessWaiterOptions) {
			o.MinDelay, o.MaxDelay = 10*time.Millisecond, 50*time.Millisecond
		})
		st, err := w.WaitForOutput(c, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: out.ProgressEvent.RequestToken}, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if st.ProgressEvent.OperationStatus != cctypes.OperationStatusSuccess || st.ProgressEvent.ResourceModel == nil {
			t.Errorf("final event %+v", st.ProgressEvent)
		}
		m := getProps(t, cc, queueType, queueURL)
		if m["VisibilityTimeout"] != 99.0 || m["DelaySeconds"] != 5.0 {
			t.Errorf("after update: %v", m)
		}
	})

	t.Run("RefusedPatches", func(t *testing.T) {
		for name, patch := range map[string]string{
			"read-only":   `[{"op":"replace","path":"/Arn","value":"arn:x"}]`,
			"create-only": `[{"op":"replace","path":"/QueueName","value":"other"}]`,
			"bad path":    `[{"op":"replace","path":"/Nope/Deeper","value":1}]`,
			"not a patch": `{"op":"add"}`,
		} {
			t.Run(name, func(t *testing.T) {
				_, err := cc.UpdateResource(c, &cloudcontrol.UpdateResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(queueURL), PatchDocument: aws.String(patch)})
				var e *cctypes.InvalidRequestException
				if !errors.As(err, &e) {
					t.Errorf("err = %v, want InvalidRequestException", err)
				}
			})
		}
	})

	t.Run("DeleteAndCancel", func(t *testing.T) {
		id := "https://sqs.us-east-1.amazonaws.com/111111111111/App-Queue3-GHI"
		out, err := cc.DeleteResource(c, &cloudcontrol.DeleteResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(id)})
		if err != nil {
			t.Fatal(err)
		}
		w := cloudcontrol.NewResourceRequestSuccessWaiter(cc, func(o *cloudcontrol.ResourceRequestSuccessWaiterOptions) {
			o.MinDelay, o.MaxDelay = 10*time.Millisecond, 50*time.Millisecond
		})
		if err := w.Wait(c, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: out.ProgressEvent.RequestToken}, 10*time.Second); err != nil {
			t.Fatal(err)
		}
		_, err = cc.GetResource(c, &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(id)})
		var nf *cctypes.ResourceNotFoundException
		if !errors.As(err, &nf) {
			t.Errorf("after delete: err = %v", err)
		}
		if _, ok := srv.Live("", "us-east-1", queueType, id); ok {
			t.Error("Live still returns the deleted queue")
		}
		_, err = cc.GetResourceRequestStatus(c, &cloudcontrol.GetResourceRequestStatusInput{RequestToken: aws.String("nope")})
		var rt *cctypes.RequestTokenNotFoundException
		if !errors.As(err, &rt) {
			t.Errorf("unknown token: err = %v", err)
		}
	})

	t.Run("Cancel", func(t *testing.T) {
		slow, url := start(t, "testdata/world.json", sandbox.Options{OperationDelay: time.Hour})
		_ = slow
		cc := cloudcontrol.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
		out, err := cc.UpdateResource(c, &cloudcontrol.UpdateResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(queueURL), PatchDocument: aws.String(`[{"op":"replace","path":"/VisibilityTimeout","value":1}]`)})
		if err != nil {
			t.Fatal(err)
		}
		_, err = cc.UpdateResource(c, &cloudcontrol.UpdateResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(queueURL), PatchDocument: aws.String(`[{"op":"replace","path":"/VisibilityTimeout","value":2}]`)})
		var conflict *cctypes.ResourceConflictException
		if !errors.As(err, &conflict) {
			t.Errorf("second update: err = %v, want ResourceConflictException", err)
		}
		cancel, err := cc.CancelResourceRequest(c, &cloudcontrol.CancelResourceRequestInput{RequestToken: out.ProgressEvent.RequestToken})
		if err != nil {
			t.Fatal(err)
		}
		if cancel.ProgressEvent.OperationStatus != cctypes.OperationStatusCancelComplete {
			t.Errorf("cancel status %s", cancel.ProgressEvent.OperationStatus)
		}
		if m := getProps(t, cc, queueType, queueURL); m["VisibilityTimeout"] != 30.0 {
			t.Errorf("a cancelled update changed the model: %v", m)
		}
	})
}

func TestOutOfBandChanges(t *testing.T) {
	srv, url := start(t, "testdata/world.json", sandbox.Options{})
	cc := cloudcontrol.NewFromConfig(cfg(url, mgmtKey, "us-east-1"))
	snap, err := srv.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	changes := []sandbox.Change{
		{Op: sandbox.OpSet, Region: "us-east-1", Type: queueType, Identifier: queueURL, Path: "VisibilityTimeout", Value: json.RawMessage(`120`)},
		{Op: sandbox.OpSet, Region: "us-east-1", Type: queueType, Identifier: queueURL, Path: "/RedrivePolicy", Value: json.RawMessage(`{"maxReceiveCount":3}`)},
		{Op: sandbox.OpRemove, Region: "us-east-1", Type: queueType, Identifier: queueURL, Path: "MessageRetentionPeriod"},
		{Op: sandbox.OpAdd, Region: "us-east-1", Type: "AWS::SNS::Subscription", Identifier: "arn:aws:sns:us-east-1:111111111111:t:sub1", Properties: json.RawMessage(`{"Protocol":"email"}`)},
	}
	for _, ch := range changes {
		if err := srv.Apply(ch); err != nil {
			t.Fatalf("%+v: %v", ch, err)
		}
	}
	got := getProps(t, cc, queueType, queueURL)
	want := map[string]any{"QueueName": "App-Queue-ABC", "VisibilityTimeout": 120.0, "Arn": "arn:aws:sqs:us-east-1:111111111111:App-Queue-ABC", "QueueUrl": queueURL, "RedrivePolicy": map[string]any{"maxReceiveCount": 3.0}}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("after changes (-got +want):\n%s", diff)
	}
	if m := getProps(t, cc, "AWS::SNS::Subscription", "arn:aws:sns:us-east-1:111111111111:t:sub1"); m["Protocol"] != "email" {
		t.Errorf("added child: %v", m)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpDelete, Region: "us-east-1", Type: queueType, Identifier: queueURL}); err != nil {
		t.Fatal(err)
	}
	if _, err := cc.GetResource(ctx(t), &cloudcontrol.GetResourceInput{TypeName: aws.String(queueType), Identifier: aws.String(queueURL)}); code(err) != "ResourceNotFoundException" {
		t.Errorf("deleted out of band: err = %v", err)
	}
	if err := srv.Apply(sandbox.Change{Op: sandbox.OpSet, Region: "us-east-1", Type: queueType, Identifier: "nope", Path: "A", Value: json.RawMessage(`1`)}); !errors.Is(err, sandbox.ErrNotFound) {
		t.Errorf("change to a missing resource: %v", err)
	}
	if err := srv.Restore(snap); err != nil {
		t.Fatal(err)
	}
	if m := getProps(t, cc, queueType, queueURL); m["VisibilityTimeout"] != 30.0 {
		t.Errorf("after restore: %v", m)
	}
}

// TestReadOnlyRecomputed: an update recomputes read-only values that derive
// from what changed (a DynamoDB stream's ARN).
func TestReadOnlyRecomputed(t *testing.T) {
	w, err := sandbox.ParseWorld([]byte(`{"schemas":{"AWS::DynamoDB::Table":{"readOnly":["Arn","StreamArn"],"writeOnly":[],"createOnly":["TableName"],"readOnlyPaths":["Arn","StreamArn"],"writeOnlyPaths":[],"createOnlyPaths":["TableName"],"defaults":{}}},
	"accounts":[{"id":"111111111111","accessKeys":[{"id":"AKIAMGMT0000000000001","userName":"alice"}],"regions":[{"name":"us-east-1","resources":[{"type":"AWS::DynamoDB::Table","identifier":"t1","properties":{"TableName":"t1","Arn":"arn:aws:dynamodb:us-east-1:111111111111:table/t1"}}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	_, u := startWorld(t, w, sandbox.Options{})
	cc := cloudcontrol.NewFromConfig(cfg(u, mgmtKey, "us-east-1"))
	for _, tt := range []struct {
		patch      string
		wantStream bool
	}{
		{`[{"op":"add","path":"/StreamSpecification","value":{"StreamViewType":"NEW_IMAGE"}}]`, true},
		{`[{"op":"remove","path":"/StreamSpecification"}]`, false},
	} {
		out, err := cc.UpdateResource(ctx(t), &cloudcontrol.UpdateResourceInput{TypeName: aws.String("AWS::DynamoDB::Table"), Identifier: aws.String("t1"), PatchDocument: aws.String(tt.patch)})
		if err != nil {
			t.Fatal(err)
		}
		waitCC(t, cc, out.ProgressEvent.RequestToken)
		m := getProps(t, cc, "AWS::DynamoDB::Table", "t1")
		arn, has := m["StreamArn"].(string)
		if has != tt.wantStream || (has && !strings.HasPrefix(arn, "arn:aws:dynamodb:us-east-1:111111111111:table/t1/stream/")) {
			t.Errorf("after %s: StreamArn %v", tt.patch, m["StreamArn"])
		}
	}
}
