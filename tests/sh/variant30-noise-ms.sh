#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# The noise cause measures a run's length by the run line's ms, in a
# journal whose run lines have no began and ended (written by hand as
# flakesweep(5) describes one, then rebuilt). flakesweep(1), STATISTICS:
# "Its runs are those of 100 ms or more (by the run line's ms, which every
# journal has), within each kind of run and pair"; Noise ranks: "Runs
# shorter than 200 ms are left out ..., a run's noise under 20 ms ranks as
# none". flakesweep(5), causes: noise compares "its noisy runs of 100 ms or
# more against its other runs of 100 ms or more, by their ms", and a cell's
# noisy runs are those whose "noise_ms [is] above 0.2 of the run's ms times
# its cpu"; began and ended "Absent in journals written before they were
# recorded".
# Two packages of 80 runs at cpu 1, load 1. In each, a quarter of the runs
# fail and are noisy (40-46 ms of noise), a quarter pass quiet at the same
# length, and the half that is long (300-499 ms) is quiet (under 10 ms of
# noise), an eighth of it failing. In package short those noisy failing
# runs last 60-99 ms: too short to count, so noise is not named though the
# cell counts them as noisy. In package edge they last exactly 100 ms:
# counted, so noise is named.
set -eu
python3 - "$CHECK_TMPDIR/out" "$FLAKESWEEP" "$CHECK_SRCDIR/tests/lib" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
from variant30 import write_journal, rebuild, check_noise, test_id
d, flakesweep = sys.argv[1], sys.argv[2]
packages = [("short", "TestShort"), ("edge", "TestEdge")]
runs = []
for k in range(80):
    for pkg in (0, 1):
        brief = 60 + (k * 7) % 40 if pkg == 0 else 100
        if k % 4 == 0:
            runs.append((pkg, brief, 40.0 + k % 7, True))
        elif k % 4 == 2:
            runs.append((pkg, brief, 1.0 + k % 3, False))
        else:
            runs.append((pkg, 300 + (k * 13) % 200, 2.0 * (k % 5), k % 8 == 1))
write_journal(d, packages, runs, began=False)
tests = rebuild(flakesweep, d)
bad = []
for pkg, (name, failing) in enumerate(packages):
    t = tests[test_id(name, failing)]
    mine = [r for r in runs if r[0] == pkg]
    [cell] = t["cells"]
    # The cell counts every measured run, short ones too.
    noisy = [r for r in mine if r[2] > 0.2 * r[1]]
    want = {"runs": len(noisy), "failures": sum(r[3] for r in noisy)}
    if cell.get("noisy") != want:
        bad.append("%s: cell noisy %s, expected %s" % (name, cell.get("noisy"), want))
    mean = sum(r[2] for r in mine) / sum(r[1] for r in mine)
    if cell.get("noise") is None or abs(cell["noise"] - mean) > 0.0006:
        bad.append("%s: cell noise %s, expected %.3f" % (name, cell.get("noise"), mean))
    if (cell["runs"], cell["failures"]) != (80, 30):
        bad.append("%s: cell %s" % (name, cell))
    if name == "short":
        bad += check_noise(t, name, False, "runs shorter than 100 ms")
    else:
        bad += check_noise(t, name, True, "its noisy runs of 100 ms")
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
