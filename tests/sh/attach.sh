#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Attach and detach, black-box: a headless TAP sweep (--ui none under
# setsid) serves OUT/control.sock, mode 0600; views in a private tmux
# server attach to it, pause it (the journal stops growing, in every view
# the header says so), resume it, quit while it goes on, and stop it. A
# sweep killed with -9 leaves a stale socket: a view falls back to the
# journal and --resume replaces the socket. After the end, c adds confirm
# runs to the same directory, in a view and in the live dashboard, and
# results.json counts them.
set -eu

. "$CHECK_SRCDIR/tests/lib/tmux.sh"
T="$CHECK_TMPDIR"
sweep_pid=
cleanup() {
	tmux_cleanup
	[ -z "$sweep_pid" ] || kill -9 "$sweep_pid" 2>/dev/null || true
}
trap cleanup EXIT
fail() {
	echo "FAIL: $*"
	[ ! -s "$T/sweep.err" ] || { echo "the sweep's stderr:"; head -40 "$T/sweep.err"; }
	exit 1
}
lines() { wc -l <"$1/journal.jsonl"; }
runs() { grep -c '"type":"run"' "$1/journal.jsonl" || true; }
# grows DIR N SECONDS: until DIR's journal has more than N lines.
grows() {
	local i
	for i in $(seq $(($3 * 10))); do
		[ "$(lines "$1")" -gt "$2" ] && return 0
		sleep 0.1
	done
	fail "the journal of $1 stayed at $2 lines for $3 s"
}
# resumed N: until $O's journal has more than N resume lines (the resumed
# sweep serves its socket before it writes one).
resumed() {
	local i
	for i in $(seq 200); do
		[ "$(grep -c '"type":"resume"' "$O/journal.jsonl")" -gt "$1" ] && return 0
		sleep 0.1
	done
	fail "the sweep did not resume $O"
}
# confirm_runs DIR TEST: the confirm runs results.json counts for TEST.
confirm_runs() {
	python3 - "$1/results.json" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["tests"] if t["test"] == sys.argv[2]][0]
print(sum(c["runs"] for c in t["cells"] if c["phase"] == "confirm"))
PY
}

# beta fails one run in two: flaky in every sweep of more than a few runs.
cat >"$T/t.sh" <<'EOF'
#!/bin/sh
sleep 0.05
echo "1..3"
echo "ok 1 - alpha"
if [ $(( $(od -An -N1 -tu1 /dev/urandom) % 2 )) -eq 0 ]; then
	echo "not ok 2 - beta"
else
	echo "ok 2 - beta"
fi
echo "ok 3 - gamma"
EOF
chmod +x "$T/t.sh"
cd "$T"

# --- a headless sweep, steered from views.
O="$T/out"
setsid "$FLAKESWEEP" --ui none --driver tap --cpu 1 --load 1 --count 100000 --confirm 0 \
	-o "$O" -- "$T/t.sh" >"$T/sweep.out" 2>"$T/sweep.err" </dev/null &
sweep_pid=$!
for _ in $(seq 100); do
	[ -S "$O/control.sock" ] && [ "$(runs "$O")" -ge 3 ] && break
	sleep 0.1
done
[ -S "$O/control.sock" ] || fail "no control socket in $O"
[ "$(stat -c %a "$O/control.sock")" = 600 ] ||
	fail "control.sock has mode $(stat -c %a "$O/control.sock"), expected 600"

start v1 120 40 "$FLAKESWEEP view $O"
start v2 120 40 "$FLAKESWEEP view $O"
start v3 120 40 "$FLAKESWEEP view $O"
for v in v1 v2 v3; do
	wait_for $v "view: sweep, live"
done
# The lanes come from the sweep: runs in flight show as they start.
wait_for v1 "t.sh cpu 1"

tm send-keys -t v1 P
for v in v1 v2 v3; do
	wait_for $v "view: sweep (paused), live"
done
# Runs in flight finish (a run takes about 0.1 s); then nothing starts.
sleep 1.5
n1=$(lines "$O")
sleep 2
n2=$(lines "$O")
[ "$n1" = "$n2" ] || fail "paused, the journal grew from $n1 to $n2 lines"
kill -0 "$sweep_pid" || fail "the sweep died while paused"

tm send-keys -t v2 P
for v in v1 v2 v3; do
	wait_gone $v "(paused)"
done
grows "$O" "$n2" 10

# Quitting a view leaves the sweep running.
tm send-keys -t v1 q
wait_for v1 "EXIT:0"
n3=$(lines "$O")
grows "$O" "$n3" 10
kill -0 "$sweep_pid" || fail "quitting a view stopped the sweep"
wait_for v2 "view: sweep, live"

# S in a view stops the sweep after asking; the views see it end.
tm send-keys -t v3 S
wait_for v3 "stop the sweep? (flakesweep --resume"
tm send-keys -t v3 y
rc=0
wait "$sweep_pid" || rc=$?
sweep_pid=
[ "$rc" = 130 ] || fail "the stopped sweep exited $rc, expected 130"
[ ! -e "$O/control.sock" ] || fail "the ended sweep left its control socket"
for v in v2 v3; do
	wait_for $v "view: interrupted"
	wait_for $v "the sweep ended: this view reads its journal now"
done
tm send-keys -t v2 q
tm send-keys -t v3 q
wait_for v2 "EXIT:0"
wait_for v3 "EXIT:0"

# --- kill -9 leaves a stale socket: views read the journal, --resume
# replaces it.
resumes=$(grep -c '"type":"resume"' "$O/journal.jsonl" || true)
setsid "$FLAKESWEEP" --resume "$O" --ui none >"$T/resume.out" 2>"$T/resume.err" </dev/null &
sweep_pid=$!
resumed "$resumes"
[ -S "$O/control.sock" ] || fail "the resumed sweep serves no control socket"
kill -9 "$sweep_pid"
wait "$sweep_pid" 2>/dev/null || true
sweep_pid=
[ -S "$O/control.sock" ] || fail "kill -9 removed the socket (the test needs a stale one)"
start stale 120 40 "$FLAKESWEEP view $O"
wait_for stale "view: sweep, running elsewhere"
tm send-keys -t stale P
wait_for stale "this view only reads the journal: nothing to pause"
tm send-keys -t stale q
wait_for stale "EXIT:0"
resumes=$(grep -c '"type":"resume"' "$O/journal.jsonl")
setsid "$FLAKESWEEP" --resume "$O" --ui none >"$T/resume.out" 2>"$T/resume.err" </dev/null &
sweep_pid=$!
resumed "$resumes"
start again 120 40 "$FLAKESWEEP view $O"
wait_for again "view: sweep, live" 20
tm send-keys -t again S
wait_for again "stop the sweep?"
tm send-keys -t again y
rc=0
wait "$sweep_pid" || rc=$?
sweep_pid=
[ "$rc" = 130 ] || fail "the resumed sweep exited $rc after S, expected 130"
tm send-keys -t again q
wait_for again "EXIT:0"

# --- after the end: c in a view adds confirm runs and runs them here.
F="$T/done"
"$FLAKESWEEP" --ui none --driver tap --cpu 1 --load 1 --count 20 --confirm 2 -o "$F" \
	-- "$T/t.sh" >"$T/done.out" 2>"$T/done.err" || [ $? = 1 ] || fail "the small sweep failed"
[ "$(confirm_runs "$F" beta)" = 2 ] || fail "the small sweep has $(confirm_runs "$F" beta) confirm runs of beta, expected 2"
before=$(runs "$F")
start done 120 40 "$FLAKESWEEP view $F"
wait_for done "view: complete"
wait_for done "> beta"
tm send-keys -t done c
wait_for done "confirm beta: runs at each of 1 pairs: 2"
tm send-keys -t done BSpace 3 0 Enter
wait_for done "queued 30 runs of $T/t.sh::beta"
# The sweep ends again, and the confirm decision is recorded once its runs ran.
wait_for done "confirmed $T/t.sh::beta: its confirm runs have run" 30
[ "$(confirm_runs "$F" beta)" = 32 ] ||
	fail "after c 30 in the view, results.json has $(confirm_runs "$F" beta) confirm runs of beta, expected 32"
[ "$(runs "$F")" = $((before + 30)) ] || fail "the journal has $(runs "$F") runs, expected $((before + 30))"
grep -qF '"type":"confirm","test":"'"$T"'/t.sh::beta","count":30' "$F/journal.jsonl" ||
	fail "no confirm line in the journal"
[ "$(tail -2 "$F/journal.jsonl" | grep -c '"status":"complete"')" = 1 ] ||
	fail "the journal does not end complete"
tm send-keys -t done q
wait_for done "EXIT:0"

# A project that is gone: c says so plainly and runs nothing.
G="$T/gone"
mkdir "$T/proj"
cp "$T/t.sh" "$T/proj/g.sh"
(cd "$T/proj" && "$FLAKESWEEP" --ui none --driver tap --cpu 1 --load 1 --count 20 --confirm 1 \
	-o "$G" -- "$T/proj/g.sh" >/dev/null 2>&1) || [ $? = 1 ] || fail "the sweep of g.sh failed"
rm -r "$T/proj"
before=$(lines "$G")
start gone 120 40 "$FLAKESWEEP view $G"
wait_for gone "> beta"
tm send-keys -t gone c
wait_for gone "confirm beta"
tm send-keys -t gone Enter
wait_for gone "cannot confirm $T/proj/g.sh::beta here: the project $T/proj is not"
[ "$(lines "$G")" = "$before" ] || fail "a confirm that cannot run wrote to the journal"
tm send-keys -t gone q
wait_for gone "EXIT:0"

# --- after the end in the live dashboard: c runs again in the same sweep.
L="$T/live"
start live 120 40 "$FLAKESWEEP --ui full --driver tap --cpu 1 --load 1 --count 20 --confirm 2 -o $L -- $T/t.sh"
wait_for live "the sweep is complete: results in" 60
wait_for live "> beta"
tm send-keys -t live c
wait_for live "confirm beta: runs at each of 1 pairs: 2"
tm send-keys -t live BSpace 2 0 Enter
wait_for live "queued 20 runs of $T/t.sh::beta"
wait_for live "confirmed $T/t.sh::beta: its confirm runs have run" 30
[ "$(confirm_runs "$L" beta)" = 22 ] ||
	fail "after c 20 in the live dashboard, results.json has $(confirm_runs "$L" beta) confirm runs of beta, expected 22"
tm send-keys -t live q
wait_for live "EXIT:1" 20
echo "attach checks passed"
