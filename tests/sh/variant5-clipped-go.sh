#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 200
# Clipped time limits, Go: a module of two packages swept with --for 25s
# and --timeout 3m, a limit longer than the whole budget, so every run's
# limit is clipped to the time the budget had left. report.txt says "N runs
# had their time limit clipped to the time the budget had left" and
# results.json's config.clipped_limits is the same N, at least one and at
# most the runs made (canaries included); the sweep ends within its
# budget (105%).
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
T="$CHECK_TMPDIR/v5cg"
mkdir -p "$T/proj/meter" "$T/proj/gauge"
cd "$T/proj"
export GOPROXY=off GOFLAGS=-mod=mod
cat > go.mod <<'G'
module example.com/instruments

go 1.19
G
for p in meter gauge; do
	cat > $p/${p}_test.go <<G
package $p

import (
	"testing"
	"time"
)

func TestReads(t *testing.T) { time.Sleep(30 * time.Millisecond) }
G
done

start=$(date +%s)
set +e
"$FLAKESWEEP" --for 25s --timeout 3m --cpu 1 --load 1 -o "$T/out" ./... >"$T/sweep.out" 2>&1
rc=$?
set -e
took=$(($(date +%s) - start))
echo "took ${took}s of 25s, exit $rc"
[ "$rc" = 0 ] || { tail -20 "$T/sweep.out"; fail "sweep exited $rc, not 0"; }
[ "$took" -le 27 ] || fail "a 25s budget took ${took}s"
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
