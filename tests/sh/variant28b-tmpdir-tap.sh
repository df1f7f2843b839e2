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
command -v python3 >/dev/null || { echo "SKIP python3 is not installed"; exit 77; }
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
check(len(runs) == 12, "12 runs expected, journal has %d" % len(runs))
check(len(glob.glob(os.path.join(T, "rec", "run-*"))) == 12, "not every run recorded itself")
failed = sorted((str(r["run"]) for r in runs if r.get("exit") or r.get("signal") or r.get("timed_out")), key=int)
check(failed == sorted((str(r["run"]) for r in runs if r["run"] % 3 == 0), key=int), "failed runs: %s" % failed)
entries = sorted(os.listdir(os.path.join(out, "tmp")))
check(entries == sorted(failed, key=str), "tmp/ holds %s, expected the failing runs' %s" % (entries, failed))
for n in failed:
    d = os.path.join(out, "tmp", n)
    check(os.listdir(d) == ["left"], "tmp/%s holds %s" % (n, os.listdir(d)))
    check(open(os.path.join(d, "left")).read() == "left by run %s\n" % n, "tmp/%s/left" % n)
print("ok: 12 runs each found an empty TMPDIR tmp/N; tmp/ keeps only the failing runs %s" % " ".join(failed))
PY
