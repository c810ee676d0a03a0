#!/bin/bash
# A directory served over HTTP on 127.0.0.1 by lighttpd, for the tests in
# which apt fetches from a real web server.
#
# usage (sourced):  source tests/tools/lighttpd.sh
#   lighttpd_start DIR LOGDIR   serves DIR on a free port of 127.0.0.1 (its
#                               configuration and logs in LOGDIR); sets
#                               LIGHTTPD_PORT and LIGHTTPD_PID; 0 once it
#                               answers
#   lighttpd_stop               stops the server lighttpd_start started

lighttpd_start() { # DIR LOGDIR
	local dir=$1 log=$2
	for _ in 1 2 3 4 5; do
		LIGHTTPD_PORT=$((20000 + RANDOM % 20000))
		cat >"$log/lighttpd.conf" <<EOF
server.document-root = "$dir"
server.bind = "127.0.0.1"
server.port = $LIGHTTPD_PORT
server.errorlog = "$log/lighttpd.err"
mimetype.assign = ("" => "application/octet-stream")
# lighttpd keeps stat() results for a second: a file replaced within it is
# served with its old size (the client sees the previous generation)
server.stat-cache-engine = "disable"
EOF
		lighttpd -D -f "$log/lighttpd.conf" >"$log/lighttpd.out" 2>&1 &
		LIGHTTPD_PID=$!
		for _ in $(seq 50); do
			kill -0 "$LIGHTTPD_PID" 2>/dev/null || break
			(exec 3<>"/dev/tcp/127.0.0.1/$LIGHTTPD_PORT") 2>/dev/null && return 0
			sleep 0.1
		done
		lighttpd_stop
	done
	return 1
}

lighttpd_stop() {
	[ -n "${LIGHTTPD_PID:-}" ] || return 0
	kill "$LIGHTTPD_PID" 2>/dev/null
	wait "$LIGHTTPD_PID" 2>/dev/null
	LIGHTTPD_PID=
}
