#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# The journal (flakesweep(5), JOURNAL): "a sequence of lines, each one
# JSON object followed by a newline, written whole with a single write(2)
# ... and never changed once written"; a spawn line is "written when a
# run has started, before anything else is known of it"; "A spawn line
# with no run line of the same id is a run that was in flight when the
# sweep stopped. --resume ... runs it again", and after the resume line
# (after_run) "the runs that follow have higher ids"; "Run ids are whole
# numbers from 1, unique in the journal". A pytest project whose tests
# sleep 100 ms, one failing every fourth run, swept at --cpu 1 --load 1,2
# --count 4 --confirm 0: read over and over while it runs, every whole
# line is JSON and stays as it was; once 4 runs are journaled and one is
# in flight, the sweep gets kill -9; --resume DIR exits 1 (a flaky test)
# and the journal then holds 8 run lines, each id once, each after a
# spawn line of its id; the runs in flight at the kill have no run line
# and ran again under ids above the resume line's after_run.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
T=$CHECK_TMPDIR
mkdir -p "$T/proj/tests" && cd "$T/proj"
cat >tests/test_queue.py <<'PY'
import os
import time


def test_push():
    time.sleep(0.1)


def test_drain():
    time.sleep(0.1)
    assert int(os.environ.get("FLAKESWEEP_RUN", "1")) % 4 != 0, "drained out of order"
PY
out=$T/out
lib=$CHECK_SRCDIR/tests/lib/variant28b-journal.py
FLAKESWEEP_PYTHON=$py "$FLAKESWEEP" --driver pytest --cpu 1 --load 1,2 --count 4 --confirm 0 --ui none \
	-o "$out" tests >"$T/sweep.out" 2>&1 &
sweep=$!
python3 "$lib" watch "$out/journal.jsonl" $sweep "$T/stop" "$T/flight" >"$T/watch.out" 2>&1 &
watcher=$!
rc=0
wait $sweep 2>/dev/null || rc=$?
[ "$rc" = 137 ] || { touch "$T/stop"; wait $watcher || true; cat "$T/sweep.out" "$T/watch.out";
	echo "FAIL: the sweep exited $rc, not killed (137)"; exit 1; }
rc=0
FLAKESWEEP_PYTHON=$py "$FLAKESWEEP" --resume "$out" --ui none >"$T/resume.out" 2>&1 || rc=$?
touch "$T/stop"
wrc=0
wait $watcher || wrc=$?
cat "$T/watch.out"
[ "$wrc" = 0 ] || { echo "FAIL: the journal read while the sweep ran is wrong"; exit 1; }
[ "$rc" = 1 ] || { cat "$T/resume.out"; echo "FAIL: --resume exited $rc, expected 1 (a flaky test)"; exit 1; }
python3 "$lib" check "$out/journal.jsonl" "$out/results.json" 8 "$T/flight"
echo "ok: kill -9 and --resume: 8 runs, each journaled once after its spawn line, those in flight run again"
