#!/usr/bin/env bash
# Runs the classifier benchmark over every dev-corpus case (inputs parsed
# once) and prints one summary line: us/case, allocs/case, cases/s.
# Usage: scripts/bench-classify.sh [benchtime]   (default 20x)
# REALDRIFT_CORPUS_DIR overrides the corpus location.
set -euo pipefail
cd "$(dirname "$0")/.."
benchtime="${1:-20x}"
out="$(go test ./internal/classify/ -run '^$' -bench '^BenchmarkCorpus$' -benchtime "$benchtime" -count 1)"
line="$(printf '%s\n' "$out" | grep '^BenchmarkCorpus')" || { printf '%s\n' "$out" >&2; exit 1; }
cases="$(ls "${REALDRIFT_CORPUS_DIR:-../shared/corpus/dev}"/*.json | wc -l)"
us="$(printf '%s\n' "$line" | awk '{for (i = 1; i < NF; i++) if ($(i+1) == "us/case") print $i}')"
allocs="$(printf '%s\n' "$line" | awk '{for (i = 1; i < NF; i++) if ($(i+1) == "allocs/case") print $i}')"
rate="$(awk -v us="$us" 'BEGIN { printf "%.0f", 1e6 / us }')"
load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
echo "bench-classify: ${cases} cases, ${us} us/case, ${allocs} allocs/case, ${rate} cases/s (benchtime ${benchtime}, load ${load})"
