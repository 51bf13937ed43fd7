#!/usr/bin/env bash
# Prints the out-of-band-after-record figure (issue #10): on a sandbox world
# built from the dev corpus, record --all --yes, one out-of-band change per
# resource through the admin API (declared, default and AWS-assigned values),
# check --all --json; how many changes surface, and how many as confirmed
# drift (not potential drift). The run is TestOOBAfterRecord; -v shows each
# change that is not confirmed and the per-kind counts. -demo runs it on the
# demo world (every account and region of the organisation realdrift demo
# serves) instead: TestOOBAfterRecordDemo.
#
#   scripts/oob-after-record.sh [-v] [-demo]
#
# The corpus is testdata/shared/corpus/dev (REALDRIFT_CORPUS_DIR overrides it).
set -euo pipefail
cd "$(dirname "$0")/.."
verbose=0
test=TestOOBAfterRecord
for a in "$@"; do
  case "$a" in
  -v) verbose=1 ;;
  -demo) test=TestOOBAfterRecordDemo ;;
  *)
    echo "usage: scripts/oob-after-record.sh [-v] [-demo]" >&2
    exit 2
    ;;
  esac
done
out=$(go test -count=1 -run "^${test}\$" -v ./internal/cli/ 2>&1) && rc=0 || rc=$?
if [ "$verbose" = 1 ]; then
  printf '%s\n' "$out" | grep -E 'not confirmed:|changed,|not a target' | sed 's/^ *oob_after_record_test.go:[0-9]*: //' || true
fi
line=$(printf '%s\n' "$out" | grep -o 'oob after record: .*' || true)
if [ -z "$line" ]; then
  printf '%s\n' "$out" >&2
  echo "oob-after-record: the test printed no figure" >&2
  exit 2
fi
echo "$line"
exit "$rc"
