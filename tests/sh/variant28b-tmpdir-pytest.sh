#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# Each run's TMPDIR is its own, tmp/N in the output directory, "removed
# when the run passes and kept when the run fails or hangs; one a passing
# run left empty ... is renamed to become a later run's" (flakesweep(1),
# Isolation, TMPDIR), and "no run finds anything another left. The
# sweep's end removes them" (flakesweep(5), tmp/N/). A pytest project
# whose first test checks that $TMPDIR is empty and is
# OUT/tmp/$FLAKESWEEP_RUN (a finding goes to a file outside the output
# directory) and whose second fails every third run, leaving a file in its
# TMPDIR then; some passing runs leave a file too (their TMPDIR must be
# removed, not handed on). After a sweep at --cpu 1 --load 1,2 --count 3
# --confirm 1 with the default canaries, no run found its TMPDIR wrong,
# and tmp/ holds exactly the failing runs' TMPDIRs, each with the file its
# run left, and no tmp/.idle-K.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
. "$CHECK_SRCDIR/tests/lib/variant28b.sh"
T=$CHECK_TMPDIR
mkdir -p "$T/proj/tests" "$T/rec" && cd "$T/proj"
cat >tests/test_scratch.py <<'PY'
import os

# The listing of the tests is no run: it has no FLAKESWEEP_RUN.
RUN = int(os.environ.get("FLAKESWEEP_RUN", "0"))
TMP = os.environ.get("TMPDIR", "")
REC = os.environ["V28B_REC"]
if RUN:
    open(os.path.join(REC, "run-%d" % RUN), "w").close()


def test_fresh_tmp():
    found = os.listdir(TMP) if os.path.isdir(TMP) else None
    want = os.path.join(os.environ["V28B_OUT"], "tmp", str(RUN))
    if found != [] or TMP.rstrip("/") != want:
        with open(os.path.join(REC, "bad-%d" % RUN), "w") as f:
            f.write("TMPDIR=%s holds %s\n" % (TMP, found))
    assert found == []


def test_every_third():
    if RUN % 3 == 0:
        with open(os.path.join(TMP, "left"), "w") as f:
            f.write("left by run %d\n" % RUN)
        assert False, "run %d fails" % RUN
    if RUN % 4 == 1:
        with open(os.path.join(TMP, "scratch"), "w") as f:
            f.write("a passing run's scratch\n")
PY
out=$T/out
rc=0
V28B_REC=$T/rec V28B_OUT=$out FLAKESWEEP_PYTHON=$py "$FLAKESWEEP" --driver pytest --cpu 1 --load 1,2 \
	--count 3 --confirm 1 --ui none -o "$out" tests >"$T/sweep.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$T/sweep.out"; echo "FAIL: the sweep exited $rc, expected 1 (a flaky test)"; exit 1; }
tmp_kept "$T/rec" "$out" 7
