# shellcheck shell=bash
# SPDX-License-Identifier: MIT
# What the -x metrics test scripts share (sourced; they define fail()).
#
# metrics_port ERRFILE PID   waits (30 s at most) for dtrace PID to say on
#                            ERRFILE where it serves; prints the port
# interrupt PID              ^C to dtrace PID; fails unless it exits 0

metrics_port() {
	local err=$1 pid=$2 port=
	for _ in $(seq 300); do
		port=$(sed -n 's|^dtrace: serving metrics at http://127\.0\.0\.1:\([0-9]*\)/metrics$|\1|p' "$err")
		[ -n "$port" ] && { echo "$port"; return 0; }
		kill -0 "$pid" 2>/dev/null || fail "dtrace exited before serving"
		sleep 0.1
	done
	fail "dtrace did not say where it serves"
}

interrupt() {
	local rc=0
	kill -INT "$1"
	wait "$1" || rc=$?
	[ "$rc" = 0 ] || fail "dtrace exited $rc after ^C"
}
