#!/usr/bin/env bash
# The Go half of `make test`: every package once, the ones that run
# concurrent code (goroutines, servers, locks shared across callers) under
# the race detector, then the whole suite again with the wall clock moved a
# year ahead (scripts/future-clock.sh), so no test depends on today's date.
# go test's own timeout (10m a package) is stretched by
# REALDRIFT_TEST_TIMESCALE like every test deadline (internal/deadlinetest).
#
# Every package runs twice, once under each clock: the packages with
# concurrent code under -race and today's clock, the others plainly, and
# all of them plainly under the moved clock. (Running the race half under
# the moved clock instead would swap which run sees which clock, not save
# one.) The three runs go side by side: the long packages (cli, service,
# statemachine) mostly wait on servers, interpreters and backoffs (cli
# under -race: about 130 s of CPU in 310 s), so one run's waits are another
# run's CPU; each run's output is kept and printed whole when it ends, and
# the script fails when any run failed, naming it. The plain runs build
# with cgo off, as the release and the Lambda binaries do (scripts/release,
# make lambdas): TestRelease's `go build` of cmd/realdrift then finds the
# packages these runs compiled in the build cache instead of compiling the
# module once more in a configuration of its own. The race detector needs
# cgo, so the race half has it on.
#
#   scripts/go-test.sh            all three
#   scripts/go-test.sh race       only the race-detector half
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}

# Packages with concurrent code: run with -race.
race_pkgs=(
	./internal/cli/...
	./internal/lambdarouter/...
	./internal/live/...
	./internal/notify/...
	./internal/pace/...
	./internal/sandbox/...
	./internal/scan/...
	./internal/service/...
	./internal/store/...
	./statemachine/...
)

mapfile -t racing < <($GO list "${race_pkgs[@]}")
mapfile -t rest < <($GO list ./... | grep -vxF -f <(printf '%s\n' "${racing[@]}"))

timeout=$(awk -v s="${REALDRIFT_TEST_TIMESCALE:-1}" 'BEGIN { s += 0; if (s < 1) s = 1; printf "%dm", 10 * s + 0.5 }')

echo "go-test: ${#racing[@]} packages with -race, ${#rest[@]} without; -timeout $timeout a package" >&2

logs=$(mktemp -d)
declare -A run_of=() # running go test by PID
cleanup() {
	for p in "${!run_of[@]}"; do kill "$p" 2>/dev/null || true; done
	rm -rf "$logs"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# start NAME COMMAND...: one run in the background, its output in a log.
start() {
	local name=$1
	shift
	echo "go-test: $name run started" >&2
	"$@" >"$logs/$name" 2>&1 &
	run_of[$!]=$name
}
start race env CGO_ENABLED=1 $GO test -count=1 -timeout="$timeout" -race "${racing[@]}"
if [ "${1:-}" != race ]; then
	start plain env CGO_ENABLED=0 $GO test -count=1 -timeout="$timeout" "${rest[@]}"
	start future-clock env CGO_ENABLED=0 scripts/future-clock.sh $GO test -count=1 -timeout="$timeout" ./...
fi
failed=()
while [ "${#run_of[@]}" -gt 0 ]; do
	pid="" rc=0
	wait -n -p pid "${!run_of[@]}" || rc=$?
	name=${run_of[$pid]}
	unset "run_of[$pid]"
	echo "go-test: $name run (exit $rc):"
	cat "$logs/$name"
	if [ "$rc" -ne 0 ]; then failed+=("$name"); fi
done
if [ "${#failed[@]}" -gt 0 ]; then
	echo "go-test: failed: ${failed[*]}" >&2
	exit 1
fi
