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
python3 - "$T" "$out" <<'PY'
import glob, json, os, sys
T, out = sys.argv[1], sys.argv[2]
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
bad = sorted(glob.glob(os.path.join(T, "rec", "bad-*")))
check(not bad, "runs found their TMPDIR wrong:\n" + "".join(
    "%s: %s" % (os.path.basename(b), open(b).read()) for b in bad))
runs = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl")) if '"type":"run"' in l]
check(len(runs) > 6, "6 sweep runs and some confirm runs expected, journal has %d" % len(runs))
check(len(glob.glob(os.path.join(T, "rec", "run-*"))) == len(runs), "not every run recorded itself")
failed = sorted((str(r["run"]) for r in runs if r.get("exit") or r.get("signal") or r.get("timed_out")), key=int)
check(failed == sorted((str(r["run"]) for r in runs if r["run"] % 3 == 0), key=int), "failed runs: %s" % failed)
entries = sorted(os.listdir(os.path.join(out, "tmp")))
check(entries == sorted(failed, key=str), "tmp/ holds %s, expected the failing runs' %s" % (entries, failed))
for n in failed:
    d = os.path.join(out, "tmp", n)
    check(os.listdir(d) == ["left"], "tmp/%s holds %s" % (n, os.listdir(d)))
    check(open(os.path.join(d, "left")).read() == "left by run %s\n" % n, "tmp/%s/left" % n)
print("ok: %d runs each found an empty TMPDIR tmp/N; tmp/ keeps only the failing runs %s"
      % (len(runs), " ".join(failed)))
PY
