package main

import (
	"math"
	"strings"
	"testing"
)

// TestCosts: each component is its count times its price, scaled to
// 10,000 resources.
func TestCosts(t *testing.T) {
	p := prices{LambdaGBSecond: 1e-5, LambdaRequest: 2e-7, LambdaMB: 512, MemoryMB: map[string]float64{"b": 256}, StandardTransition: 2.5e-5,
		ExpressRequest: 1e-6, ExpressGBSecond: 1e-5, ExpressMB: 64, ReadUnit: 1e-7, WriteUnit: 1e-6,
		S3Put: 5e-6, S3Get: 4e-7, S3PutsPerRegion: 4, S3GetsPerRegion: 1, LogsGB: 0.5, LogsProtectGB: 0.1, LogBytesPerEvent: 100, LambdaLogBytes: 500, XRayTrace: 5e-6}
	// 20,000 resources: every count halves per 10,000.
	f := figures{Resources: 20000, Invocations: map[string]int{"a": 300, "b": 100}, InvocationSeconds: map[string]float64{"a": 200, "b": 200},
		Standard: 2000, Express: 4000, ExpressChildren: 100, ExpressSeconds: 1600, StateBytes: 1e6, ReadUnits: 1e5, WriteUnits: 2e5, AccountRegions: 10}
	want := map[string]float64{
		"Lambda compute":                  (100*0.5 + 100*0.25) * 1e-5, // a at 512 MB, b at 256, halved
		"Lambda requests":                 200 * 2e-7,
		"Step Functions Standard":         1000 * 2.5e-5,
		"Step Functions Express requests": 50 * 1e-6,
		"Step Functions Express duration": 800 * 0.0625 * 1e-5,
		"DynamoDB reads":                  5e4 * 1e-7,
		"DynamoDB writes":                 1e5 * 1e-6,
		"S3 (ItemReader/ResultWriter)":    5 * (4*5e-6 + 4e-7),
		"CloudWatch Logs ingestion":       (6000*2*100 + 2e6 + 400*500) / 2 / 1e9 * 0.5,
		"CloudWatch Logs data protection": (6000*2*100 + 2e6) / 2 / 1e9 * 0.1,
		"X-Ray traces":                    55 * 5e-6,
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
	for _, w := range want {
		sum += w
	}
	if math.Abs(total-sum) > 1e-12 || !strings.Contains(out.String(), "assumptions") {
		t.Errorf("total $%g, want $%g; report:\n%s", total, sum, out.String())
	}
}
