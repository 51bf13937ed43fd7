// Command cost-model turns the sweep benchmark's counts (the JSON that
// scripts/bench-sweep.sh has TestSweepBench write) into dollars per 10,000
// resources swept at us-east-1 list prices, and prints every assumption.
//
//	go run ./scripts/cost-model [-budget 0.15] [-lambda-mb 512] FIGURES.json
//
// It prints one line per cost with its basis, then each price's assumption
// and source: the central account's services per 10,000 resources, what a
// sweep makes the member accounts pay (CloudTrail extra trail copies and
// GuardDuty's analysis of the read events), the totals with and without
// GuardDuty, and the fixed monthly costs that do not grow with the
// organisation (the flush schedule, KMS keys, the Slack secret, DynamoDB
// storage and PITR). It exits 1 when the central account's total is over
// -budget (what realdrift's own services cost). Prices are flags (the defaults are us-east-1 list prices, arm64
// Lambda, on-demand DynamoDB, as published in 2025); the free tiers are
// left out, so the figure is what a large organisation pays at the margin.
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
	// Standard are the transitions of the sweep and its per-account
	// children; Express those of the Express per-stack children (the
	// Stacks Map), ExpressChildren their number and ExpressSeconds their
	// summed durations; Large the transitions of the Standard per-stack
	// children (the LargeStacks Map), LargeChildren their number.
	Standard        int     `json:"transitionsStandard"`
	Express         int     `json:"transitionsExpress"`
	ExpressChildren int     `json:"expressChildren"`
	ExpressSeconds  float64 `json:"expressSeconds"`
	Large           int     `json:"transitionsLargeStacks"`
	LargeChildren   int     `json:"largeStackChildren"`
	MemberCalls     int     `json:"memberCalls"`
	// CloudControlReads are the member calls that were Cloud Control
	// GetResource (its handler's reads are events too).
	CloudControlReads int     `json:"cloudControlReads"`
	LatencyMillis     float64 `json:"injectedLatencyMs"`
	StateBytes        int64   `json:"stateOutputBytes"`
	ReadUnits         float64 `json:"dynamodbReadUnits"`
	WriteUnits        float64 `json:"dynamodbWriteUnits"`
	AccountRegions    int     `json:"accountRegions"`
	// S3Puts and S3Gets are the sweep's S3 requests, when measured;
	// without them the model assumes -s3-puts and -s3-gets per
	// account-region.
	S3Puts int `json:"s3Puts"`
	S3Gets int `json:"s3Gets"`
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
	// The member accounts.
	ExtraTrails, HandlerReads  float64
	TrailEvent, GuardDutyEvent float64
	// Step Functions logging.
	SFNLogLevel string
	// Fixed monthly.
	FlushPerMonth, FlushSeconds, TriggerMB float64
	KMSKeys, KMSKey                        float64
	Secrets, Secret                        float64
	TableGB, StorageGB, PITRGB             float64
}

func main() {
	p := prices{}
	budget, memory := bindFlags(flag.CommandLine, &p)
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
	switch p.SFNLogLevel {
	case "ALL", "ERROR", "FATAL", "OFF":
	default:
		fmt.Fprintf(os.Stderr, "cost-model: -sfn-log-level %q: want ALL, ERROR, FATAL or OFF\n", p.SFNLogLevel)
		os.Exit(2)
	}
	total := report(os.Stdout, f, p)
	if total > *budget {
		fmt.Printf("over budget: central $%.4f > $%.4f per 10,000 resources\n", total, *budget)
		os.Exit(1)
	}
	fmt.Printf("within budget: central $%.4f <= $%.4f per 10,000 resources\n", total, *budget)
}

// bindFlags defines the model's flags on fs, the prices' defaults being
// us-east-1 list prices; it returns the -budget and -memory values.
func bindFlags(fs *flag.FlagSet, p *prices) (budget *float64, memory *string) {
	budget = fs.Float64("budget", 0.15, "the most dollars per 10,000 resources the central account may cost (exit 1 above it)")
	fs.Float64Var(&p.LambdaMB, "lambda-mb", 512, "memory of a function -memory does not name (infra: 512 MB)")
	memory = fs.String("memory", "read-resources=256,enumerate-children=256", "memory per function, NAME=MB,... (infra/functions.go: the paced readers get 256 MB)")
	fs.Float64Var(&p.LambdaGBSecond, "lambda-gb-s", 0.0000133334, "Lambda arm64 price per GB-second")
	fs.Float64Var(&p.LambdaRequest, "lambda-request", 0.20/1e6, "Lambda price per request")
	fs.Float64Var(&p.StandardTransition, "sfn-transition", 0.025/1000, "Step Functions Standard price per state transition")
	fs.Float64Var(&p.ExpressRequest, "express-request", 1.00/1e6, "Step Functions Express price per execution")
	fs.Float64Var(&p.ExpressGBSecond, "express-gb-s", 0.00001667, "Step Functions Express price per GB-second")
	fs.Float64Var(&p.ExpressMB, "express-mb", 64, "Express memory billed per execution (64 MB chunks; payloads here are a few KiB)")
	fs.Float64Var(&p.ReadUnit, "ddb-read", 0.125/1e6, "DynamoDB on-demand price per read request unit")
	fs.Float64Var(&p.WriteUnit, "ddb-write", 0.625/1e6, "DynamoDB on-demand price per write request unit")
	fs.Float64Var(&p.S3Put, "s3-put", 0.005/1000, "S3 Standard price per PUT")
	fs.Float64Var(&p.S3Get, "s3-get", 0.0004/1000, "S3 Standard price per GET")
	fs.Float64Var(&p.S3PutsPerRegion, "s3-puts", 5, "S3 PUTs per account-region (discover's stack list and large-stack list; the two Maps' ResultWriter manifests and the Stacks Map's result file)")
	fs.Float64Var(&p.S3GetsPerRegion, "s3-gets", 5, "S3 GETs per account-region (the two Maps' ItemReaders; discover's reads of the Stacks Map's manifest, result file and stack list)")
	fs.Float64Var(&p.LogsGB, "logs-gb", 0.50, "CloudWatch Logs ingestion price per GB")
	fs.Float64Var(&p.LogsProtectGB, "logs-protect-gb", 0.12, "CloudWatch Logs data protection price per GB scanned (the state machines' log groups mask credentials)")
	fs.Float64Var(&p.LogBytesPerEvent, "log-event-bytes", 400, "bytes of a state machine log event besides its data")
	fs.Float64Var(&p.LambdaLogBytes, "lambda-log-bytes", 600, "log bytes per Lambda invocation (START, END, REPORT and the handler's one line)")
	fs.Float64Var(&p.XRayTrace, "xray-trace", 5.00/1e6, "X-Ray price per trace recorded (every execution sampled)")
	fs.Float64Var(&p.ExtraTrails, "extra-trails", 1, "trails in a member account beyond the first copy of its management events (an organisation trail plus one more is common)")
	fs.Float64Var(&p.HandlerReads, "handler-reads", 1, "service reads a Cloud Control GetResource's handler makes in the member account, each a CloudTrail event of its own")
	fs.Float64Var(&p.TrailEvent, "trail-event", 2.00/100000, "CloudTrail price per management event delivered by an additional trail")
	fs.Float64Var(&p.GuardDutyEvent, "guardduty-event", 4.00/1e6, "GuardDuty price per CloudTrail management event analysed")
	fs.StringVar(&p.SFNLogLevel, "sfn-log-level", "ALL", "the state machines' log level (infra/logging.go: ALL): ALL logs two events per transition, ERROR and FATAL only failures (none in a clean sweep), OFF none")
	fs.Float64Var(&p.FlushPerMonth, "flush-per-month", 30*24*60, "flush invocations per month (infra/events.go FlushSchedule: rate(1 minute))")
	fs.Float64Var(&p.FlushSeconds, "flush-seconds", 0.1, "billed seconds of one flush invocation (one Query, usually nothing to start)")
	fs.Float64Var(&p.TriggerMB, "trigger-mb", 512, "the trigger function's memory (infra: 512 MB)")
	fs.Float64Var(&p.KMSKeys, "kms-keys", 2, "customer managed KMS keys (infra/encryption.go: LogsKey, MessagesKey)")
	fs.Float64Var(&p.KMSKey, "kms-key", 1.00, "KMS price per customer managed key per month (each of the first two automatic rotations adds $1)")
	fs.Float64Var(&p.Secrets, "secrets", 1, "Secrets Manager secrets (the Slack webhook)")
	fs.Float64Var(&p.Secret, "secret", 0.40, "Secrets Manager price per secret per month (its reads are cached per process)")
	fs.Float64Var(&p.TableGB, "table-gb", 1, "the table's stored GB (baselines, latest findings, run history; run state expires by TTL)")
	fs.Float64Var(&p.StorageGB, "ddb-storage-gb", 0.25, "DynamoDB Standard storage price per GB-month")
	fs.Float64Var(&p.PITRGB, "ddb-pitr-gb", 0.20, "DynamoDB point-in-time recovery price per GB-month")
	return budget, memory
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
	section, what, basis string
	dollars              float64
}

// Sections of the report.
const (
	central = "central account"
	members = "member accounts"
)

// costs prices the benchmark's counts, per 10,000 resources: the central
// account's lines, then the member accounts' (GuardDuty last).
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
	transitions := f.Standard + f.Express + f.Large
	// At ALL each transition logs an entered and an exited event carrying
	// the state's data (the output bytes stand in for both input and
	// output); ERROR and FATAL log failures only, none in a clean sweep.
	var sfnLogBytes float64
	if p.SFNLogLevel == "ALL" {
		sfnLogBytes = float64(transitions)*2*p.LogBytesPerEvent + 2*float64(f.StateBytes)
	}
	logBytes := sfnLogBytes + float64(invocations)*p.LambdaLogBytes
	traces := float64(f.ExpressChildren + f.LargeChildren + f.AccountRegions)
	compute := fmt.Sprintf("%.0f GB-s (%.0f s", gbs*scale, seconds*scale)
	if f.LatencyMillis > 0 {
		compute += fmt.Sprintf(", each member call %.0f ms", f.LatencyMillis)
	}
	expressGBs := f.ExpressSeconds * p.ExpressMB / 1024
	out := []line{
		{central, "Lambda compute", compute + ")", gbs * scale * p.LambdaGBSecond},
		{central, "Lambda requests", fmt.Sprintf("%.0f invocations", float64(invocations)*scale), float64(invocations) * scale * p.LambdaRequest},
		{central, "Step Functions Standard: sweep, per-account", fmt.Sprintf("%.0f state transitions", float64(f.Standard)*scale), float64(f.Standard) * scale * p.StandardTransition},
		{central, "Step Functions Express requests", fmt.Sprintf("%.0f per-stack executions", float64(f.ExpressChildren)*scale), float64(f.ExpressChildren) * scale * p.ExpressRequest},
		{central, "Step Functions Express duration", fmt.Sprintf("%.0f GB-s (%.0f s × %.0f MB)", expressGBs*scale, f.ExpressSeconds*scale, p.ExpressMB), expressGBs * scale * p.ExpressGBSecond},
		{central, "Step Functions Standard: large stacks", fmt.Sprintf("%.0f state transitions (%.0f executions)", float64(f.Large)*scale, float64(f.LargeChildren)*scale), float64(f.Large) * scale * p.StandardTransition},
	}
	puts, gets := float64(f.S3Puts), float64(f.S3Gets)
	if puts == 0 && gets == 0 {
		puts, gets = float64(f.AccountRegions)*p.S3PutsPerRegion, float64(f.AccountRegions)*p.S3GetsPerRegion
	}
	events := (float64(f.MemberCalls) + float64(f.CloudControlReads)*p.HandlerReads) * scale
	return append(out,
		line{central, "DynamoDB reads", fmt.Sprintf("%.0f read request units", f.ReadUnits*scale), f.ReadUnits * scale * p.ReadUnit},
		line{central, "DynamoDB writes", fmt.Sprintf("%.0f write request units", f.WriteUnits*scale), f.WriteUnits * scale * p.WriteUnit},
		line{central, "S3 (ItemReader/ResultWriter)", fmt.Sprintf("%.0f PUT + %.0f GET", puts*scale, gets*scale), scale * (puts*p.S3Put + gets*p.S3Get)},
		line{central, "CloudWatch Logs ingestion", fmt.Sprintf("%.1f MB (state machines at %s)", logBytes*scale/1e6, p.SFNLogLevel), logBytes * scale / 1e9 * p.LogsGB},
		line{central, "CloudWatch Logs data protection", fmt.Sprintf("%.1f MB of state machine logs", sfnLogBytes*scale/1e6), sfnLogBytes * scale / 1e9 * p.LogsProtectGB},
		line{central, "X-Ray traces", fmt.Sprintf("%.0f traces", traces*scale), traces * scale * p.XRayTrace},
		line{members, "CloudTrail extra trail copies", fmt.Sprintf("%.0f read events × %.0f extra trail(s) (%d member calls)", events, p.ExtraTrails, int(float64(f.MemberCalls)*scale)), events * p.ExtraTrails * p.TrailEvent},
		line{members, guardDuty, fmt.Sprintf("%.0f read events analysed", events), events * p.GuardDutyEvent},
	)
}

// guardDuty is the line the total without GuardDuty leaves out.
const guardDuty = "GuardDuty CloudTrail analysis"

// fixed prices what runs whatever the organisation's size, per month.
func fixed(p prices) []line {
	return []line{
		{"fixed", "debounce flush (trigger Lambda)", fmt.Sprintf("%.0f invocations × %.1f s at %.0f MB, one Query each", p.FlushPerMonth, p.FlushSeconds, p.TriggerMB),
			p.FlushPerMonth * (p.LambdaRequest + p.FlushSeconds*p.TriggerMB/1024*p.LambdaGBSecond + p.ReadUnit)},
		{"fixed", "KMS keys", fmt.Sprintf("%.0f customer managed keys", p.KMSKeys), p.KMSKeys * p.KMSKey},
		{"fixed", "Secrets Manager (Slack webhook)", fmt.Sprintf("%.0f secret(s)", p.Secrets), p.Secrets * p.Secret},
		{"fixed", "DynamoDB storage", fmt.Sprintf("%.1f GB", p.TableGB), p.TableGB * p.StorageGB},
		{"fixed", "DynamoDB point-in-time recovery", fmt.Sprintf("%.1f GB", p.TableGB), p.TableGB * p.PITRGB},
	}
}

func report(w io.Writer, f figures, p prices) float64 {
	fmt.Fprintf(w, "cost per 10,000 resources swept (benchmark: %d resources at %.4g calls/s per account-region, %d Express and %d Standard per-stack children, %.0f ms per member call)\n\n",
		f.Resources, f.Rate, f.ExpressChildren, f.LargeChildren, f.LatencyMillis)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	var centralTotal, total, gd float64
	section := ""
	for _, l := range costs(f, p) {
		if l.section != section {
			if section == central {
				fmt.Fprintf(tw, "central total\t\t$%.4f\n", centralTotal)
			}
			section = l.section
			fmt.Fprintf(tw, "[%s]\t\t\n", section)
		}
		fmt.Fprintf(tw, "%s\t%s\t$%.5f\n", l.what, l.basis, l.dollars)
		switch {
		case l.what == guardDuty:
			gd += l.dollars
			continue
		case l.section == central:
			centralTotal += l.dollars
		}
		total += l.dollars
	}
	fmt.Fprintf(tw, "total without GuardDuty\t\t$%.4f\n", total)
	fmt.Fprintf(tw, "total with GuardDuty\t\t$%.4f\n", total+gd)
	fmt.Fprintf(tw, "[fixed per month, whatever the size]\t\t\n")
	var month float64
	for _, l := range fixed(p) {
		fmt.Fprintf(tw, "%s\t%s\t$%.4f\n", l.what, l.basis, l.dollars)
		month += l.dollars
	}
	fmt.Fprintf(tw, "fixed total per month\t\t$%.4f\n", month)
	tw.Flush()
	fmt.Fprintf(w, "\nassumptions and sources (us-east-1 list prices, no free tier; flags override):\n")
	sfn := fmt.Sprintf("Step Functions: the sweep and its per-account children are Standard, $%.3f per 1,000 transitions, as are the per-stack children of stacks over statemachine.ExpressStackResources resources or whose Express check did not end (sweep.asl.json LargeStacks); the other per-stack children are Express (Stacks): $%.2f per million executions, $%.8f per GB-s at %.0f MB, each billed for its measured duration — https://aws.amazon.com/step-functions/pricing/", p.StandardTransition*1000, p.ExpressRequest*1e6, p.ExpressGBSecond, p.ExpressMB)
	for _, a := range []string{
		fmt.Sprintf("Lambda arm64 $%.10f per GB-s, $%.2f per million requests; memory %v MB, else %.0f MB; billed time = each invocation's measured wall time in the benchmark (pacing waits included; the sandbox added %.0f ms to every member call, as an AWS read takes) — https://aws.amazon.com/lambda/pricing/", p.LambdaGBSecond, p.LambdaRequest*1e6, p.MemoryMB, p.LambdaMB, f.LatencyMillis),
		sfn,
		fmt.Sprintf("DynamoDB on-demand $%.3f per million read units, $%.3f per million write units, as DynamoDB Local reported them (ReturnConsumedCapacity; a failed conditional write counted as one unit) — https://aws.amazon.com/dynamodb/pricing/on-demand/", p.ReadUnit*1e6, p.WriteUnit*1e6),
		fmt.Sprintf("S3 $%.4f per 1,000 PUTs, $%.4f per 1,000 GETs; the benchmark's requests, else %.0f PUTs and %.0f GETs per account-region — https://aws.amazon.com/s3/pricing/", p.S3Put*1000, p.S3Get*1000, p.S3PutsPerRegion, p.S3GetsPerRegion),
		fmt.Sprintf("CloudWatch Logs $%.2f per GB ingested: at log level %s (infra/logging.go: ALL) two events per transition (%.0f bytes each besides the data, the data twice the state's output), %.0f bytes per Lambda invocation; the state machines' log groups also pay data protection, $%.2f per GB scanned — https://aws.amazon.com/cloudwatch/pricing/", p.LogsGB, p.SFNLogLevel, p.LogBytesPerEvent, p.LambdaLogBytes, p.LogsProtectGB),
		fmt.Sprintf("X-Ray $%.2f per million traces, every execution traced — https://aws.amazon.com/xray/pricing/", p.XRayTrace*1e6),
		fmt.Sprintf("member accounts: every member call is a CloudTrail management read event, and a Cloud Control GetResource %.0f more (its handler's service reads); the first copy of management events is free, each of %.0f extra trail(s) pays $%.2f per 100,000 events — https://aws.amazon.com/cloudtrail/pricing/", p.HandlerReads, p.ExtraTrails, p.TrailEvent*100000),
		fmt.Sprintf("member accounts with GuardDuty: $%.2f per million CloudTrail management events analysed (first 500 million a month) — https://aws.amazon.com/guardduty/pricing/", p.GuardDutyEvent*1e6),
		fmt.Sprintf("fixed: the flush (infra/events.go, rate(1 minute)) is %.0f trigger invocations a month at Lambda's prices plus one DynamoDB read unit each; EventBridge scheduled rules are free — https://aws.amazon.com/eventbridge/pricing/", p.FlushPerMonth),
		fmt.Sprintf("fixed: KMS $%.2f per customer managed key a month (rotation adds $1 a month for each of the first two rotations; requests are cached data keys) — https://aws.amazon.com/kms/pricing/", p.KMSKey),
		fmt.Sprintf("fixed: Secrets Manager $%.2f per secret a month — https://aws.amazon.com/secrets-manager/pricing/", p.Secret),
		fmt.Sprintf("fixed: DynamoDB storage $%.2f and point-in-time recovery $%.2f per GB-month of %.1f GB — https://aws.amazon.com/dynamodb/pricing/on-demand/", p.StorageGB, p.PITRGB, p.TableGB),
		"not counted: STS AssumeRole (free), the member accounts' API calls themselves (free), EventBridge Scheduler (one start per sweep), SNS/Slack alerts (only on change), empty dead-letter queues",
	} {
		fmt.Fprintln(w, "  -", a)
	}
	fmt.Fprintln(w)
	return centralTotal
}
