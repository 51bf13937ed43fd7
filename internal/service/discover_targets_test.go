package service_test

import (
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
	discover := func(bucket string) statemachine.DiscoveredTargets {
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
		out, err := svc.Discover(ctx, statemachine.DiscoverTask{RunID: "run-targets", Account: member})
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
}
