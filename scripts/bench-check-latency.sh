#!/usr/bin/env bash
# Benchmarks `check --all --json` at AWS-like latency on the dev-corpus world
# (its largest account and region: 257 stacks) and prints, beside the bound
# calls × latency ÷ concurrency: wall time, calls by API, the most calls in
# flight, throttles absorbed, resources skipped and peak memory.
#
# Usage: scripts/bench-check-latency.sh [LATENCY_MS]      (default 30)
#
# Environment:
#   CONCURRENCY=N   --concurrency of the check (default: the CLI's default)
#   THROTTLE=R      the sandbox throttles every API at R calls/s per account
#                   (a token bucket of burst R); the script then prints the
#                   share of the allowed rate the run used on its busiest API
#   KEEP=DIR        copy the report, check's stderr and the call log there
#   REALDRIFT_CORPUS_DIR  the corpus (default testdata/shared/corpus/dev)
#
# Needs go, jq; /usr/bin/time -v for peak memory (else the run's own figure
# from --verbose is printed). Figures are noisy on a loaded machine: the
# load average is printed with them.
set -euo pipefail
cd "$(dirname "$0")/.."
latency="${1:-30}"
corpus="${REALDRIFT_CORPUS_DIR:-testdata/shared/corpus/dev}"
command -v jq >/dev/null || { echo "bench-check-latency: jq not found" >&2; exit 2; }

tmp=$(mktemp -d)
server_pid=""
cleanup() {
	if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

go build -o "$tmp/realdrift" ./cmd/realdrift
"$tmp/realdrift" sandbox world --from-corpus "$corpus" -o "$tmp/world.json"
# The account and region with the most stacks.
read -r account region nstacks < <(jq -r '[.accounts[] as $a | $a.regions[] | {a: $a.id, r: .name, n: (.stacks | length)}] | max_by(.n) | "\(.a) \(.r) \(.n)"' "$tmp/world.json")

"$tmp/realdrift" sandbox serve --world "$tmp/world.json" --addr 127.0.0.1:0 >"$tmp/serve.log" 2>&1 &
server_pid=$!
url=""
for _ in $(seq 1 200); do
	url=$(sed -n 's/^sandbox listening on \(http:\/\/127\.0\.0\.1:[0-9]*\)$/\1/p' "$tmp/serve.log")
	[ -n "$url" ] && break
	kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/serve.log" >&2; exit 1; }
	sleep 0.1
done
[ -n "$url" ] || { echo "sandbox did not start" >&2; cat "$tmp/serve.log" >&2; exit 1; }

admin() { curl -fsS -X "$1" "$url/_sandbox/$2" ${3:+-H 'Content-Type: application/json' -d "$3"}; }
admin POST latency "{\"millis\": $latency}" >/dev/null
if [ -n "${THROTTLE:-}" ]; then
	admin POST throttle "[{\"rate\": $THROTTLE}]" >/dev/null
fi
admin DELETE calls >/dev/null

args=(check --all --json --verbose --no-baseline --region "$region" --endpoint-url "$url")
if [ -n "${CONCURRENCY:-}" ]; then args+=(--concurrency "$CONCURRENCY"); fi
concurrency="${CONCURRENCY:-$("$tmp/realdrift" check --help 2>&1 | sed -n 's/.*most AWS calls in flight.*(default \([0-9]*\)).*/\1/p')}"

export AWS_ACCESS_KEY_ID="AKIACORPUS$account" AWS_SECRET_ACCESS_KEY=sandbox AWS_EC2_METADATA_DISABLED=true
unset AWS_PROFILE AWS_SESSION_TOKEN AWS_ENDPOINT_URL AWS_REGION AWS_DEFAULT_REGION
export AWS_CONFIG_FILE=/dev/null AWS_SHARED_CREDENTIALS_FILE=/dev/null
timev=()
if /usr/bin/time -v true >/dev/null 2>&1; then timev=(/usr/bin/time -v -o "$tmp/time.txt"); fi
start=$(date +%s.%N)
set +e
"${timev[@]}" "$tmp/realdrift" "${args[@]}" >"$tmp/report.json" 2>"$tmp/stderr.txt"
code=$?
set -e
end=$(date +%s.%N)
if [ "$code" != 0 ] && [ "$code" != 1 ]; then
	echo "bench-check-latency: check exited $code" >&2
	tail -20 "$tmp/stderr.txt" >&2
	exit 1
fi
admin GET calls >"$tmp/calls.json"
if [ -n "${KEEP:-}" ]; then cp "$tmp/report.json" "$tmp/stderr.txt" "$tmp/calls.json" "$KEEP/"; fi

wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }')
total=$(jq '.total' "$tmp/calls.json")
maxin=$(jq '.maxInFlight' "$tmp/calls.json")
throttled=$(jq '[.errors | to_entries[] | select(.key | test("Throttl|RequestLimitExceeded|TooManyRequests|SlowDown")) | .value] | add // 0' "$tmp/calls.json")
skipped=$(jq '[.stacks[].findings[]? | select(.tier == "skipped")] | length' "$tmp/report.json")
stackerr=$(jq '[.stacks[] | select(.error != null and .error != "")] | length' "$tmp/report.json")
bound=$(awk -v n="$total" -v l="$latency" -v c="$concurrency" 'BEGIN { printf "%.2f", n * l / 1000 / c }')
ratio=$(awk -v w="$wall" -v b="$bound" 'BEGIN { if (b > 0) printf "%.2f", w / b; else print "-" }')
if [ -s "$tmp/time.txt" ]; then
	peak="$(awk -F': ' '/Maximum resident set size/ { printf "%.1f MB", $2 / 1024 }' "$tmp/time.txt") (max RSS, /usr/bin/time -v)"
else
	peak="$(sed -n 's/.*peak memory \(.*\)$/\1 (Go runtime)/p' "$tmp/stderr.txt" | tail -1)"
fi
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?')

echo "bench-check-latency: $nstacks stacks ($account $region), latency ${latency} ms, --concurrency $concurrency${THROTTLE:+, throttle $THROTTLE calls/s per API}"
echo "  wall time        ${wall} s   (exit $code)"
echo "  bound            ${bound} s   = $total calls × ${latency} ms ÷ $concurrency;  wall ÷ bound = $ratio"
echo "  calls            $total (sandbox call log)"
jq -r '.counts | to_entries | sort_by(-.value) | .[] | "    \(.value)\t\(.key)"' "$tmp/calls.json"
echo "  realdrift's count $(jq -r '"\(.stats.calls // 0) calls, at most \(.stats.maxInFlight // 0) in flight, \(.stats.throttled // 0) throttled"' "$tmp/report.json")"
echo "  max in flight    $maxin"
echo "  throttles        $throttled absorbed (retried)"
echo "  skipped          $skipped findings; stacks in error: $stackerr"
echo "  peak memory      $peak"
if [ -n "${THROTTLE:-}" ]; then
	# The busiest API sets the least time the throttle allows: its
	# successful calls (a throttled one takes no token) beyond the first
	# burst, at THROTTLE per second.
	jq -r --argjson rate "$THROTTLE" --argjson wall "$wall" '
		.errors as $e
		| [.counts | to_entries[] | .key as $k
			| {api: $k, n: .value, ok: (.value - ([$e | to_entries[] | select(.key | startswith($k + ":")) | .value] | add // 0))}]
		| max_by(.ok) as $b
		| (($b.ok - $rate) / $rate) as $least
		| "  rate used        \($b.api): \($b.ok) successful calls (\($b.n) sent) in \($wall) s = \(($b.ok / $wall * 100 | round) / 100)/s of \($rate)/s allowed; least time \(($least * 100 | round) / 100) s, used \(($least / $wall * 1000 | round) / 10) %"' "$tmp/calls.json"
fi
echo "  load average     $load ($(nproc) cores)"
