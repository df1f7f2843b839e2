#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# Processes a run leaves behind die when it ends, setsid daemons included,
# and count as leaked. After kill -9 of flakesweep, --resume kills what the
# runs in flight left: their whole process group, leader gone or not, and
# their daemons.
set -eu
cd "$CHECK_TMPDIR"
cp "$CHECK_SRCDIR/tests/fixtures/tap/daemon.sh" .
export DAEMON_TAG=$$$RANDOM
left() { pgrep -f "sleep 301[01]$DAEMON_TAG" | wc -l; }
fail() { echo "FAIL: $*"; pgrep -af "sleep 301[01]$DAEMON_TAG" || true; pkill -9 -f "sleep 301[01]$DAEMON_TAG" || true; exit 1; }

# A sweep of 6 runs one after the other: each run's daemon dies with it.
DAEMON_SLEEP=0.4 "$FLAKESWEEP" --cpu 1 --load 1 --count 6 --confirm 0 --timeout 10s --ui none \
	-o out --driver tap -- ./daemon.sh >stdout 2>stderr &
pid=$!
most=0
while kill -0 $pid 2>/dev/null; do
	n=$(pgrep -f "sleep 3010$DAEMON_TAG" | wc -l)
	[ "$n" -gt "$most" ] && most=$n
	sleep 0.05
done
rc=0; wait $pid || rc=$?
[ "$rc" = 0 ] || fail "exit $rc: $(cat stderr)"
leaked=$(grep '"type":"run"' out/journal.jsonl | grep -c '"leaked":true' || true)
[ "$leaked" = 6 ] || fail "$leaked of 6 runs flagged leaked"
[ "$most" -le 2 ] || fail "$most daemons alive at once: they outlive their runs"
[ "$(left)" = 0 ] || fail "processes outlived the sweep"

# kill -9 while runs are in flight, then --resume.
DAEMON_SLEEP=30 "$FLAKESWEEP" --cpu 1 --load 1,2 --count 2 --confirm 0 --timeout 60s --ui none \
	-o k9 --driver tap -- ./daemon.sh >stdout 2>stderr &
pid=$!
for _ in $(seq 200); do
	[ "$(pgrep -f "sleep 3010$DAEMON_TAG" | wc -l)" -ge 1 ] && break
	sleep 0.05
done
sleep 0.3
kill -9 $pid
wait $pid 2>/dev/null || true
sleep 0.3
[ "$(left)" -ge 2 ] || fail "the killed sweep left nothing behind: the test proves nothing"
# The resume's own runs are not what this checks (their exit status
# depends on how a TAP sweep's command is read back).
DAEMON_SLEEP=0.1 "$FLAKESWEEP" --resume k9 --ui none >stdout 2>stderr || true
sleep 0.3
[ "$(left)" = 0 ] || fail "the resume left the killed sweep's processes alive"
grep -q 'killed [0-9]* processes left behind' stderr || fail "no kill reported: $(cat stderr)"
echo "ok: at most $most daemons at once, none after the resume"
