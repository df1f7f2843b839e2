#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# A pytest sweep on a machine others loaded (38 of its 40 runs above the
# 20% noise threshold) during which a CPU hog started: its failures follow
# the noise (failing runs' median 80%, passing runs' 17-58%), but the
# threshold's split (0/2 quiet runs failed) cannot decide. The journal, as
# the sweep wrote it, rebuilds to the noise cause by the noise ranks, never
# timing (the rule said "fails alike ... quiet or not" before).
set -eu
cd "$CHECK_TMPDIR"
mkdir out
cp "$CHECK_SRCDIR/tests/fixtures/causes-noisy/journal.jsonl" out/
"$FLAKESWEEP" report --rebuild out >rebuild.txt 2>&1 || [ $? = 1 ] || { cat rebuild.txt; exit 1; }
python3 - out/results.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = [t for t in r["tests"] if t["id"].endswith("::test_render")][0]
causes = [c["cause"] for c in t["causes"]]
assert "noise" in causes and "timing" not in causes, causes
ev = [c["evidence"] for c in t["causes"] if c["cause"] == "noise"][0]
assert "median noise" in ev, ev
PY
echo ok
