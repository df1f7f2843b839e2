#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# Each run's TMPDIR is its own, tmp/N in the output directory, "removed
# when the run passes and kept when the run fails or hangs; one a passing
# run left empty ... is renamed to become a later run's" (flakesweep(1),
# Isolation, TMPDIR), and "no run finds anything another left. The
# sweep's end removes them" (flakesweep(5), tmp/N/). A TAP script checks
# at its start that $TMPDIR is empty and is OUT/tmp/$FLAKESWEEP_RUN (a
# finding goes to a file outside the output directory), then fails every
# third run, leaving a file in its TMPDIR only then. After a sweep at
# --cpu 1 --load 1,2 --count 6 --confirm 0 --canaries 0, no run found its
# TMPDIR wrong, and tmp/ holds exactly the failing runs' TMPDIRs, each
# with the file its run left, and no tmp/.idle-K.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant28b.sh"
T=$CHECK_TMPDIR
mkdir -p "$T/proj" "$T/rec" && cd "$T/proj"
cat >t.sh <<'SH'
#!/bin/sh
run=$FLAKESWEEP_RUN
echo 1..2
: >"$V28B_REC/run-$run"
found=$(ls -A "$TMPDIR" 2>&1) || true
if [ ! -d "$TMPDIR" ] || [ -n "$found" ] || [ "${TMPDIR%/}" != "$V28B_OUT/tmp/$run" ]; then
	echo "TMPDIR=$TMPDIR holds: $found" >"$V28B_REC/bad-$run"
	echo "not ok 1 - fresh tmp"
else
	echo "ok 1 - fresh tmp"
fi
if [ $((run % 3)) = 0 ]; then
	echo "left by run $run" >"$TMPDIR/left"
	echo "not ok 2 - every third"
	exit 1
fi
echo "ok 2 - every third"
SH
chmod +x t.sh
out=$T/out
rc=0
V28B_REC=$T/rec V28B_OUT=$out "$FLAKESWEEP" --driver tap --cpu 1 --load 1,2 --count 6 --confirm 0 \
	--canaries 0 --ui none -o "$out" -- ./t.sh >"$T/sweep.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$T/sweep.out"; echo "FAIL: the sweep exited $rc, expected 1 (a flaky test)"; exit 1; }
tmp_kept "$T/rec" "$out" 12
