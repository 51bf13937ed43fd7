#!/usr/bin/env bash
# Runs the classifier benchmark over every dev-corpus case (inputs parsed
# once) and prints one summary line: us/case, allocs/case, cases/s.
# Given a git revision as well, it benchmarks that revision in a temporary
# worktree in the same run, alternating the two three times, and prints
# the ratio of the medians (working tree / base): an absolute figure depends on the
# machine, a same-run ratio does not.
# Usage: scripts/bench-classify.sh [benchtime] [base-revision]   (default 20x)
# REALDRIFT_CORPUS_DIR overrides the corpus location.
set -euo pipefail
cd "$(dirname "$0")/.."
benchtime="${1:-20x}"
base="${2:-}"
export REALDRIFT_CORPUS_DIR="$(cd "${REALDRIFT_CORPUS_DIR:-testdata/shared/corpus/dev}" && pwd)"
cases="$(ls "$REALDRIFT_CORPUS_DIR"/*.json | wc -l)"

# bench DIR prints "us allocs" for one benchmark run in DIR.
bench() {
	local out line
	out="$(cd "$1" && go test ./internal/classify/ -run '^$' -bench '^BenchmarkCorpus$' -benchtime "$benchtime" -count 1)"
	line="$(printf '%s\n' "$out" | grep '^BenchmarkCorpus')" || { printf '%s\n' "$out" >&2; exit 1; }
	printf '%s\n' "$line" | awk '{for (i = 1; i < NF; i++) { if ($(i+1) == "us/case") us = $i; if ($(i+1) == "allocs/case") al = $i } } END { print us, al }'
}

load="$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo '?')"
if [ -z "$base" ]; then
	read -r us allocs <<<"$(bench .)"
	rate="$(awk -v us="$us" 'BEGIN { printf "%.0f", 1e6 / us }')"
	echo "bench-classify: ${cases} cases, ${us} us/case, ${allocs} allocs/case, ${rate} cases/s (benchtime ${benchtime}, load ${load})"
	exit 0
fi

wt="$(mktemp -d)"
trap 'git worktree remove --force "$wt" >/dev/null 2>&1 || rm -rf "$wt"' EXIT
git worktree add --detach "$wt" "$base" >/dev/null 2>&1
head_us=() base_us=()
for _ in 1 2 3; do
	read -r us head_allocs <<<"$(bench .)"; head_us+=("$us")
	read -r us base_allocs <<<"$(bench "$wt")"; base_us+=("$us")
done
median() { printf '%s\n' "$@" | sort -g | sed -n 2p; }
h="$(median "${head_us[@]}")" b="$(median "${base_us[@]}")"
ratio="$(awk -v h="$h" -v b="$b" 'BEGIN { printf "%.2f", h / b }')"
echo "bench-classify: ${cases} cases; tree ${h} us/case ${head_allocs} allocs/case; $(git rev-parse --short "$base") ${b} us/case ${base_allocs} allocs/case; ratio ${ratio} (median of 3, benchtime ${benchtime}, load ${load})"
