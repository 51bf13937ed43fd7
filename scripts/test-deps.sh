#!/usr/bin/env bash
# Installs what `make test` needs and a fresh machine of this project's kind
# may lack: Java (DynamoDB Local), Node.js and npm (the local Step Functions
# interpreter, CDK synth), AWS CLI v2 and curl (the sandbox conformance
# check) from Debian's packages, zsh and fish (the completion tests run
# their scripts in each shell), ca-certificates (the container image
# carries them), and moto (the second emulator) with pip.
# Does nothing when everything is there; without root or apt-get it names
# what is missing and fails.
set -euo pipefail

# moto, the second emulator the reader tests run against (pinned; pip).
if ! python3 -c 'import moto.server' 2>/dev/null; then
	echo "test-deps: installing moto[server]==5.2.1 (pip)"
	python3 -m pip install -q 'moto[server]==5.2.1' 2>/dev/null ||
		python3 -m pip install -q --break-system-packages 'moto[server]==5.2.1'
fi

need=()
command -v curl >/dev/null || need+=(curl)
[ -s /etc/ssl/certs/ca-certificates.crt ] || need+=(ca-certificates) # the container image's
command -v zsh >/dev/null || need+=(zsh)
command -v fish >/dev/null || need+=(fish)
command -v java >/dev/null || need+=(openjdk-17-jre-headless)
command -v node >/dev/null || need+=(nodejs)
command -v npm >/dev/null || need+=(npm)
/usr/bin/aws --version 2>/dev/null | grep -q '^aws-cli/2' ||
	aws --version 2>/dev/null | grep -q '^aws-cli/2' || need+=(awscli)
[ ${#need[@]} -eq 0 ] && exit 0

if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
	echo "test-deps: missing ${need[*]}; install them (Debian packages) and run again" >&2
	exit 2
fi
echo "test-deps: installing ${need[*]}"
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
