#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# flakesweep plan at 256 cores from a results.json written as
# flakesweep(5) documents it (packages[].durations: cpu, load, runs,
# median_ms) for a dozen packages of 15 to 180 ms at every pair of --cpu
# 1,2,4,8 --load 1,2: the plan's utilisation is between 0.95 and 1, its
# JSON has the members of flakesweep(5), PLAN, and at 64, 128 and 200
# cores (and at --count 37) the utilisation never goes above 1.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/variant28.sh"
work=$V28/mod
specs=()
for i in $(seq 0 11); do specs+=("p$i:$((15 + i * 15))"); done
gomod "$work" example.org/v28written "${specs[@]}"
R=$V28/results.json
python3 - "$R" <<'PY'
import json, sys
pkgs = []
for i in range(12):
    ms = 15 + i * 15
    durs = []
    for cpu in (1, 2, 4, 8):
        for load in (1, 2):
            # wider runs a little faster, load 2 a little slower
            durs.append({"cpu": cpu, "load": load, "runs": 40,
                         "median_ms": int(ms * (1 + 0.3 * (load - 1)) / (1 + 0.1 * (cpu - 1)))})
    pkgs.append({"package": "example.org/v28written/p%d" % i, "level": "unit", "kind": "unit",
                 "build": {"ok": True, "output": ""}, "runs": 320,
                 "failures_outside_tests": 0, "unreliable_runs": 0, "leaked_runs": 0,
                 "ms": sum(x["median_ms"] * 40 for x in durs), "durations": durs})
doc = {"schema": "flakesweep/results/v1", "status": "complete",
       "started": "2026-12-01T20:00:00Z", "finished": "2026-12-01T20:30:00Z",
       "machine": {"cores": 16, "keep": 2, "lanes": [list(range(2, 10))]},
       "config": {"cpu": [1, 2, 4, 8], "load": [1, 2], "count": 40, "confirm": 1000},
       "packages": pkgs, "tests": []}
json.dump(doc, open(sys.argv[1], "w"), indent=1)
PY
cd "$work"
check() { # CORES COUNT MIN
	"$FLAKESWEEP" plan --cores "$1" --cpu 1,2,4,8 --load 1,2 --count "$2" --durations "$R" --json ./... \
		>"$V28/plan.json" 2>"$V28/plan.err" || { cat "$V28/plan.err"; fail "plan --cores $1 --count $2 failed"; }
	python3 - "$V28/plan.json" "$1" "$2" "$3" <<'PY' || fail "plan --cores $1 --count $2: $(head -30 "$V28/plan.json")"
import json, sys
d = json.load(open(sys.argv[1]))
cores, count, lo = int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
for k in ("cores", "lanes", "runs", "wall_s", "busy_core_s", "utilisation", "phases"):
    assert k in d, "no member " + k
for ph in ("sweep", "confirm"):
    assert "runs" in d["phases"][ph] and "wall_s" in d["phases"][ph], ph
assert d["cores"] == cores
assert d["phases"]["sweep"]["runs"] == 12 * 8 * count, d["phases"]["sweep"]["runs"]
assert not d.get("scaled"), "every pair was measured, yet scaled: %s" % d.get("scaled")
u = d["utilisation"]
print("cores %d count %d: utilisation %.4f, %d lanes, wall %.1f s" % (cores, count, u, d["lanes"], d["wall_s"]))
assert lo <= u <= 1, "utilisation %s not in [%s, 1]" % (u, lo)
assert 0 <= d["phases"]["sweep"]["utilisation"] <= 1
assert d["busy_core_s"] <= d["usable_core_s"] + 1e-6
PY
}
check 256 500 0.95
for n in 64 128 200; do check $n 500 0; done
check 256 37 0
echo "PASS"
