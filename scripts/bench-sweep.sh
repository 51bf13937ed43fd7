#!/usr/bin/env bash
# Sweep benchmark: a generated organisation of ACCOUNTS × REGIONS × STACKS ×
# RESOURCES (default 40x4x10x30 = 48,000 SQS queues) swept by the real sweep
# definition under the local Step Functions interpreter (scripts/sfn), the
# real handlers served by internal/lambdarouter, DynamoDB Local and the
# sandbox — whose throttle is the configured read rate per account-region,
# one token bucket over every API, as the pace limiter's schedule assumes.
# It prints resources/s, the sustained read rate per account-region as a
# share of the configured limit, throttles absorbed, resources skipped,
# failed checks, Lambda invocations, state transitions, DynamoDB units per
# 10,000 resources, the largest state payload and the peak per-account
# in-flight calls; then scripts/cost-model prices the counts per 10,000
# resources. It exits non-zero when an acceptance figure misses: ≥ 90 % of
# the rate sustained per account-region, 0 skipped, 0 failed, the largest
# state payload under 64 KiB, peak per-account in-flight calls within
# regions × rate, ≤ $0.15 per 10,000 resources.
#
# Usage: scripts/bench-sweep.sh [ACCOUNTSxREGIONSxSTACKSxRESOURCES]
#
#   RATE=10          calls/s per account-region: the limiter's rate and the
#                    sandbox's throttle, always the same value (default the
#                    service's default, 10)
#   AT_ONCE=5        accounts swept at once (REALDRIFT_ACCOUNTS_AT_ONCE;
#                    the service's default is 10)
#   LATENCY_MS=50    latency the sandbox adds to every member call, as an
#                    AWS read takes, so the Lambda time cost-model prices is
#                    not that of millisecond local reads
#
# Time is real: nothing is scaled. The sweep's throughput is AT_ONCE ×
# REGIONS × RATE calls/s in all; on the project's 2 shared cores the local
# harness (one node interpreter, DynamoDB Local, the sandbox and every
# handler in one process) keeps up with about 300 calls/s, so AT_ONCE
# defaults to 5 (5 × 4 × 10 = 200 calls/s): per account-region the rate is
# the production one, there are just fewer account-regions at a time. On a
# faster machine raise AT_ONCE to 10; on a slower or busier one lower it
# (or lower RATE — the throttle follows it). The full run takes about ten
# minutes; CI runs the same test at a small scale (TestSweepBench without
# REALDRIFT_BENCH_SWEEP), which checks everything but the speed.
#
# Measured on the project's machine (2 shared cores, otherwise idle), the
# default run (2026-12-06): 524.8 s, 91.5 resources/s; sustained read rate
# per account-region min 93.2 %, mean 98.7 % of 10 calls/s (100,960 member
# calls, 50 ms each); 0 throttles absorbed, 0 resources skipped, 0 failed
# checks, 0 missing, 1,600 stacks checked; 14,608 Lambda invocations; 620
# state transitions of the sweep and its per-account children + 22,400 of
# the 1,600 Express per-stack children (49,332 s in all), no large stacks;
# DynamoDB 21,676 read and 37,020 write units per 10,000 resources; largest
# state payload 930 bytes; peak per-account in-flight calls 14 (limit 40);
# run state in 1,601 partitions. cost-model, per 10,000 resources: central
# $0.1057 (within the $0.15 budget; Express duration $0.0107 of it),
# $0.7264 with the member accounts' extra trail, $0.8505 with GuardDuty
# too; $2.8928 a month fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-40x4x10x30}"
rate="${RATE:-10}"
at_once="${AT_ONCE:-5}"
latency="${LATENCY_MS:-50}"

started_ddb=""
if [ -z "${REALDRIFT_DYNAMODB_ENDPOINT:-}" ]; then
	eval "$(scripts/dynamodb-local.sh start)"
	started_ddb=1
fi
out="$(mktemp -d)"
cleanup() {
	rm -rf "$out"
	if [ -n "$started_ddb" ]; then scripts/dynamodb-local.sh stop; fi
}
trap cleanup EXIT

echo "bench-sweep: ${scale} at ${rate} calls/s per account-region, ${at_once} accounts at once, ${latency} ms per call (load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?'))"
status=0
REALDRIFT_BENCH_SWEEP="$scale" REALDRIFT_BENCH_RATE="$rate" REALDRIFT_BENCH_ACCOUNTS_AT_ONCE="$at_once" REALDRIFT_BENCH_LATENCY_MS="$latency" \
	REALDRIFT_BENCH_OUT="$out/figures.json" \
	go test ./internal/service -run '^TestSweepBench$' -count=1 -timeout 60m -v >"$out/test.log" 2>&1 || status=$?
grep -E 'bench: |bench_sweep_test.go:[0-9]+: [^b]' "$out/test.log" | sed -E 's/^ *bench_sweep_test.go:[0-9]+: //' || true
if [ ! -s "$out/figures.json" ]; then
	tail -n 40 "$out/test.log" >&2
	exit 1
fi
echo
go run ./scripts/cost-model "$out/figures.json" || status=1
if [ -n "${BENCH_SWEEP_FIGURES:-}" ]; then cp "$out/figures.json" "$BENCH_SWEEP_FIGURES"; fi
if [ "$status" -ne 0 ]; then echo "bench-sweep: FAILED (see above)"; fi
exit "$status"
