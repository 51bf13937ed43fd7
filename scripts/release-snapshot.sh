#!/usr/bin/env bash
# Builds realdrift's release snapshot without GoReleaser or a Docker daemon
# (scripts/release; .goreleaser.yaml describes the same release):
# linux/darwin/windows × amd64/arm64 archives, checksums.txt and a CycloneDX
# SBOM in dist/, each archive's binary checked for its target's format and
# architecture and the host's one run (`version`); then the container image
# (dist/image, an OCI layout, and dist/image.tar) whose host binary is run
# from the unpacked image as uid 65532. Prints the time each half took.
#
#   scripts/release-snapshot.sh [DIR]     (default dist)
#
# GoReleaser itself is not run here: its module is large (hundreds of
# dependencies to build on a 2-core CI box) and its SBOM step needs syft,
# a separate download; scripts/release is the equivalent `go build` matrix.
set -euo pipefail
cd "$(dirname "$0")/.."
GO=${GO:-go}
out=${1:-dist}
start=$(date +%s)
$GO run ./scripts/release snapshot -out "$out"
mid=$(date +%s)
$GO run ./scripts/release image -out "$out"
end=$(date +%s)
echo "release-snapshot: archives $((mid - start)) s, image $((end - mid)) s, total $((end - start)) s"
