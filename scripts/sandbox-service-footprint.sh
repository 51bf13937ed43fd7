#!/usr/bin/env bash
# What adding one sandbox service touches (#28: "a service can be added by
# touching its own folder plus one registration line"), measured the other
# way round: in a scratch copy of the tree, the service's folder
# (internal/sandbox/service/NAME) and every line of
# internal/sandbox/services.go naming it are removed, the sandbox package
# and the CLI must still build, and the diff stat of that removal — which
# is exactly the diff that adds the service — is printed. A service another
# file of the sandbox reaches into (one whose state the server keeps, such
# as s3's objects) fails the build here and is reported as not alone.
#
# Usage: scripts/sandbox-service-footprint.sh NAME...   (default: acm dax sqs)
# Exits 1 when a named service is not alone, 2 on bad input.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- acm dax sqs
scratch=$(mktemp -d)
trap 'git worktree remove --force "$scratch/tree" >/dev/null 2>&1 || true; rm -rf "$scratch"' EXIT
git worktree add -q --detach "$scratch/tree" HEAD
status=0
for name in "$@"; do
	dir=internal/sandbox/service/$name
	if [ ! -d "$dir" ]; then
		echo "sandbox-service-footprint: no service folder $dir" >&2
		exit 2
	fi
	(
		cd "$scratch/tree"
		git reset -q --hard HEAD
		git rm -q -r "$dir"
		# The import line and the registration line: the only lines that
		# name the package.
		grep -v -E "(/service/$name\"|^[[:space:]]+$name\.Service\()" internal/sandbox/services.go >services.go.new
		mv services.go.new internal/sandbox/services.go
		if go build ./internal/sandbox/ ./cmd/realdrift/ 2>build.log; then
			echo "== $name: builds without its folder; adding it is this diff, reversed:"
			git diff --stat HEAD | tail -n 1
			git diff --stat HEAD -- internal/sandbox/services.go | head -n 1
		else
			echo "== $name: NOT alone — removing its folder and registration breaks the build:"
			head -n 5 build.log
			exit 1
		fi
		rm -f build.log
	) || status=1
done
exit $status
