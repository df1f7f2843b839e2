#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# flakesweep plan --spawn-ms MS models the loop's own cost of a run: one
# loop starts the runs, MS apiece, so a plan of many short runs on many
# cores is bound by it. Without it the plan is as before and says nothing
# of spawning; with it the wall time is at least the runs times MS, a
# loop-bound plan keeps fewer cores busy, the JSON says spawn_ms and the
# loop's time in all (spawn_s), and the text says it too.
set -eu
cd "$CHECK_TMPDIR"
dozen=$CHECK_SRCDIR/tests/fixtures/plan/dozen.json
fail() { echo "FAIL: $*"; exit 1; }
args=(plan --cores 256 --cpu 1,2,4,8 --load 1,2 --count 20 --canaries 0 --durations "$dozen")
"$FLAKESWEEP" "${args[@]}" --json >free.json
"$FLAKESWEEP" "${args[@]}" --json --spawn-ms 0.5 >half.json
"$FLAKESWEEP" "${args[@]}" --json --spawn-ms 10 >ten.json
"$FLAKESWEEP" "${args[@]}" --spawn-ms 10 >ten.txt
grep -q '^spawn:   10 ms a run' ten.txt || fail "the text does not say the spawn cost: $(cat ten.txt)"
"$FLAKESWEEP" "${args[@]}" >free.txt
! grep -q '^spawn:' free.txt || fail "a plan without --spawn-ms speaks of it"
python3 - free.json half.json ten.json <<'PY'
import json, sys
free, half, ten = (json.load(open(f)) for f in sys.argv[1:])
def check(cond, what):
    if not cond:
        print("FAIL:", what, free["wall_s"], half["wall_s"], ten["wall_s"])
        sys.exit(1)
check("spawn_ms" not in free and half["spawn_ms"] == 0.5 and ten["spawn_ms"] == 10,
      "spawn_ms in the JSON only when given")
check(free["runs"] == half["runs"] == ten["runs"], "the same runs")
check(half["wall_s"] >= half["runs"] * 0.0005, "half a ms a run: at least runs x 0.5 ms")
check(abs(ten["spawn_s"] - (ten["runs"] + ten["canary_runs"]) * 0.010) < 1e-6,
      "the loop's time is every run's, canaries too")
check(ten["wall_s"] >= ten["runs"] * 0.010, "ten ms a run: at least runs x 10 ms")
check(ten["utilisation"] < free["utilisation"], "the loop-bound plan keeps fewer cores busy")
check(0 < ten["utilisation"] <= 1, "utilisation in (0, 1]")
print("ok: wall %.2f s free, %.2f s at 0.5 ms, %.2f s at 10 ms a run"
      % (free["wall_s"], half["wall_s"], ten["wall_s"]))
PY
rc=0
"$FLAKESWEEP" "${args[@]}" --spawn-ms -1 2>err.txt || rc=$?
[ "$rc" = 2 ] && grep -q 'invalid value "-1" for --spawn-ms' err.txt || fail "--spawn-ms -1: exit $rc: $(cat err.txt)"
