#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# "A run's limit of open files (RLIMIT_NOFILE) is the one flakesweep was
# started with. flakesweep raises its own to the hard limit"
# (flakesweep(1), Isolation). A pytest project whose test records
# resource.getrlimit(RLIMIT_NOFILE) in a file per run outside the output
# directory and fails every third run, swept from a subshell whose soft
# limit is 700 at --cpu 1 --load 1,2 --count 3 --confirm 1: every run,
# sweep and confirm alike, had the soft limit 700 and the hard limit the
# subshell had.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
T=$CHECK_TMPDIR
hard=$(ulimit -Hn)
[ "$hard" = unlimited ] || [ "$hard" -gt 700 ] || { echo "SKIP the hard limit of open files is $hard"; exit 77; }
[ "$hard" != unlimited ] || hard=-1
mkdir -p "$T/proj/tests" "$T/rec" && cd "$T/proj"
cat >tests/test_limits.py <<'PY'
import os
import resource


def test_files():
    run = int(os.environ["FLAKESWEEP_RUN"])
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    with open(os.path.join(os.environ["V28B_REC"], "run-%d" % run), "w") as f:
        f.write("%d %d\n" % (soft, hard))
    assert run % 3 != 0, "run %d fails" % run
PY
rc=0
(ulimit -Sn 700 && V28B_REC=$T/rec FLAKESWEEP_PYTHON=$py exec "$FLAKESWEEP" --driver pytest --cpu 1 \
	--load 1,2 --count 3 --confirm 1 --ui none -o "$T/out" tests) >"$T/sweep.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$T/sweep.out"; echo "FAIL: the sweep exited $rc, expected 1 (a flaky test)"; exit 1; }
n=0
for f in "$T/rec"/run-*; do
	[ -e "$f" ] || break
	n=$((n + 1))
	[ "$(cat "$f")" = "700 $hard" ] || { echo "FAIL: ${f##*/} had the limits $(cat "$f"), expected 700 $hard"; exit 1; }
done
[ "$n" -gt 6 ] || { echo "FAIL: $n runs recorded their limit, expected the 6 sweep runs and confirm runs"; exit 1; }
echo "ok: all $n runs (6 sweep, $((n - 6)) confirm) had the soft limit 700 flakesweep was started with, hard $hard"
