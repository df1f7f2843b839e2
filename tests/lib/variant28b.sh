# SPDX-License-Identifier: MIT
# Sourced by the tests/sh/variant28b-*.sh scripts: the checks that the TAP
# and pytest variants of one behaviour share.
command -v python3 >/dev/null || { echo "SKIP python3 is not installed"; exit 77; }
V28B_LIB=$CHECK_SRCDIR/tests/lib
# tmp_kept REC OUT MIN: after a sweep into OUT whose runs (MIN at least)
# each wrote REC/run-N, and REC/bad-N when run N found its TMPDIR wrong,
# and whose runs with an id divisible by 3 failed, leaving the file left
# ("left by run N") in their TMPDIR: no run found its TMPDIR wrong, every
# run recorded itself, the failing runs are those, and tmp/ holds exactly
# their TMPDIRs, each with only its left file: no passing run's, no
# .idle-K (flakesweep(1), Isolation; flakesweep(5), tmp/N/).
tmp_kept() {
	python3 - "$@" <<'PY'
import glob, json, os, sys
rec, out, least = sys.argv[1], sys.argv[2], int(sys.argv[3])
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
bad = sorted(glob.glob(os.path.join(rec, "bad-*")))
check(not bad, "runs found their TMPDIR wrong:\n" + "".join(
    "%s: %s" % (os.path.basename(b), open(b).read()) for b in bad))
runs = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl")) if '"type":"run"' in l]
check(len(runs) >= least, "%d runs or more expected, the journal has %d" % (least, len(runs)))
check(len(glob.glob(os.path.join(rec, "run-*"))) == len(runs), "not every run recorded itself")
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
}
# kill_resume DIR OUT RUNS RC CMD...: runs CMD, a sweep into OUT, in the
# background; the watcher of variant28b-journal.py reads the journal as
# it grows and sends the sweep SIGKILL once 4 runs are journaled and one
# is in flight; then flakesweep --resume OUT must exit RC, the watcher must
# have found every line whole, and the finished journal must hold RUNS run
# lines as variant28b-journal.py check says. DIR takes the outputs.
kill_resume() {
	local dir=$1 out=$2 runs=$3 want=$4 sweep watcher rc=0 wrc=0
	shift 4
	"$@" >"$dir/sweep.out" 2>&1 &
	sweep=$!
	python3 "$V28B_LIB/variant28b-journal.py" watch "$out/journal.jsonl" $sweep "$dir/stop" "$dir/flight" \
		>"$dir/watch.out" 2>&1 &
	watcher=$!
	wait $sweep 2>/dev/null || rc=$?
	[ "$rc" = 137 ] || { touch "$dir/stop"; wait $watcher || true; cat "$dir/sweep.out" "$dir/watch.out";
		echo "FAIL: the sweep exited $rc, not killed (137)"; exit 1; }
	rc=0
	"$FLAKESWEEP" --resume "$out" --ui none >"$dir/resume.out" 2>&1 || rc=$?
	touch "$dir/stop"
	wait $watcher || wrc=$?
	cat "$dir/watch.out"
	[ "$wrc" = 0 ] || { echo "FAIL: the journal read while the sweep ran is wrong"; exit 1; }
	[ "$rc" = "$want" ] || { cat "$dir/resume.out"; echo "FAIL: --resume exited $rc, expected $want"; exit 1; }
	python3 "$V28B_LIB/variant28b-journal.py" check "$out/journal.jsonl" "$out/results.json" "$runs" "$dir/flight"
}
