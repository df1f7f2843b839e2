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
. "$CHECK_SRCDIR/tests/lib/variant28b.sh"
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
export FLAKESWEEP_PYTHON=$py
kill_resume "$T" "$out" 8 1 "$FLAKESWEEP" --driver pytest --cpu 1 --load 1,2 --count 4 --confirm 0 --ui none \
	-o "$out" tests
echo "ok: kill -9 and --resume: 8 runs, each journaled once after its spawn line, those in flight run again"
