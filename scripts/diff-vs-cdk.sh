#!/usr/bin/env bash
# Re-runs the comparison of realdrift's diff with the AWS CDK CLI's cdk diff
# on every template pair under testdata/diff-vs-cdk (made by
# scripts/diff-vs-cdk/make-pairs.py from testdata/shared/templates): runs
# `cdk diff --app PAIR/app --template PAIR/old/STACK.template.json STACK`
# with the CLI pinned in scripts/cdk-cli (no account needed) into
# PAIR/cdk.txt, and `realdrift diff --template` (no AWS call) into
# PAIR/realdrift.txt, then prints agree / realdrift-right / cdk-right per
# pair; each disagreement's reason is in PAIR/note.md.
# Exit status: 0 when every disagreement is one where realdrift is right,
# 1 otherwise, 2 on a setup error.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
cdk=$root/scripts/cdk-cli/node_modules/.bin/cdk
if [ ! -x "$cdk" ]; then
	(cd scripts/cdk-cli && npm ci --no-audit --no-fund --loglevel=error) || exit 2
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/realdrift" ./cmd/realdrift || exit 2
for pair in testdata/diff-vs-cdk/*/; do
	pair=${pair%/}
	stack=$(cat "$pair/stack")
	old=$pair/old/$stack.template.json
	# cdk writes its diff to stdout; its stderr (the stack count, notices)
	# is not part of it.
	(cd "$tmp" && NO_COLOR=1 CI=true CDK_DISABLE_VERSION_CHECK=1 "$cdk" diff --no-notices \
		--app "$root/$pair/app" --template "$root/$old" "$stack" 2>/dev/null) \
		| sed -e 's/\x1b\[[0-9;]*m//g' >"$pair/cdk.txt" || true
	NO_COLOR=1 "$tmp/realdrift" diff --app "$pair/app" --template "$old" --recursive --region us-east-1 "$stack" >"$pair/realdrift.txt" || exit 2
done
go run ./scripts/diff-vs-cdk/compare testdata/diff-vs-cdk
