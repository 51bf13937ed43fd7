package service_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	ddbtypes "github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go/logging"
	"github.com/aws/smithy-go/middleware"

	"github.com/realdrift/realdrift/internal/sandbox"
	"github.com/realdrift/realdrift/internal/schema"
	"github.com/realdrift/realdrift/internal/service"
	"github.com/realdrift/realdrift/internal/store"
	"github.com/realdrift/realdrift/statemachine"
	"github.com/realdrift/realdrift/statemachine/statemachinetest"
)

// The sweep benchmark (scripts/bench-sweep.sh runs it at full scale): a
// generated organisation swept by the real sweep definition under the local
// interpreter, the real handlers behind internal/lambdarouter, DynamoDB
// Local and the sandbox, whose throttle is the configured read rate per
// account-region (one shared bucket over every API). Without
// REALDRIFT_BENCH_SWEEP it runs a small organisation (what CI runs): the
// same checks, none of them on speed.
const (
	benchEnvScale  = "REALDRIFT_BENCH_SWEEP" // ACCOUNTSxREGIONSxSTACKSxRESOURCES
	benchEnvRate   = "REALDRIFT_BENCH_RATE"  // calls/s per account-region
	benchEnvOut    = "REALDRIFT_BENCH_OUT"   // where the figures go as JSON
	benchEnvAtOnce = "REALDRIFT_BENCH_ACCOUNTS_AT_ONCE"
	// benchEnvLatency is the latency the sandbox adds to every member call,
	// in milliseconds (default 50, what an AWS read takes, so the Lambda
	// time the cost model prices is not millisecond local reads).
	benchEnvLatency = "REALDRIFT_BENCH_LATENCY_MS"
)

// benchScale is the organisation's shape and the configured rate.
type benchScale struct {
	Accounts, Regions, Stacks, Resources int
	Rate                                 float64
	// AccountsAtOnce is the sweep's REALDRIFT_ACCOUNTS_AT_ONCE: how many
	// account-regions' schedules run at once is what the machine must keep
	// up with (AccountsAtOnce × Regions × Rate calls/s in all).
	AccountsAtOnce int
	// LatencyMillis is added to every sandbox reply.
	LatencyMillis int
	Full          bool
}

func benchScaleFromEnv(t *testing.T) benchScale {
	t.Helper()
	sc := benchScale{Accounts: 2, Regions: 2, Stacks: 3, Resources: 10, Rate: 20, LatencyMillis: 50}
	if v := os.Getenv(benchEnvScale); v != "" {
		parts := strings.Split(v, "x")
		var n [4]int
		for i := range n {
			if len(parts) != 4 {
				break
			}
			n[i], _ = strconv.Atoi(parts[i])
		}
		if len(parts) != 4 || slices.Contains(n[:], 0) {
			t.Fatalf("%s=%q: want ACCOUNTSxREGIONSxSTACKSxRESOURCES, e.g. 40x4x10x30", benchEnvScale, v)
		}
		sc = benchScale{Accounts: n[0], Regions: n[1], Stacks: n[2], Resources: n[3], Rate: service.DefaultReadRate, LatencyMillis: sc.LatencyMillis, Full: true}
	}
	if v := os.Getenv(benchEnvAtOnce); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("%s=%q: want a positive integer", benchEnvAtOnce, v)
		}
		sc.AccountsAtOnce = n
	}
	if v := os.Getenv(benchEnvLatency); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			t.Fatalf("%s=%q: want milliseconds, 0 or more", benchEnvLatency, v)
		}
		sc.LatencyMillis = n
	}
	if v := os.Getenv(benchEnvRate); v != "" {
		r, err := strconv.ParseFloat(v, 64)
		if err != nil || r <= 0 {
			t.Fatalf("%s=%q: want a positive number", benchEnvRate, v)
		}
		sc.Rate = r
	}
	return sc
}

var benchRegionNames = []string{"us-east-1", "eu-west-1", "us-west-2", "ap-southeast-2", "eu-central-1", "ap-northeast-1", "sa-east-1", "ca-central-1"}

const benchCentral = "100000000000"

func benchKey(account string) string { return "AKIABENCH" + account }

// benchWorld is an organisation of sc.Accounts member accounts (plus the
// central one), each with sc.Stacks stacks of sc.Resources SQS queues in
// each of sc.Regions regions; every queue is clean.
func benchWorld(sc benchScale) (*sandbox.World, []string) {
	regions := benchRegionNames[:sc.Regions]
	w := &sandbox.World{
		DefaultAccount: benchCentral,
		Organization:   &sandbox.Organization{ID: "o-bench00001", ManagementAccountID: benchCentral},
		Accounts:       []*sandbox.Account{{ID: benchCentral, Name: "central", AccessKeys: []sandbox.AccessKey{{ID: benchKey(benchCentral)}}}},
	}
	for _, r := range regions {
		w.Accounts[0].Regions = append(w.Accounts[0].Regions, &sandbox.Region{Name: r})
	}
	for a := range sc.Accounts {
		acct := &sandbox.Account{ID: fmt.Sprintf("2%011d", a+1), Name: fmt.Sprintf("member-%d", a+1)}
		for _, r := range regions {
			reg := &sandbox.Region{Name: r}
			for s := range sc.Stacks {
				name := fmt.Sprintf("Bench%02d", s)
				tmpl := map[string]any{}
				st := &sandbox.Stack{Name: name}
				for q := range sc.Resources {
					logical := fmt.Sprintf("Queue%03d", q)
					qname := name + "-" + logical
					url := "https://sqs." + r + ".amazonaws.com/" + acct.ID + "/" + qname
					tmpl[logical] = map[string]any{"Type": "AWS::SQS::Queue", "Properties": map[string]any{"QueueName": qname, "VisibilityTimeout": 30}}
					model, _ := json.Marshal(map[string]any{"QueueName": qname, "QueueUrl": url, "VisibilityTimeout": 30,
						"Arn": "arn:aws:sqs:" + r + ":" + acct.ID + ":" + qname})
					st.Resources = append(st.Resources, &sandbox.Resource{LogicalID: logical, Type: "AWS::SQS::Queue", PhysicalID: url, Properties: model})
				}
				body, _ := json.Marshal(map[string]any{"Resources": tmpl})
				st.TemplateBody = string(body)
				reg.Stacks = append(reg.Stacks, st)
			}
			acct.Regions = append(acct.Regions, reg)
		}
		w.Accounts = append(w.Accounts, acct)
	}
	return w, regions
}

// benchTargets gives the central account of a bench world the sweep's
// targets bucket (discover writes the stack lists there, the Stacks Map's
// ItemReader reads them) and returns its name.
func benchTargets(w *sandbox.World) string {
	const bucket = "realdrift-bench-targets"
	w.Accounts[0].Regions[0].Resources = append(w.Accounts[0].Regions[0].Resources,
		&sandbox.Resource{Type: "AWS::S3::Bucket", PhysicalID: bucket, Properties: json.RawMessage(`{"BucketName":"` + bucket + `"}`)})
	return bucket
}

// benchServe serves a bench world whose every account-region is granted
// rate calls/s over all its APIs (the quota the limiter paces to); it
// stops when the test ends.
func benchServe(t *testing.T, world *sandbox.World, rate float64) (*sandbox.Server, *httptest.Server) {
	t.Helper()
	opts := sandbox.Options{}
	if snap, err := schema.Embedded(); err == nil {
		opts.Facts = snap.Lookup
	}
	sb, err := sandbox.New(world, opts)
	if err != nil {
		t.Fatal(err)
	}
	// Every API of a member account-region draws on one bucket of the
	// configured rate, the budget the pace limiter's schedule keeps to.
	// S3 is the central account's targets bucket (discover's stack lists,
	// the Stacks Map's ItemReader and ResultWriter), whose rate AWS
	// limits per prefix, at 3,500 writes and 5,500 reads per second: under
	// the shared bucket its reads were throttled and whole account-regions
	// went missing, which AWS would not do.
	if err := sb.SetThrottle([]sandbox.ThrottleRule{{Service: "s3", Rate: 3500}, {Rate: rate, Shared: true}}); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(sb)
	t.Cleanup(func() { srv.Close(); sb.Close() })
	return sb, srv
}

// invocations counts the Lambda invocations per function and their time.
type invocations struct {
	mu    sync.Mutex
	count map[string]int
	busy  map[string]time.Duration
}

func (iv *invocations) proxy(target string) http.Handler {
	u, _ := url.Parse(target)
	rp := httputil.NewSingleHostReverseProxy(u)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fn := r.URL.Path
		if i := strings.Index(fn, "/functions/"); i >= 0 {
			fn = strings.TrimSuffix(fn[i+len("/functions/"):], "/invocations")
			if j := strings.LastIndex(fn, ":"); j >= 0 {
				fn = fn[j+1:]
			}
			fn, _ = url.PathUnescape(fn)
		}
		start := time.Now()
		rp.ServeHTTP(w, r)
		iv.mu.Lock()
		iv.count[fn]++
		iv.busy[fn] += time.Since(start)
		iv.mu.Unlock()
	})
}

// capacity sums the DynamoDB capacity units the service's calls consumed
// (ReturnConsumedCapacity on every call; a failed conditional write is one
// write unit, as AWS bills it).
type capacity struct {
	mu            sync.Mutex
	read, write   float64
	calls         map[string]int
	failedWrites  int
	conditionalOK int
}

func (c *capacity) middleware(st *middleware.Stack) error {
	return st.Initialize.Add(middleware.InitializeMiddlewareFunc("benchCapacity",
		func(ctx context.Context, in middleware.InitializeInput, next middleware.InitializeHandler) (middleware.InitializeOutput, middleware.Metadata, error) {
			total := ddbtypes.ReturnConsumedCapacityTotal
			op := ""
			switch p := in.Parameters.(type) {
			case *dynamodb.GetItemInput:
				p.ReturnConsumedCapacity, op = total, "GetItem"
			case *dynamodb.PutItemInput:
				p.ReturnConsumedCapacity, op = total, "PutItem"
			case *dynamodb.UpdateItemInput:
				p.ReturnConsumedCapacity, op = total, "UpdateItem"
			case *dynamodb.DeleteItemInput:
				p.ReturnConsumedCapacity, op = total, "DeleteItem"
			case *dynamodb.QueryInput:
				p.ReturnConsumedCapacity, op = total, "Query"
			case *dynamodb.BatchWriteItemInput:
				p.ReturnConsumedCapacity, op = total, "BatchWriteItem"
			case *dynamodb.BatchGetItemInput:
				p.ReturnConsumedCapacity, op = total, "BatchGetItem"
			case *dynamodb.TransactWriteItemsInput:
				p.ReturnConsumedCapacity, op = total, "TransactWriteItems"
			default:
				return next.HandleInitialize(ctx, in)
			}
			out, md, err := next.HandleInitialize(ctx, in)
			var units []ddbtypes.ConsumedCapacity
			switch o := out.Result.(type) {
			case *dynamodb.GetItemOutput:
				units = one(o.ConsumedCapacity)
			case *dynamodb.PutItemOutput:
				units = one(o.ConsumedCapacity)
			case *dynamodb.UpdateItemOutput:
				units = one(o.ConsumedCapacity)
			case *dynamodb.DeleteItemOutput:
				units = one(o.ConsumedCapacity)
			case *dynamodb.QueryOutput:
				units = one(o.ConsumedCapacity)
			case *dynamodb.BatchWriteItemOutput:
				units = o.ConsumedCapacity
			case *dynamodb.BatchGetItemOutput:
				units = o.ConsumedCapacity
			case *dynamodb.TransactWriteItemsOutput:
				units = o.ConsumedCapacity
			}
			c.mu.Lock()
			defer c.mu.Unlock()
			c.calls[op]++
			var sum float64
			for _, u := range units {
				sum += aws.ToFloat64(u.CapacityUnits)
			}
			var ccf *ddbtypes.ConditionalCheckFailedException
			switch {
			case errors.As(err, &ccf):
				c.failedWrites++
				c.write++
			case op == "GetItem" || op == "Query" || op == "BatchGetItem":
				c.read += sum
			default:
				c.write += sum
			}
			return out, md, err
		}), middleware.After)
}

func one(c *ddbtypes.ConsumedCapacity) []ddbtypes.ConsumedCapacity {
	if c == nil {
		return nil
	}
	return []ddbtypes.ConsumedCapacity{*c}
}

// BenchFigures are the sweep benchmark's measurements, the input of
// scripts/cost-model.
type BenchFigures struct {
	Accounts, Regions, StacksPerRegion, ResourcesPerStack, AccountsAtOnce int
	Resources                                                             int     `json:"resources"`
	Rate                                                                  float64 `json:"configuredRate"`
	Seconds                                                               float64 `json:"seconds"`
	ResourcesPerSecond                                                    float64 `json:"resourcesPerSecond"`
	// RateShareMin/Mean are the sustained read rate per account-region
	// (its calls over the span from its first call to its last) as a share
	// of the configured rate: the lowest and the mean over account-regions.
	RateShareMin  float64 `json:"rateShareMin"`
	RateShareMean float64 `json:"rateShareMean"`
	MemberCalls   int     `json:"memberCalls"`
	// CloudControlReads are the GetResource calls among MemberCalls: each
	// also makes its handler's service reads in the member account.
	CloudControlReads int `json:"cloudControlReads"`
	Throttles         int `json:"throttlesAbsorbed"`
	Skipped           int `json:"resourcesSkipped"`
	Failed            int `json:"failedChecks"`
	Missing           int `json:"missingChecks"`
	Checked           int `json:"checkedStacks"`
	// Invocations per function, and their total busy seconds (wall time of
	// each invocation, pacing waits included).
	Invocations      map[string]int     `json:"invocations"`
	InvocationSecs   map[string]float64 `json:"invocationSeconds"`
	TotalInvocations int                `json:"totalInvocations"`
	// Transitions are the states the sweep entered: Standard ones of the
	// sweep and its per-account children, Express ones of the Stacks Map's
	// per-stack children, and Standard ones of the LargeStacks Map's
	// per-stack children; ExpressChildren and LargeChildren are the two
	// Maps' children.
	TransitionsStandard int `json:"transitionsStandard"`
	TransitionsExpress  int `json:"transitionsExpress"`
	ExpressChildren     int `json:"expressChildren"`
	TransitionsLarge    int `json:"transitionsLargeStacks"`
	LargeChildren       int `json:"largeStackChildren"`
	// LatencyMillis is the latency the sandbox added to every call.
	LatencyMillis int `json:"injectedLatencyMs"`
	// ExpressSeconds are the Express children's summed durations, as the
	// runner measured each from its start to its end (what Express bills).
	ExpressSeconds    float64 `json:"expressSeconds"`
	StateBytes        int64   `json:"stateOutputBytes"`
	LargestStateBytes int     `json:"largestStateOutputBytes"`
	ReadUnits         float64 `json:"dynamodbReadUnits"`
	WriteUnits        float64 `json:"dynamodbWriteUnits"`
	DynamoCalls       map[string]int
	// PeakAccountInFlight is the most calls in flight at once to one
	// member account; InFlightLimit the limit it is held to (regions ×
	// the rate: one second's calls of every region's schedule).
	PeakAccountInFlight int `json:"peakAccountInFlight"`
	InFlightLimit       int `json:"inFlightLimit"`
	// AccountRegions are the member account-regions swept.
	AccountRegions int `json:"accountRegions"`
	// S3Puts and S3Gets are the S3 requests of the sweep (all in the
	// central account's targets bucket: the stack lists, the Maps'
	// ItemReaders and ResultWriters, discover's reads of the results).
	S3Puts int `json:"s3Puts"`
	S3Gets int `json:"s3Gets"`
}

func TestSweepBench(t *testing.T) {
	sc := benchScaleFromEnv(t)
	if sc.AccountsAtOnce == 0 {
		sc.AccountsAtOnce = service.DefaultAccountsAtOnce
	}
	l := statemachinetest.Local(t)
	ddbURL := dynamoLocal.Endpoint(t, "the sweep benchmark")
	ctx := t.Context()

	world, regions := benchWorld(sc)
	bucket := benchTargets(world)
	sb, sbSrv := benchServe(t, world, sc.Rate)
	sb.SetLatency(time.Duration(sc.LatencyMillis) * time.Millisecond)

	table := fmt.Sprintf("realdrift-bench-%d", time.Now().UnixNano())
	set := service.Settings{
		Table: table, Regions: regions, ReadRoleName: readRole, ReadRate: sc.Rate, AccountsAtOnce: sc.AccountsAtOnce, TargetsBucket: bucket,
		Endpoints:   service.Endpoints{Default: sbSrv.URL, DynamoDB: ddbURL},
		AccessKeyID: benchKey(benchCentral), SecretAccessKey: "bench-secret",
	}
	cfg, db := tableConfig(t, set, "us-east-1", ddbURL, table)
	t.Cleanup(func() {
		_, _ = db.DeleteTable(context.Background(), &dynamodb.DeleteTableInput{TableName: aws.String(table)})
	})
	units := &capacity{calls: map[string]int{}}
	cfg.APIOptions = append(cfg.APIOptions, units.middleware)
	svc, err := service.New(cfg, set, service.WithLogger(slog.New(slog.DiscardHandler)))
	if err != nil {
		t.Fatal(err)
	}
	iv := &invocations{count: map[string]int{}, busy: map[string]time.Duration{}}
	front := httptest.NewServer(iv.proxy(statemachinetest.Serve(t, svc.Register)))
	t.Cleanup(front.Close)

	sb.ResetCalls()
	start := time.Now()
	ex, err := l.Run(ctx, statemachine.Run{
		Definition: statemachine.Sweep, Input: map[string]any{}, LambdaEndpoint: front.URL,
		ExecutionName: "bench-sweep", Account: benchCentral, RetryMillis: 1000,
		S3Endpoint: sbSrv.URL, AccessKeyID: benchKey(benchCentral), SecretAccessKey: "bench-secret",
	})
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if ex.Status != "SUCCEEDED" {
		t.Fatalf("sweep: status %s, error %+v", ex.Status, ex.Error)
	}
	var sum statemachine.RunSummary
	if err := json.Unmarshal(ex.Output, &sum); err != nil {
		t.Fatalf("sweep output %s: %v", ex.Output, err)
	}

	f := BenchFigures{
		Accounts: sc.Accounts, Regions: sc.Regions, StacksPerRegion: sc.Stacks, ResourcesPerStack: sc.Resources, AccountsAtOnce: sc.AccountsAtOnce,
		Resources: sc.Accounts * sc.Regions * sc.Stacks * sc.Resources, Rate: sc.Rate, Seconds: took.Seconds(),
		Skipped: sum.Counts["skipped"], Failed: sum.Failed, Missing: sum.Missing, Checked: sum.Checked,
		Invocations: iv.count, InvocationSecs: map[string]float64{}, LargestStateBytes: ex.MaxStateOutputBytes,
		ReadUnits: units.read, WriteUnits: units.write, DynamoCalls: units.calls,
		InFlightLimit: sc.Regions * int(math.Ceil(sc.Rate)), AccountRegions: sc.Accounts * sc.Regions,
		LatencyMillis: sc.LatencyMillis,
	}
	f.ResourcesPerSecond = float64(f.Resources) / f.Seconds
	for fn, d := range iv.busy {
		f.InvocationSecs[fn] = d.Seconds()
		f.TotalInvocations += iv.count[fn]
	}
	express, large := perStackStates(t)
	for _, s := range ex.States {
		f.StateBytes += int64(s.Bytes)
		switch {
		case express[s.Name]:
			f.TransitionsExpress++
		case large[s.Name]:
			f.TransitionsLarge++
		default:
			f.TransitionsStandard++
		}
	}
	for _, e := range ex.Executions {
		if e.Type == statemachine.TypeExpress {
			f.ExpressChildren++
			f.ExpressSeconds += e.Seconds
		}
	}
	for _, mr := range ex.MapRuns {
		if mr.State == "LargeStacks" {
			f.LargeChildren += mr.ExecutionCounts.Total
		}
	}
	calls := sb.Calls()
	f.CloudControlReads = calls.Counts["cloudcontrolapi:GetResource"]
	f.S3Puts, f.S3Gets = calls.Requests["s3:PutObject"], calls.Requests["s3:GetObject"]
	shareSum, n := 0.0, 0
	f.RateShareMin = math.Inf(1)
	for k, ld := range calls.Regions {
		if strings.HasPrefix(k, benchCentral+"/") {
			continue
		}
		f.MemberCalls += ld.Calls
		f.Throttles += ld.Throttled
		span := ld.Last.Sub(ld.First).Seconds()
		if ld.Calls < 2 || span <= 0 {
			continue
		}
		// n calls over the span are n-1 intervals of the schedule.
		share := float64(ld.Calls-1) / span / sc.Rate
		shareSum += share
		n++
		f.RateShareMin = min(f.RateShareMin, share)
	}
	if n > 0 {
		f.RateShareMean = shareSum / float64(n)
	}
	for acct, m := range calls.AccountMaxInFlight {
		if acct != benchCentral {
			f.PeakAccountInFlight = max(f.PeakAccountInFlight, m)
		}
	}

	b, _ := json.MarshalIndent(f, "", "  ")
	if out := os.Getenv(benchEnvOut); out != "" {
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	per10k := func(x float64) float64 { return x * 10000 / float64(f.Resources) }
	t.Logf("bench: %d accounts × %d regions × %d stacks × %d resources = %d resources at %.4g calls/s per account-region, %d accounts at once", sc.Accounts, sc.Regions, sc.Stacks, sc.Resources, f.Resources, sc.Rate, sc.AccountsAtOnce)
	t.Logf("bench: %.1f s, %.1f resources/s", f.Seconds, f.ResourcesPerSecond)
	t.Logf("bench: sustained read rate per account-region: min %.1f%%, mean %.1f%% of %.4g calls/s (%d member calls)", 100*f.RateShareMin, 100*f.RateShareMean, sc.Rate, f.MemberCalls)
	t.Logf("bench: calls per API %v", calls.Counts)
	t.Logf("bench: throttles absorbed %d, resources skipped %d, failed checks %d, missing %d, checked stacks %d", f.Throttles, f.Skipped, f.Failed, f.Missing, f.Checked)
	t.Logf("bench: Lambda invocations %d (%v)", f.TotalInvocations, f.Invocations)
	t.Logf("bench: state transitions %d of the sweep and its per-account children (Standard) + %d of the Express per-stack children (%d children, %.0f s in all) + %d of the Standard ones of large stacks (%d children)",
		f.TransitionsStandard, f.TransitionsExpress, f.ExpressChildren, f.ExpressSeconds, f.TransitionsLarge, f.LargeChildren)
	t.Logf("bench: DynamoDB units per 10,000 resources: %.0f read, %.0f write (%v)", per10k(f.ReadUnits), per10k(f.WriteUnits), f.DynamoCalls)
	t.Logf("bench: largest state payload %d bytes (limit 65536)", f.LargestStateBytes)
	t.Logf("bench: peak per-account in-flight reads %d (limit %d)", f.PeakAccountInFlight, f.InFlightLimit)

	// What holds at every scale.
	if f.Skipped != 0 || f.Failed != 0 || f.Missing != 0 || f.Checked != sc.Accounts*sc.Regions*sc.Stacks {
		t.Errorf("skipped %d, failed %d, missing %d, checked %d of %d stacks: want every stack checked, nothing skipped", f.Skipped, f.Failed, f.Missing, f.Checked, sc.Accounts*sc.Regions*sc.Stacks)
	}
	if f.LargestStateBytes >= 64*1024 {
		t.Errorf("largest state payload %d bytes, want under 64 KiB", f.LargestStateBytes)
	}
	if f.PeakAccountInFlight > f.InFlightLimit {
		t.Errorf("peak per-account in-flight reads %d, limit %d", f.PeakAccountInFlight, f.InFlightLimit)
	}
	// Run state is spread over partitions: one per stack besides the
	// run's own, none holding more than one stack's items.
	parts := map[string]int{}
	pager := dynamodb.NewScanPaginator(db, &dynamodb.ScanInput{TableName: aws.String(table), ProjectionExpression: aws.String("pk")})
	for pager.HasMorePages() {
		page, err := pager.NextPage(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, it := range page.Items {
			if pk := it["pk"].(*ddbtypes.AttributeValueMemberS).Value; strings.HasPrefix(pk, "RUN#") {
				parts[pk]++
			}
		}
	}
	largest := 0
	for _, n := range parts {
		largest = max(largest, n)
	}
	t.Logf("bench: run state in %d partitions, the largest %d items", len(parts), largest)
	if stacks := sc.Accounts * sc.Regions * sc.Stacks; len(parts) < stacks || largest > 4*(sc.Resources+8) {
		t.Errorf("run state in %d partitions (largest %d items) for %d stacks: want one partition per stack at least", len(parts), largest, stacks)
	}
	// Schema facts come from the snapshot (it has AWS::SQS::Queue):
	// DescribeType is asked only for types it lacks, once per sweep.
	if n := calls.Counts["cloudformation:DescribeType"]; n != 0 {
		t.Errorf("%d DescribeType calls for a type the snapshot holds, want 0", n)
	}
	// The speed figure is the script's acceptance, not CI's.
	if sc.Full && f.RateShareMin < 0.9 {
		t.Errorf("sustained read rate: min %.1f%% of the configured rate per account-region, want >= 90%%", 100*f.RateShareMin)
	}
}

// perStackStates are the names of the states of the sweep's per-stack
// children, their inner Maps' included: the Stacks Map's (Express) and the
// LargeStacks Map's (Standard).
func perStackStates(t *testing.T) (express, large map[string]bool) {
	t.Helper()
	b, err := os.ReadFile("../../statemachine/sweep.asl.json")
	if err != nil {
		t.Fatal(err)
	}
	var def any
	if err := json.Unmarshal(b, &def); err != nil {
		t.Fatal(err)
	}
	var names func(states map[string]any, into map[string]bool)
	names = func(states map[string]any, into map[string]bool) {
		for name, st := range states {
			into[name] = true
			if p, ok := st.(map[string]any)["ItemProcessor"].(map[string]any); ok {
				names(p["States"].(map[string]any), into)
			}
		}
	}
	express, large = map[string]bool{}, map[string]bool{}
	var find func(v any)
	find = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, c := range v {
				if st, ok := c.(map[string]any); ok && (k == "Stacks" || k == "LargeStacks") && st["Type"] == "Map" {
					into := express
					if k == "LargeStacks" {
						into = large
					}
					names(st["ItemProcessor"].(map[string]any)["States"].(map[string]any), into)
					continue
				}
				find(c)
			}
		case []any:
			for _, c := range v {
				find(c)
			}
		}
	}
	find(def)
	if len(express) == 0 || len(large) == 0 {
		t.Fatal("sweep.asl.json: no Stacks and LargeStacks Maps")
	}
	return express, large
}

// tableConfig returns the AWS config of set in region (SDK logging off)
// and a DynamoDB client of it on ddbURL, with the table created there.
func tableConfig(t *testing.T, set service.Settings, region, ddbURL, table string) (aws.Config, *dynamodb.Client) {
	t.Helper()
	cfg, err := service.AWSConfig(t.Context(), set, region)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Logger = logging.Nop{}
	db := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) { o.BaseEndpoint = aws.String(ddbURL) })
	if err := store.CreateTable(t.Context(), db, table); err != nil {
		t.Fatal(err)
	}
	return cfg, db
}
