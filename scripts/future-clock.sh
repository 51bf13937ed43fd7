#!/usr/bin/env bash
# Runs a command with every Go program it builds seeing the wall clock moved
# ahead, so a test that depends on today's date fails here, not on the day
# the date passes it.
#
#   scripts/future-clock.sh [-days N] go test ./...
#
# How: a build overlay (go help build, -overlay) replaces the standard
# library's time.Now with one that adds N days (default 365) to the wall
# reading; monotonic readings (time.Since, timers) are untouched. The overlay
# is made from this machine's GOROOT at run time and passed through GOFLAGS,
# so go commands that tests start themselves see the same clock. Nothing is
# committed from the standard library. Processes that are not Go (DynamoDB
# Local, node) keep the real clock, as AWS's servers keep theirs.
set -euo pipefail

days=365
if [ "${1:-}" = "-days" ]; then
  days=$2
  shift 2
fi
case "$days" in ''|*[!0-9]*) echo "future-clock: -days wants a whole number, got '$days'" >&2; exit 2 ;; esac
[ $# -gt 0 ] || { echo "usage: scripts/future-clock.sh [-days N] COMMAND [ARG...]" >&2; exit 2; }

goroot=$(go env GOROOT)
src="$goroot/src/time/time.go"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# Insert the shift right after Now's runtime reading; fail if the shape of
# time.Now ever changes, so the check can never silently stop shifting.
awk -v days="$days" '
  /^func Now\(\) Time \{/ { inNow = 1 }
  inNow && /runtimeNow\(\)/ { print; printf "\tsec += %d * 86400 // scripts/future-clock.sh\n", days; inNow = 0; done = 1; next }
  { print }
  END { if (!done) exit 1 }
' "$src" > "$dir/time.go" || { echo "future-clock: time.Now in $src has an unexpected shape" >&2; exit 2; }
printf '{"Replace":{"%s":"%s"}}\n' "$src" "$dir/time.go" > "$dir/overlay.json"

# Prove the shift took before running anything under it.
mkdir -p "$dir/probe"
cat > "$dir/probe/main.go" <<'EOF'
package main

import (
	"fmt"
	"time"
)

func main() { fmt.Print(time.Now().Unix()) }
EOF
real=$(date +%s)
shifted=$(cd "$dir/probe" && GO111MODULE=off go run -overlay "$dir/overlay.json" main.go)
ahead=$(( (shifted - real) / 86400 ))
if [ "$ahead" -lt $(( days - 1 )) ] || [ "$ahead" -gt "$days" ]; then
  echo "future-clock: the overlay moved the clock $ahead days, want $days" >&2
  exit 2
fi
echo "future-clock: Go programs see $(date -u -d "@$shifted" +%Y-%m-%dT%H:%M:%SZ) ($days days ahead)" >&2

# vet is off under the overlay: its importer cannot follow a replaced
# standard-library file, and the normal run vets the same code.
GOFLAGS="${GOFLAGS:+$GOFLAGS }-overlay=$dir/overlay.json -vet=off" "$@"
