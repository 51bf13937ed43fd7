#!/usr/bin/env bash
# sync-shared.sh — refreshes the repository's committed copies of the
# project's shared test data from ../shared: the dev golden corpus
# (testdata/shared/corpus: dev/, its LICENSE and README) and the
# CDK-synthesized templates (testdata/shared/templates). The suite reads
# the copies, so a clone with nothing beside it tests the same data;
# internal/corpus/corpustest's TestSharedCopiesCurrent fails when ../shared
# is present and a copy differs from it.
set -euo pipefail
cd "$(dirname "$0")/.."
src=../shared
[ -d "$src/corpus/dev" ] && [ -d "$src/templates" ] || { echo "sync-shared: no $src/corpus/dev or $src/templates beside the repository" >&2; exit 2; }
rm -rf testdata/shared.new
mkdir -p testdata/shared.new/corpus
cp -r "$src/corpus/dev" "$src/corpus/LICENSE" "$src/corpus/README.md" testdata/shared.new/corpus/
cp -r "$src/templates" testdata/shared.new/templates
rm -rf testdata/shared
mv testdata/shared.new testdata/shared
echo "sync-shared: $(find testdata/shared -type f | wc -l) files copied into testdata/shared"
