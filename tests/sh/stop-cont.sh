#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# SIGSTOP and SIGCONT of flakesweep (a suspended job or machine) do not
# turn runs that ended normally while it was stopped into timeouts.
set -eu
cd "$CHECK_TMPDIR"
cp "$CHECK_SRCDIR/tests/fixtures/tap/sleep1.sh" .
"$FLAKESWEEP" --cpu 1 --load 1,2 --count 3 --confirm 0 --timeout 3s --kill-grace 1s --ui none \
	-o out --driver tap -- ./sleep1.sh >stdout 2>stderr &
pid=$!
for _ in $(seq 100); do
	grep -q '"type":"spawn"' out/journal.jsonl 2>/dev/null && break
	sleep 0.05
done
sleep 0.3
kill -STOP $pid
sleep 5
kill -CONT $pid
rc=0; wait $pid || rc=$?
runs=$(grep -c '"type":"run"' out/journal.jsonl)
timed=$(grep '"type":"run"' out/journal.jsonl | grep -c '"timed_out":true' || true)
[ "$rc" = 0 ] && [ "$runs" = 6 ] && [ "$timed" = 0 ] ||
	{ echo "exit $rc, $runs runs, $timed timed out"; cat stderr; exit 1; }
echo "ok: 6 runs passed across a 5 s stop"
