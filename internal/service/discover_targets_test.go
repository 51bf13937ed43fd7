package service_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/smithy-go/logging"
	"github.com/google/go-cmp/cmp"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/statemachine"
)

// TestDiscoverWritesStackLists: with a targets bucket, discover puts each
// account-region's stack list into it and returns references only (bucket,
// key, results prefix; no inline targets), and the object holds exactly the
// list discover returns inline without one.
func TestDiscoverWritesStackLists(t *testing.T) {
	const bucket = "realdrift-sweep-targets"
	w, regions := benchWorld(benchScale{Accounts: 1, Regions: 2, Stacks: 3, Resources: 1})
	w.Accounts[0].Regions[0].Resources = append(w.Accounts[0].Regions[0].Resources,
		&sandbox.Resource{Type: "AWS::S3::Bucket", PhysicalID: bucket, Properties: json.RawMessage(`{"BucketName":"` + bucket + `"}`)})
	sb, err := sandbox.New(w, sandbox.Options{})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb)
	t.Cleanup(func() { srv.Close(); sb.Close() })
	ddbURL := dynamoLocal.Endpoint(t, "discovery into S3")
	ctx := t.Context()
	member := w.Accounts[1].ID
	svcFor := func(bucket string) *service.Service {
		t.Helper()
		set := service.Settings{
			Table: fmt.Sprintf("realdrift-targets-%d", time.Now().UnixNano()), Regions: regions, ReadRoleName: readRole,
			TargetsBucket: bucket, Endpoints: service.Endpoints{Default: srv.URL, DynamoDB: ddbURL},
			AccessKeyID: benchKey(benchCentral), SecretAccessKey: "targets-secret",
		}
		cfg, _ := tableConfig(t, set, "us-east-1", ddbURL, set.Table)
		svc, err := service.New(cfg, set)
		if err != nil {
			t.Fatal(err)
		}
		return svc
	}
	discover := func(bucket string) statemachine.DiscoveredTargets {
		t.Helper()
		out, err := svcFor(bucket).Discover(ctx, statemachine.DiscoverTask{RunID: "run-targets", Account: member})
		if err != nil {
			t.Fatal(err)
		}
		return out.(statemachine.DiscoveredTargets)
	}
	inline := discover("")
	paged := discover(bucket)
	if len(paged.Regions) != len(regions) || len(inline.Regions) != len(regions) {
		t.Fatalf("regions: paged %d, inline %d, want %d", len(paged.Regions), len(inline.Regions), len(regions))
	}
	cfg, err := service.AWSConfig(ctx, service.Settings{Endpoints: service.Endpoints{Default: srv.URL}, AccessKeyID: benchKey(benchCentral), SecretAccessKey: "x"}, "us-east-1")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Logger = logging.Nop{}
	cl := s3.NewFromConfig(cfg, func(o *s3.Options) { o.UsePathStyle = true })
	for i, rt := range paged.Regions {
		want := "runs/run-targets/" + member + "/" + rt.Region + "/"
		if rt.Bucket != bucket || rt.Key != want+"targets.json" || rt.ResultsPrefix != want+"results" || len(rt.Targets) != 0 || rt.Stacks != 3 {
			t.Errorf("region %d: %+v, want a reference to %s%s", i, rt, want, "targets.json")
			continue
		}
		obj, err := cl.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(rt.Bucket), Key: aws.String(rt.Key)})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(obj.Body)
		obj.Body.Close()
		var got []drift.StackRef
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%s: %v", rt.Key, err)
		}
		if d := cmp.Diff(got, inline.Regions[i].Targets); d != "" {
			t.Errorf("%s (-object +inline):\n%s", rt.Key, d)
		}
	}

	// ListLargeStacks: from a Stacks Map Run's results (as the runner
	// writes them, as AWS does), the stacks its children deferred and
	// those whose child did not succeed, in the list's order.
	t.Run("LargeStacks", func(t *testing.T) {
		rt := paged.Regions[0]
		stacks := inline.Regions[0].Targets
		put := func(key string, v any) {
			t.Helper()
			b, _ := json.Marshal(v)
			if _, err := cl.PutObject(ctx, &s3.PutObjectInput{Bucket: aws.String(bucket), Key: aws.String(key), Body: bytes.NewReader(b)}); err != nil {
				t.Fatal(err)
			}
		}
		child := func(i int, status string, output any) statemachine.ChildResult {
			in, _ := json.Marshal(statemachine.CheckInput{RunID: "run-targets", Stack: stacks[i], Trigger: statemachine.TriggerSweep})
			r := statemachine.ChildResult{Name: fmt.Sprint("child-", i), Status: status, Input: string(in)}
			if output != nil {
				out, _ := json.Marshal(output)
				r.Output = string(out)
			}
			return r
		}
		run := rt.ResultsPrefix + "/run-1/"
		var m statemachine.Manifest
		m.DestinationBucket = bucket
		m.ResultFiles.Succeeded = []statemachine.ResultFile{{Key: run + "SUCCEEDED_0.json"}}
		m.ResultFiles.Failed = []statemachine.ResultFile{{Key: run + "FAILED_0.json"}}
		put(run+"manifest.json", m)
		// stacks[0] is checked; stacks[1] deferred; stacks[2] timed out.
		put(run+"SUCCEEDED_0.json", []statemachine.ChildResult{
			child(1, "SUCCEEDED", statemachine.StackDeferred{RunID: "run-targets", Stack: stacks[1], Status: statemachine.StatusDeferred, Resources: 2000}),
			child(0, "SUCCEEDED", map[string]any{"runId": "run-targets", "stack": stacks[0], "status": "checked"}),
		})
		put(run+"FAILED_0.json", []statemachine.ChildResult{child(2, "TIMED_OUT", nil)})

		svc := svcFor(bucket)
		task := statemachine.DiscoverTask{RunID: "run-targets", Account: member, Region: rt.Region,
			Results: &statemachine.ResultWriterDetails{Bucket: bucket, Key: run + "manifest.json"}}
		out, err := svc.Discover(ctx, task)
		if err != nil {
			t.Fatal(err)
		}
		large := out.(statemachine.RegionTargets)
		prefix := "runs/run-targets/" + member + "/" + rt.Region + "/"
		if large.Region != rt.Region || large.Stacks != 2 || large.Bucket != bucket || large.Key != prefix+"large.json" || large.ResultsPrefix != prefix+"results-large" || len(large.Targets) != 0 {
			t.Fatalf("large stacks %+v, want a reference to %slarge.json of 2 stacks", large, prefix)
		}
		obj, err := cl.GetObject(ctx, &s3.GetObjectInput{Bucket: aws.String(bucket), Key: aws.String(large.Key)})
		if err != nil {
			t.Fatal(err)
		}
		var got []drift.StackRef
		err = json.NewDecoder(obj.Body).Decode(&got)
		obj.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(got, []drift.StackRef{stacks[1], stacks[2]}); d != "" {
			t.Errorf("large.json (-got +want):\n%s", d)
		}

		// What cannot be read fails the step (its retries, then the
		// account): never an empty list that would drop the stacks.
		for name, results := range map[string]statemachine.ResultWriterDetails{
			"a missing manifest":            {Bucket: bucket, Key: run + "nothing.json"},
			"a manifest in another bucket":  {Bucket: "elsewhere", Key: run + "manifest.json"},
			"a result file, not a manifest": {Bucket: bucket, Key: run + "SUCCEEDED_0.json"},
		} {
			task.Results = &results
			if out, err := svc.Discover(ctx, task); err == nil {
				t.Errorf("%s: %+v, want an error", name, out)
			}
		}
	})
}
