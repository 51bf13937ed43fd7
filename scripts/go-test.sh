#!/usr/bin/env bash
# The Go half of `make test`: every package once, the ones that run
# concurrent code (goroutines, servers, locks shared across callers) under
# the race detector, then the whole suite again with the wall clock moved a
# year ahead (scripts/future-clock.sh), so no test depends on today's date.
# go test's own timeout (10m a package) is stretched by
# REALDRIFT_TEST_TIMESCALE like every test deadline (internal/deadlinetest).
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
$GO test -count=1 -timeout="$timeout" -race "${racing[@]}"
[ "${1:-}" = race ] && exit 0
$GO test -count=1 -timeout="$timeout" "${rest[@]}"
scripts/future-clock.sh $GO test -count=1 -timeout="$timeout" ./...
