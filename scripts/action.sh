#!/usr/bin/env bash
# The shell steps of the GitHub Action (action.yml); the test suite runs it
# with a fake GITHUB_* environment against the sandbox (internal/cli
# TestActionScript).
#
#   scripts/action.sh resolve   decides what install installs and writes
#                               the step outputs mode (release or source)
#                               and version, so the action sets up Go only
#                               to build from source
#   scripts/action.sh install   puts realdrift on the PATH: a release tag
#                               (v1.2.3) downloads that release's archive
#                               for the runner's OS and architecture, checks
#                               it against the release's checksums.txt and
#                               that its binary prints the tag; "source"
#                               builds the action's own checkout
#                               (GITHUB_ACTION_PATH) with go build
#   scripts/action.sh check     runs realdrift check and writes the report
#                               files, the job summary and the step outputs
#
# RD_VERSION is a release tag, "source", or empty: the action's own ref
# (RD_ACTION_REF, github.action_ref) when it is a release tag (vX.Y.Z…)
# whose checksums.txt can be fetched, else source — an action used at a
# branch, a commit or a moving major tag (@v1) builds from source. A tag
# named explicitly never falls back: a failed download is an error. An
# archive that does not match checksums.txt is always an error (exit 2),
# never a reason to build something else. RD_DOWNLOAD_URL replaces the
# releases' base URL (GITHUB_SERVER_URL/RD_REPOSITORY/releases/download),
# e.g. file:///path for a local release directory (the tests' snapshot).
#
# Inputs (environment): RD_STACKS (stack names or globs, whitespace-separated;
# empty: every stack, --all), RD_APP (--app), RD_REGION (--region), RD_FAIL
# (true: --fail), RD_SUMMARY (false: no job summary), RD_FORMAT (the report in the log: text, json, sarif, junit,
# markdown or asff), RD_ARGS (more check flags, word-split), RD_OUT (the
# report directory; default RUNNER_TEMP/realdrift). GitHub's: GITHUB_OUTPUT,
# GITHUB_STEP_SUMMARY, GITHUB_ACTION_PATH, GITHUB_PATH, RUNNER_TEMP,
# RUNNER_OS, RUNNER_ARCH, GITHUB_SERVER_URL, RD_REPOSITORY.
#
# check writes realdrift.sarif (code scanning), realdrift.xml (JUnit) and
# realdrift.md (the Markdown report, also appended to the job summary), and
# the outputs sarif, junit, markdown, exit-code and verdict, all from one
# check run (--output FORMAT://FILE). The script itself exits 0 unless the
# run errs (exit 2): the action's last step exits with exit-code, after
# SARIF is uploaded.
set -euo pipefail

die() { echo "::error::realdrift action: $*" >&2; exit 2; }

# release_base is the URL under which a release's files are.
release_base() {
	echo "${RD_DOWNLOAD_URL:-${GITHUB_SERVER_URL:-https://github.com}/${RD_REPOSITORY:-realdrift/realdrift}/releases/download}/$1"
}

# resolved_version is what install installs: RD_VERSION, else the action's
# ref when it is a release tag whose checksums.txt can be fetched, else
# source.
resolved_version() {
	local ref="${RD_ACTION_REF:-}"
	if [ -n "${RD_VERSION:-}" ]; then
		echo "$RD_VERSION"
	elif [[ "$ref" =~ ^v[0-9]+\.[0-9]+\.[0-9]+([-+].*)?$ ]] && curl -fsSL -o /dev/null "$(release_base "$ref")/checksums.txt"; then
		echo "$ref"
	else
		echo "::notice::realdrift action: no release for the action's ref ${ref:-(none)}; building realdrift from source" >&2
		echo source
	fi
}

resolve() {
	local version mode=release
	version=$(resolved_version)
	[ "$version" = source ] && mode=source
	if [ -n "${GITHUB_OUTPUT:-}" ]; then
		printf 'mode=%s\nversion=%s\n' "$mode" "$version" >>"$GITHUB_OUTPUT"
	fi
	echo "realdrift action: $mode $version" >&2
}

# sha256_check checks the "SUM  FILE" lines on stdin (sha256sum, or
# shasum on macOS runners).
sha256_check() {
	if command -v sha256sum >/dev/null; then
		sha256sum -c --status -
	else
		shasum -a 256 -c --status -
	fi
}

install() {
	local dir="${RUNNER_TEMP:?RUNNER_TEMP unset}/realdrift-bin" version
	version=$(resolved_version)
	mkdir -p "$dir"
	if [ "$version" = source ]; then
		(cd "${GITHUB_ACTION_PATH:?GITHUB_ACTION_PATH unset}" &&
			go build -trimpath -o "$dir/realdrift" ./cmd/realdrift) || die "go build failed"
	else
		local os arch ext=tar.gz base
		case "${RUNNER_OS:-Linux}" in Linux) os=linux ;; macOS) os=darwin ;; Windows) os=windows ext=zip ;; *) die "runner OS ${RUNNER_OS}" ;; esac
		case "${RUNNER_ARCH:-X64}" in X64) arch=amd64 ;; ARM64) arch=arm64 ;; *) die "runner arch ${RUNNER_ARCH}" ;; esac
		base=$(release_base "$version")
		local archive="realdrift_${version#v}_${os}_${arch}.${ext}" line
		curl -fsSL -o "$dir/$archive" "$base/$archive" || die "download $base/$archive"
		curl -fsSL -o "$dir/checksums.txt" "$base/checksums.txt" || die "download $base/checksums.txt"
		line=$(awk -v f="$archive" '$2 == f && $1 ~ /^[0-9a-f]+$/ && length($1) == 64' "$dir/checksums.txt")
		[ -n "$line" ] || die "checksums.txt has no line for $archive"
		(cd "$dir" && sha256_check <<<"$line") || die "$archive does not match checksums.txt"
		if [ "$ext" = zip ]; then
			(cd "$dir" && unzip -oq "$archive" realdrift.exe)
		else
			tar -xzf "$dir/$archive" -C "$dir" realdrift
		fi
		rm -f "$dir/$archive" "$dir/checksums.txt"
		local got
		got=$("$dir/realdrift" version) || die "the $version binary does not run"
		case "$got" in "realdrift $version "* | "realdrift $version") ;; *) die "the $version archive holds $got" ;; esac
	fi
	[ -n "${GITHUB_PATH:-}" ] && echo "$dir" >>"$GITHUB_PATH"
	"$dir/realdrift" version
}

check() {
	local out="${RD_OUT:-${RUNNER_TEMP:?RUNNER_TEMP unset}/realdrift}" format="${RD_FORMAT:-text}"
	local bin="${REALDRIFT:-realdrift}"
	mkdir -p "$out"
	local -a args=()
	[ -n "${RD_APP:-}" ] && args+=(--app "$RD_APP")
	[ -n "${RD_REGION:-}" ] && args+=(--region "$RD_REGION")
	# shellcheck disable=SC2206 # word-splitting is the input's contract
	[ -n "${RD_ARGS:-}" ] && args+=(${RD_ARGS})
	local -a stacks=()
	# shellcheck disable=SC2206
	[ -n "${RD_STACKS:-}" ] && stacks=(${RD_STACKS})
	if [ ${#stacks[@]} -eq 0 ]; then
		args+=(--all)
	fi
	local -a fail=()
	[ "${RD_FAIL:-false}" = true ] && fail=(--fail)

	# One check run: the RD_FORMAT report to the log, SARIF, JUnit and
	# Markdown to files (--output FORMAT://FILE).
	local code=0
	echo "::group::realdrift check (${format})" >&2
	"$bin" check "${args[@]}" "${fail[@]}" --format "$format" \
		--output "sarif://$out/realdrift.sarif" --output "junit://$out/realdrift.xml" \
		--output "markdown://$out/realdrift.md" -- "${stacks[@]}" >&2 || code=$?
	echo "::endgroup::" >&2
	# 0 clean, 1 drift, 3 incomplete coverage (--fail) are reports.
	case "$code" in 0 | 1 | 3) ;; *) die "check exited $code" ;; esac

	local verdict
	verdict=$(sed -n '1s/^## realdrift check: //p' "$out/realdrift.md")
	if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ "${RD_SUMMARY:-true}" = true ]; then
		cat "$out/realdrift.md" >>"$GITHUB_STEP_SUMMARY"
	fi
	if [ -n "${GITHUB_OUTPUT:-}" ]; then
		{
			echo "sarif=$out/realdrift.sarif"
			echo "junit=$out/realdrift.xml"
			echo "markdown=$out/realdrift.md"
			echo "exit-code=$code"
			echo "verdict=$verdict"
		} >>"$GITHUB_OUTPUT"
	fi
	[ "$code" = 1 ] && echo "::warning::realdrift check: $verdict (exit 1 under --fail)" >&2
	[ "$code" = 3 ] && echo "::warning::realdrift check: $verdict (exit 3 under --fail: not everything could be read)" >&2
	return 0
}

case "${1:-}" in
resolve) resolve ;;
install) install ;;
check) check ;;
*) die "usage: scripts/action.sh resolve|install|check" ;;
esac
