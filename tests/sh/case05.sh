#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# Case 05 (tests/fixtures/case05, copied from the case): a Go test that
# listens on a fixed port fails when two runs of its package overlap and
# passes alone. On one core, runs at loads 2 and 3 overlap; the confirm
# phase measures it alone at both pairs (its alone cells), so the test
# stratified by pair has runs of both kinds at each: results.json gives its
# interference with p below 0.01 and names interference among its causes,
# with the counts. Not load 1: two runs that keep the same distance collide
# every time or never, so at load 2 alone the overlapped failures ranged
# from 7 to 17 of about 40 between sweeps (p up to 0.05 at the low end);
# three runs on one core always share the port's window (43 of 86 failed).
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
core=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
# A port free here now, fixed for the whole sweep: 47105, the fixture's
# own, may be held by another copy of this suite on the same host.
CASE05_ADDR=127.0.0.1:$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
export CASE05_ADDR
cp -r "$CHECK_SRCDIR/tests/fixtures/case05" "$CHECK_TMPDIR/case05"
cd "$CHECK_TMPDIR/case05"
rc=0
taskset -c "$core" "$FLAKESWEEP" --cpu 1 --load 2,3 --count 40 --confirm 30 --no-race \
	--ui none -o "$CHECK_TMPDIR/out" ./... >/dev/null 2>&1 || rc=$?
[ "$rc" = 1 ]
python3 - "$CHECK_TMPDIR/out" <<'PY'
import json, os, sys
res = json.load(open(os.path.join(sys.argv[1], "results.json")))
[t] = [t for t in res["tests"] if t["test"] == "TestEchoServerOnDefaultPort"]
i = t["interference"]
cells = {(c["phase"], c["load"]): c for c in t["cells"]}
assert [cells[("alone", l)]["runs"] for l in (2, 3)] == [30, 30], t["cells"]
assert i["alone"]["failures"] == 0 and i["alone"]["runs"] >= 60, i
assert i["overlapped"]["failures"] >= 15 and i["p"] < 1e-4, i
causes = {c["cause"]: c for c in t["causes"]}
assert "interference" in causes and "timing" not in causes, t["causes"]
assert causes["interference"]["evidence"] == \
    "fails when runs of its package overlap: %d/%d overlapped against 0/%d alone" \
    % (i["overlapped"]["failures"], i["overlapped"]["runs"], i["alone"]["runs"]), causes
print("case 05: %s (q=%g)" % (causes["interference"]["evidence"], causes["interference"]["q"]))
PY
