# SPDX-License-Identifier: MIT
# The dashboard tests' harness, sourced by tests/sh scripts that drive the
# real binary in a private tmux server: keys by send-keys, screens by
# capture-pane. It skips the script (exit 77) when tmux is not installed,
# fixes the locale and time zone, drops colour and token variables, and
# kills the server when the script exits (a script with more to clean up
# calls tmux_cleanup from its own trap).

command -v tmux >/dev/null 2>&1 || { echo "SKIP tmux is not installed"; exit 77; }
TMUX_SOCKET="fs-$(basename "$0" .sh)-$$"
export LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC
unset NO_COLOR GH_TOKEN GITHUB_TOKEN TMUX || true

tm() { tmux -L "$TMUX_SOCKET" -f /dev/null "$@"; }
tmux_cleanup() { tm kill-server >/dev/null 2>&1 || true; }
trap tmux_cleanup EXIT

fail() {
	echo "FAIL: $*"
	exit 1
}
# start NAME COLS ROWS COMMAND: COMMAND in a new session; its exit status
# is printed as EXIT:N and the pane stays.
start() {
	tm new-session -d -s "$1" -x "$2" -y "$3" "$4; echo EXIT:\$?; sleep 120"
	tm set-option -t "$1" status off >/dev/null
}
screen() { tm capture-pane -p -t "$1"; }
# wait_for NAME TEXT [SECONDS]: until the screen shows TEXT (WAIT_SECONDS,
# else 10 s).
wait_for() {
	local i
	for i in $(seq $((${3:-${WAIT_SECONDS:-10}} * 10))); do
		screen "$1" | grep -qF -- "$2" && return 0
		sleep 0.1
	done
	echo "FAIL: \"$2\" never showed in $1:"
	screen "$1"
	exit 1
}
# wait_gone NAME TEXT: until the screen no longer shows TEXT (10 s).
wait_gone() {
	local i
	for i in $(seq 100); do
		screen "$1" | grep -qF -- "$2" || return 0
		sleep 0.1
	done
	echo "FAIL: \"$2\" stays in $1:"
	screen "$1"
	exit 1
}
