#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# flakesweep plan --cores 2 predicts this machine's sweep phase within 25%
# (flakesweep(1), plan): four Go packages whose tests sleep 50, 110, 130
# and 200 ms, swept at --cpu 1 --load 1,2 --count 4; the plan, from that
# sweep's results.json with the same options, gives phases.sweep.wall_s
# within 25% of the sweep phase the journal's phase lines measured (from
# the "sweep" phase line's at_ms to the "confirm" one's, flakesweep(5)).
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/variant28.sh"
. "$CHECK_SRCDIR/tests/lib/first.sh"
work=$V28/mod
gomod "$work" example.net/v28cores2 w:50 x:110 y:130 z:200
cd "$work"
opts=(--cpu 1 --load 1,2 --count 4 --canaries 0 --no-race)
"${first[@]}" "$FLAKESWEEP" "${opts[@]}" --ui none -o "$V28/out" ./... >"$V28/sweep.out" 2>&1 ||
	{ cat "$V28/sweep.out"; fail "the sweep failed"; }
"$FLAKESWEEP" plan --cores 2 "${opts[@]}" --durations "$V28/out/results.json" --json ./... \
	>"$V28/plan.json" 2>"$V28/plan.err" || { cat "$V28/plan.err"; fail "plan failed"; }
python3 - "$V28/out/journal.jsonl" "$V28/plan.json" <<'PY' || fail "the plan is not within 25% of the sweep"
import json, sys
at = {}
for line in open(sys.argv[1]):
    o = json.loads(line)
    if o.get("type") == "phase":
        at.setdefault(o["phase"], o["at_ms"])
real = (at["confirm"] - at["sweep"]) / 1000.0
p = json.load(open(sys.argv[2]))
plan = p["phases"]["sweep"]["wall_s"]
print("real sweep phase %.3f s, plan %.3f s, ratio %.3f" % (real, plan, plan / real))
assert p["phases"]["sweep"]["runs"] == 4 * 2 * 4, p["phases"]["sweep"]["runs"]
assert abs(plan - real) <= 0.25 * real
PY
echo "PASS"
