package scan_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/drift"
	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/sandbox/sandboxtest"
	"github.com/realdrift/realdrift/internal/scan"
)

// queues returns a stack of n SQS queues, each clean.
func queues(n int) []res {
	rs := make([]res, n)
	for i := range rs {
		name := fmt.Sprintf("Big-Q%03d", i)
		url := "https://sqs.us-east-1.amazonaws.com/111111111111/" + name
		rs[i] = res{fmt.Sprintf("Q%03d", i), "AWS::SQS::Queue", url, map[string]any{"QueueName": name},
			map[string]any{"QueueName": name, "QueueUrl": url, "Arn": "arn:aws:sqs:us-east-1:111111111111:" + name}, false}
	}
	return rs
}

func TestCheckBoundsCallsInFlight(t *testing.T) {
	srv, url := startSandbox(t, world(t, "Big", queues(200), nil))
	srv.SetLatency(3 * time.Millisecond)
	c := clients(t, url, key)
	for _, limit := range []int{1, 4, 8} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			srv.ResetCalls()
			got, err := scan.Check(testCtx(t), c, drift.StackRef{Region: region, Name: "Big"}, scan.Options{Concurrency: limit})
			if err != nil {
				t.Fatal(err)
			}
			st := srv.Calls()
			t.Logf("concurrency %d: %d calls, max in flight %d", limit, st.Total, st.MaxInFlight)
			if st.MaxInFlight > limit {
				t.Errorf("max in flight %d > --concurrency %d", st.MaxInFlight, limit)
			}
			if limit > 1 && st.MaxInFlight < 2 {
				t.Errorf("max in flight %d: reads did not run concurrently", st.MaxInFlight)
			}
			for _, f := range got.Findings {
				if f.Tier == drift.Skipped || f.Tier == drift.Deleted {
					t.Errorf("unexpected %s %s: %s", f.Tier, f.LogicalID, f.Reason)
				}
			}
		})
	}
}

// TestCheckUnderThrottling runs a 200-resource stack against a sandbox
// throttled to 20 requests per second per API: the SDK's adaptive retry
// must carry every read through, none skipped. It takes about ten seconds,
// so -short skips it (CI runs it).
func TestCheckUnderThrottling(t *testing.T) {
	if testing.Short() {
		t.Skip("takes ~10s; run without -short")
	}
	srv, url := startSandbox(t, world(t, "Big", queues(200), nil))
	if err := srv.SetThrottle([]sandbox.ThrottleRule{{Rate: 20}}); err != nil {
		t.Fatal(err)
	}
	c := clients(t, url, key)
	start := time.Now()
	got, err := scan.Check(testCtx(t), c, drift.StackRef{Region: region, Name: "Big"}, scan.Options{Concurrency: 8})
	if err != nil {
		t.Fatal(err)
	}
	st := srv.Calls()
	t.Logf("%d calls (%v throttled) in %v, max in flight %d", st.Total, st.Errors, time.Since(start).Round(time.Millisecond), st.MaxInFlight)
	skipped := 0
	for _, f := range got.Findings {
		if f.Tier == drift.Skipped {
			skipped++
			t.Errorf("skipped %s: %s", f.LogicalID, f.Reason)
		}
	}
	if len(got.Lives) != 200 {
		t.Errorf("read %d resources, want 200", len(got.Lives))
	}
	if st.MaxInFlight > 8 {
		t.Errorf("max in flight %d > 8", st.MaxInFlight)
	}
}

// BenchmarkCheck200 checks a 200-queue stack against the in-process sandbox
// (no latency) with the default concurrency.
func BenchmarkCheck200(b *testing.B) {
	_, url := sandboxtest.Serve(b, world(b, "Big", queues(200), nil), sandbox.Options{})
	cfg, err := scan.Config(context.Background(), scan.Settings{Region: region, EndpointURL: url, AccessKeyID: key, SecretAccessKey: "secret"})
	if err != nil {
		b.Fatal(err)
	}
	c := scan.NewClients(cfg)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := scan.Check(context.Background(), c, drift.StackRef{Region: region, Name: "Big"}, scan.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
