#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 200
# A budget planned from an earlier sweep's durations, Go: a module of three
# packages is swept once with --count 3, then again with --for 25s and
# --durations naming that sweep's results.json. The journal's first budget
# line of the sweep phase has plan: true (the count came from the plan,
# before any run), results.json's config.for_s is 25, and the sweep ends
# within 70% to 105% of the budget.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }
T="$CHECK_TMPDIR/v5plg"
mkdir -p "$T/proj"
cd "$T/proj"
export GOPROXY=off GOFLAGS=-mod=mod
cat > go.mod <<'G'
module example.org/orchard

go 1.19
G
for p in apple pear plum; do
	mkdir -p $p
	cat > $p/${p}_test.go <<G
package $p

import (
	"testing"
	"time"
)

func TestRipens(t *testing.T) { time.Sleep(40 * time.Millisecond) }
func TestFalls(t *testing.T)  {}
G
done

"$FLAKESWEEP" --count 3 --cpu 1 --load 1,2 -o "$T/first" ./... >"$T/first.out" 2>&1 ||
	{ tail -20 "$T/first.out"; fail "first sweep failed"; }
[ -f "$T/first/results.json" ] || fail "first sweep wrote no results.json"

start=$(date +%s)
set +e
"$FLAKESWEEP" --for 25s --durations "$T/first/results.json" --cpu 1 --load 1,2 -o "$T/out" ./... >"$T/sweep.out" 2>&1
rc=$?
set -e
took=$(($(date +%s) - start))
echo "took ${took}s of 25s, exit $rc"
[ "$rc" = 0 ] || { tail -20 "$T/sweep.out"; fail "sweep exited $rc, not 0"; }
J="$T/out/journal.jsonl"
first=$(jq -c 'select(.type == "budget" and .phase == "sweep")' "$J" | head -1)
echo "first sweep budget line: $first"
[ -n "$first" ] || fail "no budget line for the sweep phase"
echo "$first" | jq -e '.plan == true' >/dev/null || fail "the first count did not come from the plan: $first"
echo "$first" | jq -e '.count >= 1' >/dev/null || fail "the planned count is not a count: $first"
jq -e '.config.for_s == 25' "$T/out/results.json" >/dev/null || fail "config.for_s is not 25: $(jq -c .config "$T/out/results.json")"
[ "$took" -ge 17 ] || fail "a 25s budget ended after ${took}s, under 70%"
[ "$took" -le 26 ] || fail "a 25s budget took ${took}s, over 105%"
echo "PASS"
