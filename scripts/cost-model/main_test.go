package main

import (
	"encoding/json"
	"flag"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestCosts: each component is its count times its price, scaled to
// 10,000 resources.
func TestCosts(t *testing.T) {
	p := prices{LambdaGBSecond: 1e-5, LambdaRequest: 2e-7, LambdaMB: 512, MemoryMB: map[string]float64{"b": 256}, StandardTransition: 2.5e-5,
		ExpressRequest: 1e-6, ExpressGBSecond: 1e-5, ExpressMB: 64, ReadUnit: 1e-7, WriteUnit: 1e-6,
		S3Put: 5e-6, S3Get: 4e-7, S3PutsPerRegion: 4, S3GetsPerRegion: 1, LogsGB: 0.5, LogsProtectGB: 0.1, LogBytesPerEvent: 100, LambdaLogBytes: 500, XRayTrace: 5e-6,
		ExtraTrails: 2, HandlerReads: 1, TrailEvent: 2e-5, GuardDutyEvent: 4e-6, SFNLogLevel: "ALL"}
	// 20,000 resources: every count halves per 10,000.
	f := figures{Resources: 20000, Invocations: map[string]int{"a": 300, "b": 100}, InvocationSeconds: map[string]float64{"a": 200, "b": 200},
		Standard: 2000, Express: 4000, ExpressChildren: 100, ExpressSeconds: 1600, Large: 600, LargeChildren: 10, StateBytes: 1e6, ReadUnits: 1e5, WriteUnits: 2e5, AccountRegions: 10,
		MemberCalls: 30000, CloudControlReads: 10000}
	want := map[string]float64{
		"Lambda compute":  (100*0.5 + 100*0.25) * 1e-5, // a at 512 MB, b at 256, halved
		"Lambda requests": 200 * 2e-7,
		"Step Functions Standard: sweep, per-account": 1000 * 2.5e-5,
		"Step Functions Express requests":             50 * 1e-6,
		"Step Functions Express duration":             800 * 0.0625 * 1e-5,
		"Step Functions Standard: large stacks":       300 * 2.5e-5,
		"DynamoDB reads":                              5e4 * 1e-7,
		"DynamoDB writes":                             1e5 * 1e-6,
		"S3 (ItemReader/ResultWriter)":                5 * (4*5e-6 + 4e-7),
		"CloudWatch Logs ingestion":                   (6600*2*100 + 2e6 + 400*500) / 2 / 1e9 * 0.5,
		"CloudWatch Logs data protection":             (6600*2*100 + 2e6) / 2 / 1e9 * 0.1,
		"X-Ray traces":                                60 * 5e-6,
		"CloudTrail extra trail copies":               (15000 + 5000) * 2 * 2e-5, // 15,000 calls and 5,000 handler reads, 2 extra trails
		"GuardDuty CloudTrail analysis":               (15000 + 5000) * 4e-6,
	}
	got := costs(f, p)
	if len(got) != len(want) {
		t.Fatalf("%d lines, want %d", len(got), len(want))
	}
	for _, l := range got {
		if w, ok := want[l.what]; !ok || math.Abs(l.dollars-w) > 1e-12 {
			t.Errorf("%s: $%g, want $%g", l.what, l.dollars, w)
		}
	}
	var out strings.Builder
	total := report(&out, f, p)
	var sum float64
	for what, w := range want {
		if !strings.HasPrefix(what, "CloudTrail") && what != guardDuty {
			sum += w
		}
	}
	if math.Abs(total-sum) > 1e-12 || !strings.Contains(out.String(), "assumptions") || !strings.Contains(out.String(), "total with GuardDuty") {
		t.Errorf("total $%g, want $%g; report:\n%s", total, sum, out.String())
	}
}

// TestCostsLogLevelAndFixed: at log level ERROR a clean sweep logs no
// state machine events; measured S3 requests are priced as measured; the
// fixed monthly lines are their counts times their prices.
func TestCostsLogLevelAndFixed(t *testing.T) {
	p := prices{StandardTransition: 2.5e-5, LogsGB: 0.5, LogsProtectGB: 0.1, LogBytesPerEvent: 100, LambdaLogBytes: 500, SFNLogLevel: "ERROR",
		LambdaRequest: 2e-7, LambdaGBSecond: 1e-5, ReadUnit: 1e-7, FlushPerMonth: 1000, FlushSeconds: 0.1, TriggerMB: 512,
		KMSKeys: 2, KMSKey: 1, Secrets: 1, Secret: 0.4, TableGB: 2, StorageGB: 0.25, PITRGB: 0.2, S3Put: 5e-6, S3Get: 4e-7, S3PutsPerRegion: 99, S3GetsPerRegion: 99}
	f := figures{Resources: 10000, Invocations: map[string]int{"a": 10}, InvocationSeconds: map[string]float64{}, Standard: 100, Express: 400,
		ExpressChildren: 50, ExpressSeconds: 9999, Large: 40, LargeChildren: 2, StateBytes: 1e6, AccountRegions: 4, S3Puts: 20, S3Gets: 30}
	got := map[string]float64{}
	for _, l := range costs(f, p) {
		got[l.what] = l.dollars
	}
	for what, want := range map[string]float64{
		"Step Functions Standard: sweep, per-account": 100 * 2.5e-5,
		"Step Functions Standard: large stacks":       40 * 2.5e-5,
		"S3 (ItemReader/ResultWriter)":                20*5e-6 + 30*4e-7, // measured, not per account-region
		"CloudWatch Logs ingestion":                   10 * 500 / 1e9 * 0.5,
		"CloudWatch Logs data protection":             0,
	} {
		if math.Abs(got[what]-want) > 1e-12 {
			t.Errorf("%s: $%g, want $%g", what, got[what], want)
		}
	}
	fx := map[string]float64{}
	for _, l := range fixed(p) {
		fx[l.what] = l.dollars
	}
	if diff := cmp.Diff(fx, map[string]float64{
		"debounce flush (trigger Lambda)": 1000 * (2e-7 + 0.1*0.5*1e-5 + 1e-7),
		"KMS keys":                        2,
		"Secrets Manager (Slack webhook)": 0.4,
		"DynamoDB storage":                0.5,
		"DynamoDB point-in-time recovery": 0.4,
	}, cmpopts.EquateApprox(0, 1e-12)); diff != "" {
		t.Errorf("fixed lines (-got +want):\n%s", diff)
	}
}

// TestDocsQuoteTheModel: the figures statemachine/doc.go quotes for the
// committed CI-scale benchmark figures (testdata/bench/figures-ci.json)
// are what the model prints for them at its default prices.
func TestDocsQuoteTheModel(t *testing.T) {
	var p prices
	fs := flag.NewFlagSet("cost-model", flag.ContinueOnError)
	_, memory := bindFlags(fs, &p)
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	var err error
	if p.MemoryMB, err = parseMemory(*memory); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../../testdata/bench/figures-ci.json")
	if err != nil {
		t.Fatal(err)
	}
	var f figures
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	report(&out, f, p)
	quoted := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		for _, what := range []string{"Step Functions Express duration", "central total"} {
			if strings.HasPrefix(l, what) {
				fields := strings.Fields(l)
				quoted[what] = fields[len(fields)-1]
			}
		}
	}
	if len(quoted) != 2 {
		t.Fatalf("the report lacks its Express duration or central total line:\n%s", out.String())
	}
	doc, err := os.ReadFile("../../statemachine/doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(strings.ReplaceAll(string(doc), "//", " ")), " ")
	for what, dollars := range quoted {
		if !strings.Contains(text, dollars) {
			t.Errorf("statemachine/doc.go does not quote the model's %s, %s, for testdata/bench/figures-ci.json", what, dollars)
		}
	}
}
