package service_test

import (
	"encoding/json"
	"log/slog"
	"testing"
	"time"

	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// TestSweepLargeStack: one stack of 2,000 resources, read at the default
// 10 calls/s of its account-region, swept by the production sweep
// definition under the runner's enforced limits (Express's 5 minutes
// included) completes: checked, nothing missing, nothing skipped. Its
// reads alone take longer than 5 minutes at that rate, which an Express
// per-stack child could not hold: the sweep's Express child defers it and
// a Standard child of the LargeStacks Map checks it (statemachine/doc.go).
//
// Time runs scale times faster than real time for the runner's clocks
// and the read rate alike (the sandbox grants, and the service paces to,
// scale × 10 calls/s), so the ratio of work to limits is AWS's while the
// test takes a tenth of the time; real overheads (Lambda, DynamoDB) count
// scale times over, so the margin is conservative.
func TestSweepLargeStack(t *testing.T) {
	const scale = 10
	sc := benchScale{Accounts: 1, Regions: 1, Stacks: 1, Resources: 2000, Rate: service.DefaultReadRate * scale}
	l := statemachinetest.Local(t)
	ddbURL := dynamoLocal.Endpoint(t, "the large-stack sweep")
	world, regions := benchWorld(sc)
	bucket := benchTargets(world)
	sb, srv := benchServe(t, world, sc.Rate)

	table := "realdrift-large-" + time.Now().Format("150405.000000")
	set := service.Settings{
		Table: table, Regions: regions, ReadRoleName: readRole, ReadRate: sc.Rate, TargetsBucket: bucket,
		Endpoints:   service.Endpoints{Default: srv.URL, DynamoDB: ddbURL},
		AccessKeyID: benchKey(benchCentral), SecretAccessKey: "bench-secret",
	}
	cfg, _ := tableConfig(t, set, "us-east-1", ddbURL, table)
	svc, err := service.New(cfg, set, service.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	lambdaURL := statemachinetest.Serve(t, svc.Register)
	sb.ResetCalls()
	start := time.Now()
	ex, err := l.Run(t.Context(), statemachine.Run{
		Definition: statemachine.Sweep, Input: map[string]any{}, LambdaEndpoint: lambdaURL,
		ExecutionName: "large-sweep", Account: benchCentral, RetryMillis: 100, TimeScale: scale,
		S3Endpoint: srv.URL, AccessKeyID: benchKey(benchCentral), SecretAccessKey: "bench-secret",
	})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("sweep: %s %+v", ex.Status, ex.Error)
	}
	statemachinetest.CheckSynthesized(t, l, statemachine.Sweep, ex)
	var sum statemachine.RunSummary
	if err := json.Unmarshal(ex.Output, &sum); err != nil {
		t.Fatal(err)
	}
	calls := 0
	for k, ld := range sb.Calls().Regions {
		if k != benchCentral+"/"+regions[0] {
			calls += ld.Calls
		}
	}
	t.Logf("2,000 resources: %v real, %v on the runner's clock; %d member calls (%.0f s of reads at %g calls/s); summary %+v",
		took.Round(time.Second), (took * scale).Round(time.Second), calls, float64(calls)/service.DefaultReadRate, service.DefaultReadRate, sum)
	if sum.Stacks != 1 || sum.Checked != 1 || sum.Missing != 0 || sum.Failed != 0 || sum.Counts["skipped"] != 0 {
		t.Errorf("summary %+v: want the stack checked, 0 missing, 0 failed, nothing skipped", sum)
	}
	// Its Express child defers it (more than ExpressStackResources
	// resources); the LargeStacks Map's Standard child checks it.
	runs := map[string]statemachine.MapRun{}
	for _, mr := range ex.MapRuns {
		runs[mr.State] = mr
	}
	if s := runs["Stacks"]; s.ExecutionType != statemachine.TypeExpress || s.ItemCounts.Succeeded != 1 || s.ResultWriter == nil {
		t.Errorf("Stacks map run %+v: want one Express child succeeded (deferring the stack), its results written", s)
	}
	if l := runs["LargeStacks"]; l.ExecutionType != statemachine.TypeStandard || l.ItemCounts.Total != 1 || l.ItemCounts.Succeeded != 1 || l.ResultWriter == nil {
		t.Errorf("LargeStacks map run %+v: want one Standard child succeeded, its results written", l)
	}
}
