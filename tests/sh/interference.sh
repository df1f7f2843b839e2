#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# Interference: a test that holds a fixed directory under the working
# directory fails only when runs of its package overlap. On one core, load
# 1 runs one at a time and load 2 two at once, so overlap goes with the
# load: only the confirm phase's alone cells (runs with no other run of
# the package anywhere) give the load-2 pair runs of both kinds. Every run
# line says whether it overlapped, and no alone run did; results.json has
# an alone cell at each pair, the cells' overlapped counts and the test's
# interference with a small p from the test stratified by pair, and the
# report names the cause and the remedies.
set -eu
core=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
cd "$CHECK_TMPDIR"
rc=0
taskset -c "$core" "$FLAKESWEEP" --driver tap --cpu 1 --load 1,2 --count 20 --confirm 8 \
	--timeout 20s --ui none -o "$CHECK_TMPDIR/out" \
	-- sh "$CHECK_SRCDIR/tests/fixtures/tap/shared-dir.sh" >/dev/null || rc=$?
[ "$rc" = 1 ]
"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/out" >/dev/null || [ $? = 1 ]
python3 - "$CHECK_TMPDIR/out" <<'PY'
import json, os, sys
out = sys.argv[1]
res = json.load(open(os.path.join(out, "results.json")))
# A run line without overlapped has the last defaults line's (flakesweep(5)).
runs, default = [], False
for l in open(os.path.join(out, "journal.jsonl")):
    o = json.loads(l)
    if o["type"] == "defaults":
        default = o.get("overlapped", default)
    elif o["type"] == "run":
        o.setdefault("overlapped", default)
        runs.append(o)
text = open(os.path.join(out, "report.txt")).read()
[t] = res["tests"]
i = t["interference"]
alone = [r for r in runs if not r.get("overlapped")]
over = [r for r in runs if r.get("overlapped")]
by_phase = {p: [r for r in runs if r.get("phase", "sweep") == p] for p in ("sweep", "confirm", "alone")}
assert len(by_phase["sweep"]) == 40 and len(by_phase["confirm"]) == 16, runs
assert len(by_phase["alone"]) == 16 and not any(r.get("overlapped") for r in by_phase["alone"]), runs
# At load 2 the last run of a pair may find the lane to itself.
assert all(r["load"] == 2 and r.get("phase") != "alone" for r in over) and len(over) >= 18, runs
cells = {(c["phase"], c["load"]): c for c in t["cells"]}
for load in (1, 2):
    c = cells[("alone", load)]
    assert c["runs"] == 8 and c["failures"] == 0 and "overlapped" not in c, c
assert sum(c.get("overlapped", {}).get("runs", 0) for c in t["cells"]) == len(over), t["cells"]
assert i["alone"] == {"runs": len(alone), "failures": 0}, i
assert i["overlapped"]["runs"] == len(over) and i["overlapped"]["failures"] >= 8, i
assert i["p"] < 0.01, i
assert "fails when runs of its package overlap: %d of %d overlapped runs against 0 of %d alone" \
    % (i["overlapped"]["failures"], len(over), len(alone)) in text, text
assert "(exact test stratified by pair, p=" in text, text
assert "or try --isolate-net or --private-workdir\n" in text and "TMPDIR" in text, text
print("interference: overlapped %d/%d failed, alone 0/%d, p=%g"
      % (i["overlapped"]["failures"], len(over), len(alone), i["p"]))
PY
