#!/usr/bin/env bash
# Reader coverage of realdrift: per resource type the reader (Cloud Control,
# SDK override, Cloud Control plus SDK supplement), identifier adapter,
# child enumerator and revert writer, with totals against the anchor's
# type lists (../shared/knowledge/cdkrd-facts.json, typeLists).
#
#   scripts/coverage.sh [-missing] [-facts PATH]
#
# Each registered entry is backed by the tests of internal/live (sandbox
# round trips) and internal/sandbox/worldgen (identifiers).
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./scripts/coverage "$@"
