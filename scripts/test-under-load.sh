#!/usr/bin/env bash
# Runs the tests with a CPU hog beside them, several times, and prints each
# failing test with its message: a test that holds only on an idle machine
# fails here, not one CI run in N.
#
#   scripts/test-under-load.sh [-n RUNS] [-workers N] [GO-TEST-ARGS...]
#
# With no GO-TEST-ARGS each run is scripts/go-test.sh (the Go half of
# `make test`); with them, each run is `go test -count=1 GO-TEST-ARGS`
# (packages, and flags such as -race or -run). RUNS defaults to 3; the hog
# (scripts/cpuhog, a Go busy loop) spins N goroutines, default one per CPU,
# for the whole time and is stopped by its PID at the end (it also stops by
# itself after 2 hours). Test deadlines, and go test's 10m a package, are
# stretched by REALDRIFT_TEST_TIMESCALE as in CI (.ci/run sets 3, and so
# does this script when it is unset; internal/deadlinetest); set it to 1 to
# try the unstretched deadlines.
# Each run's full output is kept in a log whose path is printed. Exit 0 when
# every run passed, 1 when one failed, 2 on bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}

runs=3
workers=$(nproc)
while [ $# -gt 0 ]; do
  case "$1" in
    -n) runs=${2:-}; shift 2 ;;
    -workers) workers=${2:-}; shift 2 ;;
    -h|--help) sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) break ;;
  esac
done
for v in "$runs" "$workers"; do
  case "$v" in ''|*[!0-9]*|0) echo "test-under-load: -n and -workers want a positive whole number, got '$v'" >&2; exit 2 ;; esac
done

export REALDRIFT_TEST_TIMESCALE=${REALDRIFT_TEST_TIMESCALE:-3}
timeout=$(awk -v s="$REALDRIFT_TEST_TIMESCALE" 'BEGIN { s += 0; if (s < 1) s = 1; printf "%dm", 10 * s + 0.5 }')

logs=$(mktemp -d "${TMPDIR:-/tmp}/test-under-load.XXXXXX")
hog=""
cleanup() { [ -n "$hog" ] && kill "$hog" 2>/dev/null || true; }
trap cleanup EXIT
trap 'exit 130' INT TERM

$GO build -o "$logs/cpuhog" ./scripts/cpuhog
"$logs/cpuhog" -workers "$workers" -for 2h &
hog=$!

# failures prints each failing test's heading and the indented lines under
# it (its messages, at most 40 a test), panics, races and FAIL package lines.
failures() {
  awk '
    function head(line) { print line; show = 1; n = 0 }
    /^[[:space:]]*--- FAIL: / { head($0); next }
    /^(panic: |fatal error: |WARNING: DATA RACE)/ { head($0); next }
    /^[[:space:]]*--- (PASS|SKIP): / { show = 0; next }
    /^FAIL([[:space:]]|$)/ { if (NF > 1) print; show = 0; next }
    /^(ok|PASS)([[:space:]]|$)/ { show = 0; next }
    show && /^[[:space:]]/ { if (++n <= 40) print; else if (n == 41) print "        ..."; next }
    { show = 0 }
  ' "$1"
}

echo "test-under-load: $runs run(s), hog of $workers busy goroutine(s) (PID $hog), REALDRIFT_TEST_TIMESCALE=$REALDRIFT_TEST_TIMESCALE, logs in $logs" >&2
failed=0
for i in $(seq 1 "$runs"); do
  log="$logs/run$i.log"
  echo "run $i/$runs: load $(cut -d' ' -f1-3 /proc/loadavg)" >&2
  start=$(date +%s)
  if [ $# -eq 0 ]; then
    GO=$GO scripts/go-test.sh >"$log" 2>&1 && rc=0 || rc=$?
  else
    $GO test -count=1 -timeout="$timeout" "$@" >"$log" 2>&1 && rc=0 || rc=$?
  fi
  took=$(( $(date +%s) - start ))
  if [ "$rc" -eq 0 ]; then
    echo "run $i/$runs: ok in ${took}s" >&2
  else
    failed=$((failed + 1))
    echo "run $i/$runs: FAIL (exit $rc) in ${took}s; log $log" >&2
    failures "$log"
  fi
done
echo "test-under-load: $((runs - failed)) of $runs run(s) passed" >&2
[ "$failed" -eq 0 ]
