#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# flakesweep plan at 256 cores from a real sweep's results.json: six Go
# packages whose tests sleep 20 to 150 ms, swept at cpu 1,2 and load 1,
# then planned at --cpu 1,2,4,8 --load 1,2 --count 500 (the pairs not
# measured scaled from the nearest, as flakesweep(1), plan says). The
# plan's JSON has the members flakesweep(5), PLAN lists, its utilisation
# is between 0.95 and 1, and at 64, 128 and 200 cores it is never above 1.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/variant28.sh"
work=$V28/mod
gomod "$work" example.com/v28util a:20 b:45 c:70 d:95 e:120 f:150
cd "$work"
"$FLAKESWEEP" --cpu 1,2 --load 1 --count 2 --canaries 0 --no-race --ui none -o "$V28/out" ./... \
	>"$V28/sweep.out" 2>&1 || { cat "$V28/sweep.out"; fail "the sweep failed"; }
R=$V28/out/results.json
"$FLAKESWEEP" plan --cores 256 --cpu 1,2,4,8 --load 1,2 --count 500 --durations "$R" --json ./... \
	>"$V28/plan.json" 2>"$V28/plan.err" || { cat "$V28/plan.err"; fail "plan failed"; }
python3 - "$V28/plan.json" <<'PY' || fail "plan --cores 256: $(cat "$V28/plan.json" | head -40)"
import json, sys
d = json.load(open(sys.argv[1]))
for k in ("cores", "lanes", "runs", "wall_s", "busy_core_s", "utilisation", "phases"):
    assert k in d, "no member " + k
assert d["cores"] == 256, d["cores"]
for ph in ("sweep", "confirm"):
    assert "runs" in d["phases"][ph] and "wall_s" in d["phases"][ph], ph
# 6 packages x 4 cpu x 2 loads x 500 runs, nothing failed
assert d["phases"]["sweep"]["runs"] == 6 * 8 * 500, d["phases"]["sweep"]["runs"]
assert d["runs"] == d["phases"]["sweep"]["runs"] + d["phases"]["confirm"]["runs"]
u = d["utilisation"]
print("utilisation at 256 cores:", u, "lanes", d["lanes"], "wall_s", d["wall_s"])
assert 0.95 <= u <= 1, "utilisation %s not in [0.95, 1]" % u
assert d["busy_core_s"] <= d["usable_core_s"] + 1e-6
PY
for n in 64 128 200; do
	"$FLAKESWEEP" plan --cores $n --cpu 1,2,4,8 --load 1,2 --count 500 --durations "$R" --json ./... \
		>"$V28/plan$n.json" 2>"$V28/plan.err" || { cat "$V28/plan.err"; fail "plan --cores $n failed"; }
	u=$(jq_py "$V28/plan$n.json" 'd["utilisation"], d["phases"]["sweep"]["utilisation"], d["cores"]')
	echo "cores $n: utilisation, sweep utilisation, cores = $u"
	python3 -c "import sys; a=[float(x) for x in sys.argv[1:3]]; sys.exit(0 if all(0 <= x <= 1 for x in a) and sys.argv[3] == '$n' else 1)" $u ||
		fail "plan --cores $n: utilisation above 1 or cores wrong: $u"
done
echo "PASS"
