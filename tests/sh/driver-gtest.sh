#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# The gtest driver end to end on data/demo-c: the verdicts of EXPECTED.md
# with --shuffle, each failure charged to its test, the hang named, the
# cpu-1 failure seen through the CPU shim and reproduced by the direct
# command, the order-dependent failure replayed from its kept seed.
set -eu
command -v cmake >/dev/null || { echo "SKIP cmake is not installed"; exit 77; }
[ -f /usr/include/gtest/gtest.h ] || { echo "SKIP GoogleTest is not installed"; exit 77; }
. "$CHECK_SRCDIR/tests/sh/demo-c/build.sh"
cd "$demo_build"
rc=0
"$FLAKESWEEP" --driver gtest --shuffle --cpu 1,2 --load 1 --count 10 --confirm 8 --keep 0 \
	--timeout 3s --kill-grace 500ms --ui none -o "$CHECK_TMPDIR/out" -- ./demo_test \
	>"$CHECK_TMPDIR/report" 2>"$CHECK_TMPDIR/stderr" || rc=$?
cat "$CHECK_TMPDIR/stderr"
[ "$rc" = 1 ] || { echo "exit status $rc, expected 1"; exit 1; }
python3 "$CHECK_SRCDIR/tests/sh/demo-c/check.py" gtest "$CHECK_SRCDIR/data/demo-c/EXPECTED.md" \
	"$CHECK_TMPDIR/out/results.json" "$CHECK_TMPDIR/repro"
# The direct commands reproduce: the cpu-1 failure, and the shuffled order
# from its seed (each replay that gets that far fails Order.QuietByDefault).
sh "$CHECK_TMPDIR/repro/Demo.NeedsTwoCPUs" >"$CHECK_TMPDIR/r1" 2>&1 || true
grep -q "a pool of 0 from hardware_concurrency() = 1" "$CHECK_TMPDIR/r1" ||
	{ cat "$CHECK_TMPDIR/r1"; echo "the cpu-1 failure did not reproduce"; exit 1; }
grep -q "^\[       OK \] Demo.NeedsTwoCPUs" "$CHECK_TMPDIR/r1" &&
	{ echo "Demo.NeedsTwoCPUs passed when reproduced"; exit 1; }
sh "$CHECK_TMPDIR/repro/Order.QuietByDefault" >"$CHECK_TMPDIR/r2" 2>&1 || true
grep -q "^\[  FAILED  \] Order.QuietByDefault (" "$CHECK_TMPDIR/r2" ||
	{ cat "$CHECK_TMPDIR/r2"; echo "the seed did not replay the failing order"; exit 1; }
grep -q "^\[       OK \] Order.QuietByDefault" "$CHECK_TMPDIR/r2" &&
	{ echo "Order.QuietByDefault passed with its failing seed"; exit 1; }
echo "gtest demo sweep as expected"
