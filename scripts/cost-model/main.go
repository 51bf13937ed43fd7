// Command cost-model turns the sweep benchmark's counts (the JSON that
// scripts/bench-sweep.sh has TestSweepBench write) into dollars per 10,000
// resources swept at us-east-1 list prices, and prints every assumption.
//
//	go run ./scripts/cost-model [-budget 0.15] [-lambda-mb 512] FIGURES.json
//
// It exits 1 when the total is over -budget. Prices are flags (the
// defaults are us-east-1 list prices, arm64 Lambda, on-demand DynamoDB, as
// published in 2025); the free tiers are left out, so the figure is what a
// large organisation pays at the margin.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
)

// figures are the fields of the benchmark's JSON the model reads
// (internal/service.BenchFigures).
type figures struct {
	Resources         int                `json:"resources"`
	Rate              float64            `json:"configuredRate"`
	Invocations       map[string]int     `json:"invocations"`
	InvocationSeconds map[string]float64 `json:"invocationSeconds"`
	Standard          int                `json:"transitionsStandard"`
	Express           int                `json:"transitionsExpress"`
	ExpressChildren   int                `json:"expressChildren"`
	ExpressSeconds    float64            `json:"expressSeconds"`
	StateBytes        int64              `json:"stateOutputBytes"`
	ReadUnits         float64            `json:"dynamodbReadUnits"`
	WriteUnits        float64            `json:"dynamodbWriteUnits"`
	AccountRegions    int                `json:"accountRegions"`
}

// prices are the list prices the model applies.
type prices struct {
	LambdaGBSecond, LambdaRequest float64
	LambdaMB                      float64
	// MemoryMB overrides LambdaMB per function.
	MemoryMB                         map[string]float64
	StandardTransition               float64
	ExpressRequest, ExpressGBSecond  float64
	ExpressMB                        float64
	ReadUnit, WriteUnit              float64
	S3Put, S3Get                     float64
	S3PutsPerRegion, S3GetsPerRegion float64
	LogsGB                           float64
	LogsProtectGB                    float64
	LogBytesPerEvent                 float64
	LambdaLogBytes                   float64
	XRayTrace                        float64
}

func main() {
	p := prices{}
	budget := flag.Float64("budget", 0.15, "the most dollars per 10,000 resources (exit 1 above it)")
	flag.Float64Var(&p.LambdaMB, "lambda-mb", 512, "memory of a function -memory does not name (infra: 512 MB)")
	memory := flag.String("memory", "read-resources=256,enumerate-children=256", "memory per function, NAME=MB,... (infra/functions.go: the paced readers get 256 MB)")
	flag.Float64Var(&p.LambdaGBSecond, "lambda-gb-s", 0.0000133334, "Lambda arm64 price per GB-second")
	flag.Float64Var(&p.LambdaRequest, "lambda-request", 0.20/1e6, "Lambda price per request")
	flag.Float64Var(&p.StandardTransition, "sfn-transition", 0.025/1000, "Step Functions Standard price per state transition")
	flag.Float64Var(&p.ExpressRequest, "express-request", 1.00/1e6, "Step Functions Express price per execution")
	flag.Float64Var(&p.ExpressGBSecond, "express-gb-s", 0.00001667, "Step Functions Express price per GB-second")
	flag.Float64Var(&p.ExpressMB, "express-mb", 64, "Express memory billed per execution (64 MB chunks; payloads here are a few KiB)")
	flag.Float64Var(&p.ReadUnit, "ddb-read", 0.125/1e6, "DynamoDB on-demand price per read request unit")
	flag.Float64Var(&p.WriteUnit, "ddb-write", 0.625/1e6, "DynamoDB on-demand price per write request unit")
	flag.Float64Var(&p.S3Put, "s3-put", 0.005/1000, "S3 Standard price per PUT")
	flag.Float64Var(&p.S3Get, "s3-get", 0.0004/1000, "S3 Standard price per GET")
	flag.Float64Var(&p.S3PutsPerRegion, "s3-puts", 4, "S3 PUTs per account-region (discover's stack list; ResultWriter's manifest and result files)")
	flag.Float64Var(&p.S3GetsPerRegion, "s3-gets", 1, "S3 GETs per account-region (ItemReader)")
	flag.Float64Var(&p.LogsGB, "logs-gb", 0.50, "CloudWatch Logs ingestion price per GB")
	flag.Float64Var(&p.LogsProtectGB, "logs-protect-gb", 0.12, "CloudWatch Logs data protection price per GB scanned (the state machines' log groups mask credentials)")
	flag.Float64Var(&p.LogBytesPerEvent, "log-event-bytes", 400, "bytes of a state machine log event besides its data")
	flag.Float64Var(&p.LambdaLogBytes, "lambda-log-bytes", 600, "log bytes per Lambda invocation (START, END, REPORT and the handler's one line)")
	flag.Float64Var(&p.XRayTrace, "xray-trace", 5.00/1e6, "X-Ray price per trace recorded (every execution sampled)")
	flag.Parse()
	var err error
	if p.MemoryMB, err = parseMemory(*memory); err != nil {
		fmt.Fprintln(os.Stderr, "cost-model: -memory:", err)
		os.Exit(2)
	}
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: cost-model [flags] FIGURES.json")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "cost-model:", err)
		os.Exit(2)
	}
	var f figures
	if err := json.Unmarshal(b, &f); err != nil || f.Resources <= 0 {
		fmt.Fprintf(os.Stderr, "cost-model: %s: not the benchmark's figures (%v)\n", flag.Arg(0), err)
		os.Exit(2)
	}
	total := report(os.Stdout, f, p)
	if total > *budget {
		fmt.Printf("over budget: $%.4f > $%.4f per 10,000 resources\n", total, *budget)
		os.Exit(1)
	}
	fmt.Printf("within budget: $%.4f <= $%.4f per 10,000 resources\n", total, *budget)
}

// parseMemory reads NAME=MB,... .
func parseMemory(v string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, kv := range strings.Split(v, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		name, mb, ok := strings.Cut(kv, "=")
		n, err := strconv.ParseFloat(mb, 64)
		if !ok || err != nil || n <= 0 {
			return nil, fmt.Errorf("%q: want NAME=MB", kv)
		}
		out[name] = n
	}
	return out, nil
}

// line is one cost component.
type line struct {
	what, basis string
	dollars     float64
}

// costs prices the benchmark's counts, per 10,000 resources.
func costs(f figures, p prices) []line {
	scale := 10000 / float64(f.Resources)
	var invocations int
	var seconds, gbs float64
	for fn, n := range f.Invocations {
		invocations += n
		seconds += f.InvocationSeconds[fn]
		mb := p.LambdaMB
		if m, ok := p.MemoryMB[fn]; ok {
			mb = m
		}
		gbs += f.InvocationSeconds[fn] * mb / 1024
	}
	expressGBs := f.ExpressSeconds * p.ExpressMB / 1024
	transitions := f.Standard + f.Express
	// Each transition logs an entered and an exited event carrying the
	// state's data (the output bytes stand in for both input and output).
	sfnLogBytes := float64(transitions)*2*p.LogBytesPerEvent + 2*float64(f.StateBytes)
	logBytes := sfnLogBytes + float64(invocations)*p.LambdaLogBytes
	traces := float64(f.ExpressChildren + f.AccountRegions)
	return []line{
		{"Lambda compute", fmt.Sprintf("%.0f GB-s (%.0f s)", gbs*scale, seconds*scale), gbs * scale * p.LambdaGBSecond},
		{"Lambda requests", fmt.Sprintf("%.0f invocations", float64(invocations)*scale), float64(invocations) * scale * p.LambdaRequest},
		{"Step Functions Standard", fmt.Sprintf("%.0f state transitions", float64(f.Standard)*scale), float64(f.Standard) * scale * p.StandardTransition},
		{"Step Functions Express requests", fmt.Sprintf("%.0f per-stack executions", float64(f.ExpressChildren)*scale), float64(f.ExpressChildren) * scale * p.ExpressRequest},
		{"Step Functions Express duration", fmt.Sprintf("%.0f GB-s (%.0f s × %.0f MB)", expressGBs*scale, f.ExpressSeconds*scale, p.ExpressMB), expressGBs * scale * p.ExpressGBSecond},
		{"DynamoDB reads", fmt.Sprintf("%.0f read request units", f.ReadUnits*scale), f.ReadUnits * scale * p.ReadUnit},
		{"DynamoDB writes", fmt.Sprintf("%.0f write request units", f.WriteUnits*scale), f.WriteUnits * scale * p.WriteUnit},
		{"S3 (ItemReader/ResultWriter)", fmt.Sprintf("%.0f PUT + %.0f GET", float64(f.AccountRegions)*scale*p.S3PutsPerRegion, float64(f.AccountRegions)*scale*p.S3GetsPerRegion),
			float64(f.AccountRegions) * scale * (p.S3PutsPerRegion*p.S3Put + p.S3GetsPerRegion*p.S3Get)},
		{"CloudWatch Logs ingestion", fmt.Sprintf("%.1f MB", logBytes*scale/1e6), logBytes * scale / 1e9 * p.LogsGB},
		{"CloudWatch Logs data protection", fmt.Sprintf("%.1f MB of state machine logs", sfnLogBytes*scale/1e6), sfnLogBytes * scale / 1e9 * p.LogsProtectGB},
		{"X-Ray traces", fmt.Sprintf("%.0f traces", traces*scale), traces * scale * p.XRayTrace},
	}
}

func report(w io.Writer, f figures, p prices) float64 {
	fmt.Fprintf(w, "cost per 10,000 resources swept (benchmark: %d resources at %.4g calls/s per account-region)\n\n", f.Resources, f.Rate)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var total float64
	for _, l := range costs(f, p) {
		fmt.Fprintf(tw, "%s\t%s\t$%.5f\n", l.what, l.basis, l.dollars)
		total += l.dollars
	}
	fmt.Fprintf(tw, "total\t\t$%.4f\n", total)
	tw.Flush()
	fmt.Fprintf(w, "\nassumptions (us-east-1 list prices, no free tier; flags override):\n")
	for _, a := range []string{
		fmt.Sprintf("Lambda arm64 $%.10f per GB-s, $%.2f per million requests; memory %v MB, else %.0f MB; billed time = each invocation's measured wall time in the benchmark (pacing waits included)", p.LambdaGBSecond, p.LambdaRequest*1e6, p.MemoryMB, p.LambdaMB),
		fmt.Sprintf("Step Functions Standard $%.3f per 1,000 transitions: the sweep and its per-account children; per-stack children are Express: $%.2f per million executions, $%.8f per GB-s at %.0f MB, each lasting its check (run history start to end)", p.StandardTransition*1000, p.ExpressRequest*1e6, p.ExpressGBSecond, p.ExpressMB),
		fmt.Sprintf("DynamoDB on-demand $%.3f per million read units, $%.3f per million write units, as DynamoDB Local reported them (ReturnConsumedCapacity; a failed conditional write counted as one unit)", p.ReadUnit*1e6, p.WriteUnit*1e6),
		fmt.Sprintf("S3 $%.4f per 1,000 PUTs, $%.4f per 1,000 GETs; %.0f PUTs and %.0f GET per account-region", p.S3Put*1000, p.S3Get*1000, p.S3PutsPerRegion, p.S3GetsPerRegion),
		fmt.Sprintf("CloudWatch Logs $%.2f per GB ingested: two events per transition (%.0f bytes each besides the data, the data twice the state's output), %.0f bytes per Lambda invocation; the state machines' log groups also pay data protection, $%.2f per GB scanned", p.LogsGB, p.LogBytesPerEvent, p.LambdaLogBytes, p.LogsProtectGB),
		fmt.Sprintf("X-Ray $%.2f per million traces, every execution traced", p.XRayTrace*1e6),
		"not counted: STS AssumeRole (free), the member accounts' API calls (free), EventBridge Scheduler (one start per sweep), SNS/Slack alerts (only on change), KMS requests for the encrypted logs (cached data keys)",
	} {
		fmt.Fprintln(w, "  -", a)
	}
	fmt.Fprintln(w)
	return total
}
