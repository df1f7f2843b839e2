#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# The ctest driver end to end on data/demo-c's build directory: one test
# per run, the verdicts of EXPECTED.md, the hang named, the cpu-1 failure
# seen through the CPU shim and reproduced by the direct ctest command.
# Each run is a whole ctest (about 40 ms, 400 ms on a loaded machine), so
# the Order tests, which only matter shuffled, are left to driver-gtest.sh.
set -eu
command -v cmake >/dev/null || { echo "SKIP cmake is not installed"; exit 77; }
[ -f /usr/include/gtest/gtest.h ] || { echo "SKIP GoogleTest is not installed"; exit 77; }
. "$CHECK_SRCDIR/tests/sh/demo-c/build.sh"
rc=0
"$FLAKESWEEP" --driver ctest --cpu 1,2 --load 1 --count 8 --confirm 6 --keep 0 \
	--timeout 3s --kill-grace 500ms --skip '^Order\.' --ui none -o "$CHECK_TMPDIR/out" \
	"$demo_build" \
	>"$CHECK_TMPDIR/report" 2>"$CHECK_TMPDIR/stderr" || rc=$?
cat "$CHECK_TMPDIR/stderr"
[ "$rc" = 1 ] || { echo "exit status $rc, expected 1"; exit 1; }
python3 "$CHECK_SRCDIR/tests/sh/demo-c/check.py" ctest "$CHECK_SRCDIR/data/demo-c/EXPECTED.md" \
	"$CHECK_TMPDIR/out/results.json" "$CHECK_TMPDIR/repro"
rc=0
sh "$CHECK_TMPDIR/repro/Demo.NeedsTwoCPUs" >"$CHECK_TMPDIR/r1" 2>&1 || rc=$?
[ "$rc" != 0 ] || { cat "$CHECK_TMPDIR/r1"; echo "the reproduce command passed"; exit 1; }
grep -q "a pool of 0 from hardware_concurrency() = 1" "$CHECK_TMPDIR/r1" ||
	{ cat "$CHECK_TMPDIR/r1"; echo "the cpu-1 failure did not reproduce"; exit 1; }
echo "ctest demo sweep as expected"
