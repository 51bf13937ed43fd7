#!/usr/bin/env bash
# Prints issue #29's LookupEvents figure: on a sandbox world built from the
# dev corpus, one out-of-band change per stack made as a named principal,
# then check --all --who; how many LookupEvents calls it made for how many
# drifted resources (at most one each). The run is TestWhoLookupCount.
#
#   scripts/who-lookups.sh
#
# The corpus is testdata/shared/corpus/dev (REALDRIFT_CORPUS_DIR overrides it).
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(go test -count=1 -run '^TestWhoLookupCount$' -v ./internal/cli/ 2>&1) && rc=0 || rc=$?
line=$(printf '%s\n' "$out" | grep -o 'who lookups: .*' || true)
if [ -z "$line" ]; then
  printf '%s\n' "$out" >&2
  echo "who-lookups: the test printed no figure" >&2
  exit 2
fi
echo "$line"
exit "$rc"
