#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 200
# Clipped time limits, pytest and --until: two test files in tests/ swept
# with --until (the local time 25 seconds from now, HH:MM:SS) and
# --timeout 10m, a limit longer than the whole budget, so every run's limit
# is clipped to the time the budget had left. report.txt says "N runs had
# their time limit clipped to the time the budget had left" and
# results.json's config.clipped_limits is the same N, at least one and at
# most the runs made (canaries included); the sweep ends by its deadline (105%).
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
PY=$py
export FLAKESWEEP_PYTHON="$PY"
fail() { echo "FAIL: $*"; exit 1; }
T="$CHECK_TMPDIR/v5cp"
mkdir -p "$T/proj/tests"
cd "$T/proj"
for p in valve pump; do
	cat > tests/test_$p.py <<P
import time


def test_${p}_opens():
    time.sleep(0.03)
P
done

start=$(date +%s)
until=$(date -d @$((start + 25)) +%H:%M:%S)
set +e
"$FLAKESWEEP" --driver pytest --until "$until" --timeout 10m --cpu 1 --load 1 -o "$T/out" tests >"$T/sweep.out" 2>&1
rc=$?
set -e
took=$(($(date +%s) - start))
echo "took ${took}s of 25s, exit $rc"
[ "$rc" = 0 ] || { tail -20 "$T/sweep.out"; fail "sweep exited $rc, not 0"; }
[ "$took" -le 27 ] || fail "a 25s deadline took ${took}s"
R="$T/out/results.json"
n=$(jq -r '.config.clipped_limits // "absent"' "$R")
line=$(grep -E "[0-9]+ runs? had (its|their) time limit clipped to the time the budget had left" "$T/out/report.txt" || true)
echo "config.clipped_limits=$n; report: $line"
[ -n "$line" ] || { head -20 "$T/out/report.txt"; fail "report.txt does not say how many runs had their limit clipped"; }
[ "$n" != absent ] && [ "$n" -ge 1 ] || fail "config.clipped_limits is $n"
m=$(echo "$line" | grep -oE "[0-9]+ runs? had" | grep -oE "[0-9]+")
[ "$m" = "$n" ] || fail "report says $m runs clipped, results.json $n"
# Canary runs have time limits too (they shrink in step with the budget).
total=$(grep -cE '"type": ?"(run|canary)"' "$T/out/journal.jsonl" || true)
[ "$n" -le "$total" ] || fail "$n clipped limits but only $total run and canary lines"
grep -qE "[0-9]+ runs? had (its|their) time limit clipped" "$T/sweep.out" || fail "the sweep's own output does not say how many limits were clipped"
grep -qE '"type": ?"clipped"' "$T/out/journal.jsonl" || fail "no clipped line in the journal"
echo "PASS"
