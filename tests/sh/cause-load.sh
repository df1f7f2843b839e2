#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# The load cause: a test with a wall-clock budget
# (tests/fixtures/tap/budget.sh) swept on one core at loads 1 and 2. At
# load 2 two runs share the core, each takes about twice its CPU time and
# fails; at load 1 each has the core to itself and passes. The cause is
# load, with its counts. The sweep runs first (tests/lib/first.sh), so
# a host busy with other work yields the core and load 1 stays quiet.
set -eu
. "$CHECK_SRCDIR/tests/lib/first.sh"
core=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
cd "$CHECK_TMPDIR"
rc=0
"${first[@]}" taskset -c "$core" "$FLAKESWEEP" --driver tap --cpu 1 --load 1,2 --count 10 \
	--confirm 0 --timeout 20s --ui none -o "$CHECK_TMPDIR/out" \
	-- sh "$CHECK_SRCDIR/tests/fixtures/tap/budget.sh" >/dev/null || rc=$?
[ "$rc" = 1 ] # the test is flaky
python3 - "$CHECK_TMPDIR/out" <<'PY'
import json, os, sys
d = sys.argv[1]
res = json.load(open(os.path.join(d, "results.json")))
text = open(os.path.join(d, "report.txt")).read()
[t] = res["tests"]
cells = {c["load"]: c for c in t["cells"]}
assert sorted(cells) == [1, 2] and all(c["runs"] == 10 for c in cells.values()), cells
# Load 1 runs alone on the core: none fails.
assert cells[1]["failures"] == 0, cells
# At load 2 two runs share the core. A run fails when it shares the core
# for more than half its spin (its wall time is then above 1.5 times its
# CPU time), so the runs that pass are the ones mostly alone: within each
# stretch of load-2 runs (the queue alternates the loads, the pair furthest
# behind going first), the first when its partner started late and the
# last, which finishes after its partner once the lane holds for load 1.
# So at least 10 - 2 x stretches fail.
runs = sorted((json.loads(l) for l in open(os.path.join(d, "journal.jsonl"))
               if '"type":"run"' in l), key=lambda r: r["run"])
loads = [r["load"] for r in runs]
stretches = sum(1 for i, x in enumerate(loads) if x == 2 and (i == 0 or loads[i - 1] != 2))
k = cells[2]["failures"]
assert k >= 10 - 2 * stretches, (k, loads)
causes = [x["cause"] for x in t["causes"]]
assert causes == ["load"], t["causes"]
ev = t["causes"][0]["evidence"]
assert ev == "fails only at load 2: %d/10 against 0/10 at other loads" % k, ev
assert t["causes"][0]["q"] < 0.01, t["causes"]
assert "  cause (load): " + ev + " (q=" in text, text
print("load 1: 0/10 failed, cell noise %s; load 2: %d/10 failed in %d stretches, cell noise %s; "
      "p %s, q %s" % (cells[1]["noise"], k, stretches, cells[2]["noise"], t["causes"][0]["p"],
                      t["causes"][0]["q"]))
PY
