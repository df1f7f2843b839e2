#!/bin/bash
# SPDX-License-Identifier: MIT
# A sweep whose runs reached no test says so: "No test ran.", never "No
# test failed or hung." (here a TAP plan of no tests, whatever the driver).
set -eu
cd "$CHECK_TMPDIR"
rc=0
"$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 2 --ui none -o "$CHECK_TMPDIR/out" \
	-- sh -c 'echo 1..0' >"$CHECK_TMPDIR/report" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ "$rc" = 0 ] || { cat "$CHECK_TMPDIR/stderr"; echo "exit status $rc, expected 0"; exit 1; }
for f in "$CHECK_TMPDIR/report" "$CHECK_TMPDIR/out/report.txt"; do
	grep -qx "No test ran." "$f" || { cat "$f"; echo "$f: no 'No test ran.'"; exit 1; }
	! grep -q "No test failed" "$f" || { echo "$f: says no test failed"; exit 1; }
done
