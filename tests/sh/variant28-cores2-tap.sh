#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# flakesweep plan --cores 2 predicts this machine's sweep phase within 25%
# (flakesweep(1), plan) for the TAP driver at two widths: a TAP script
# that sleeps 70 ms, swept at --cpu 1,2 --load 1 --count 10 (one lane of
# two cores); the plan with the same command line and the sweep's
# results.json gives phases.sweep.wall_s within 25% of the sweep phase of
# the journal's phase lines (flakesweep(5)).
set -eu
. "$CHECK_SRCDIR/tests/lib/variant28.sh"
. "$CHECK_SRCDIR/tests/lib/first.sh"
mkdir -p "$V28/proj" && cd "$V28/proj"
tapscript ./t70.sh 70 3
opts=(--driver tap --cpu 1,2 --load 1 --count 10 --canaries 0)
"${first[@]}" "$FLAKESWEEP" "${opts[@]}" --ui none -o "$V28/out" -- ./t70.sh >"$V28/sweep.out" 2>&1 ||
	{ cat "$V28/sweep.out"; fail "the sweep failed"; }
"$FLAKESWEEP" plan --cores 2 "${opts[@]}" --durations "$V28/out/results.json" --json -- ./t70.sh \
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
assert p["phases"]["sweep"]["runs"] == 2 * 10, p["phases"]["sweep"]["runs"]
assert abs(plan - real) <= 0.25 * real
PY
echo "PASS"
