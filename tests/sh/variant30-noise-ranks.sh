#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# The noise ranks leave out short runs and a run's noise under 20 ms (a
# journal written by hand as flakesweep(5) describes one, its runs one at
# a time with began and ended, then rebuilt). flakesweep(1), STATISTICS,
# Noise ranks: "when no run of a test, or every run, is above the 20%
# threshold, its failing runs' noise is ranked against its passing runs'
# within each stratum"; "Runs shorter than 200 ms are left out ..., a run's
# noise under 20 ms ranks as none (the lag of up to a tick at each end of
# its interval ...), and the p-value is 1 unless the failing runs' median
# noise is above the passing runs'". flakesweep(5): noise_ms is "The time
# other processes took on its cores while it ran, in milliseconds summed
# over its cores"; a noisy run's noise_ms is "above 0.2 of the run's ms
# times its cpu".
# Three packages of 64 runs at cpu 1, load 1, no run noisy by the
# threshold; passing runs last 400-599 ms with 0-6 ms of noise. Package
# drift fails a quarter of its runs, as long, with 12-18.3 ms of noise:
# under 20 ms, none, so noise is not named. Package brief fails a quarter,
# each lasting 150-199 ms with 22-28 ms of noise (under a fifth): left
# out, so noise is not named. Package spike fails a quarter, as long as
# the passing runs, with 40-65 ms of noise (under a fifth of 400 ms):
# ranked above every passing run, so noise is named.
set -eu
python3 - "$CHECK_TMPDIR/out" "$FLAKESWEEP" "$CHECK_SRCDIR/tests/lib" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
from variant30 import write_journal, rebuild, check_noise, test_id
d, flakesweep = sys.argv[1], sys.argv[2]
packages = [("drift", "TestDrift"), ("brief", "TestBrief"), ("spike", "TestSpike")]
runs = []
for k in range(64):
    long = 400 + (k * 29) % 200
    quiet = 1.5 * (k % 5)
    fails = k % 4 == 1
    runs.append((0, long, 12.0 + 0.9 * (k % 8) if fails else quiet, fails))
    runs.append((1, 150 + (k * 11) % 50 if fails else long, 22.0 + k % 7 if fails else quiet, fails))
    runs.append((2, long, 40.0 + 5 * (k % 6) if fails else quiet, fails))
assert not any(r[2] > 0.2 * r[1] for r in runs)
write_journal(d, packages, runs, began=True)
tests = rebuild(flakesweep, d)
bad = []
for pkg, (name, failing) in enumerate(packages):
    t = tests[test_id(name, failing)]
    [cell] = t["cells"]
    if (cell["runs"], cell["failures"]) != (64, 16) or "noisy" in cell:
        bad.append("%s: cell %s" % (name, cell))
    why = {"drift": "failing runs' noise under 20 ms",
           "brief": "failing runs shorter than 200 ms",
           "spike": "its failing runs' noise, 40-65 ms"}[name]
    bad += check_noise(t, name, name == "spike", why)
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
