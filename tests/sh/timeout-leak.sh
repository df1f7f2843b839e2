#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# A run its time limit ends leaked nothing when the limit's group SIGTERM
# is what ends the processes it left: here the hung test is a child of the
# shell (not exec'd), which the group signal kills with it.
set -eu
cd "$CHECK_TMPDIR"
cat >hang.sh <<'SH'
echo "1..2"
echo "ok 1 - a"
sleep 30
SH
"$FLAKESWEEP" --cpu 1 --load 1,2 --count 3 --confirm 0 --timeout 1s --kill-grace 1s --ui none \
	-o out --driver tap -- sh hang.sh >stdout 2>stderr || true
runs=$(grep -c '"type":"run"' out/journal.jsonl || true)
[ "$runs" = 6 ] || { echo "FAIL: $runs runs journaled, not 6: $(cat stderr)"; exit 1; }
timed=$(grep '"type":"run"' out/journal.jsonl | grep -c '"timed_out":true' || true)
[ "$timed" = 6 ] || { echo "FAIL: $timed of 6 runs timed out"; exit 1; }
leaked=$(grep '"type":"run"' out/journal.jsonl | grep -c '"leaked":true' || true)
[ "$leaked" = 0 ] || { echo "FAIL: $leaked of 6 timed-out runs flagged leaked"; exit 1; }
if grep -q 'left processes behind' out/report.txt; then
	echo "FAIL: report.txt blames leaks"; exit 1
fi
echo "ok: 6 timed-out runs, none leaked"
