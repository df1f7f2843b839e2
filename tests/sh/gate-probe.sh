#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# gate --probe: two tests add a clock or rng read in head and pass when the
# ledgers are recorded, so both are `probe`; the probe sweep runs them
# through pytest's TAP output at every pair, and the one that fails in some
# runs (every third run id) becomes needs-freeze while the other stays probe.
set -u
py=""
for cand in "${PYTHON:-}" python3 /usr/bin/python3; do
	[ -n "$cand" ] && "$cand" -c 'import pytest' 2>/dev/null && { py=$cand; break; }
done
[ -n "$py" ] || { echo "SKIP no python3 with pytest"; exit 77; }
export FLAKESWEEP_PYTHON=$py FLAKESWEEP_DATADIR=$CHECK_SRCDIR/data PYTHONDONTWRITEBYTECODE=1
w=$CHECK_TMPDIR
mkdir -p "$w/base" "$w/head"
cat >"$w/base/test_p.py" <<'PY'
def test_roll():
    assert True


def test_stamp():
    assert True
PY
cat >"$w/head/test_p.py" <<'PY'
import os
import random
import time


def test_roll():
    # Fails in every third run of a sweep, never outside one.
    run = int(os.environ.get("FLAKESWEEP_RUN", "1"))
    assert random.random() >= 0 and run % 3 != 0


def test_stamp():
    assert time.time() > 0
PY
for tree in base head; do
	(cd "$w/$tree" && PYTHONPATH=$FLAKESWEEP_DATADIR "$py" -m pytest -q -p flakesweep_ledger \
		-p no:cacheprovider --flakesweep-ledger="$w/$tree.jsonl") >"$w/$tree.log" 2>&1 ||
		{ cat "$w/$tree.log"; exit 1; }
done
cd "$w"
"$FLAKESWEEP" gate base.jsonl head.jsonl --allow-env CI,FLAKESWEEP_RUN >plain.out 2>plain.err || { cat plain.err; exit 1; }
grep -q '^probe  *test_p.py::test_roll' plain.out || { cat plain.out; echo "FAIL: roll is not probe"; exit 1; }
rc=0
"$FLAKESWEEP" gate base.jsonl head.jsonl --allow-env CI,FLAKESWEEP_RUN --probe --probe-dir "$w/head" --probe-count 6 \
	--probe-out "$w/sweep" --json >probe.json 2>probe.err || rc=$?
[ "$rc" = 0 ] || { cat probe.err; echo "FAIL: exit $rc"; exit 1; }
python3 - "$w" <<'PYCHECK'
import json, os, sys
w = sys.argv[1]
d = json.load(open(os.path.join(w, "probe.json")))
rows = {r["test"]: r for r in d["tests"]}
def fail(m):
    print("FAIL:", m, json.dumps(d, indent=1)); sys.exit(1)
if rows["test_p.py::test_roll"]["verdict"] != "needs-freeze":
    fail("roll should be needs-freeze")
if "probe runs" not in rows["test_p.py::test_roll"]["reason"]:
    fail("reason names the probe runs")
if rows["test_p.py::test_stamp"]["verdict"] != "probe":
    fail("stamp should stay probe")
res = json.load(open(os.path.join(w, "sweep", "results.json")))
t = {x["test"]: x for x in res["tests"]}
runs = sum(c["runs"] for c in t["test_p.py::test_roll"]["cells"])
pairs = len(res["config"]["cpu"]) * len(res["config"]["load"])
if runs != 6 * pairs:
    fail("roll ran %d times, expected %d" % (runs, 6 * pairs))
print("ok: probe sweep of %d runs promoted test_roll only" % res["summary"]["runs"])
PYCHECK
