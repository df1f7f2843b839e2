#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# A budget's first count from the plan: with --durations (the results.json
# of an earlier sweep of the same dozen packages), the sweep phase's first
# count is the one the scheduler's plan fits in the time left, recorded by
# a budget line with "plan":true before any run; without it the sweep
# begins with one run a pair, as before. Both end within the budget.
set -eu
. "$CHECK_SRCDIR/tests/lib/budget-mod.sh"
fail() { echo "FAIL: $*"; exit 1; }
"$FLAKESWEEP" --count 3 --cpu 1,2 --load 1,2 --no-race --ui none -o "$CHECK_TMPDIR/earlier" \
	./... >"$CHECK_TMPDIR/earlier.txt" 2>&1 || { cat "$CHECK_TMPDIR/earlier.txt"; fail "earlier"; }
# first OUT: the first budget line and whether a run came before it.
first() {
	python3 - "$1" <<'PY'
import json, os, sys
ran = False
for l in open(os.path.join(sys.argv[1], "journal.jsonl")):
    l = json.loads(l)
    if l["type"] == "run" and l.get("phase", "sweep") == "sweep":
        ran = True
    elif l["type"] == "budget":
        print("plan" if l.get("plan") else "runs", l["count"], "after-runs" if ran else "first")
        break
PY
}
start=$(date +%s%N)
"$FLAKESWEEP" --for 60s --durations "$CHECK_TMPDIR/earlier" --cpu 1,2 --load 1,2 --no-race \
	--ui none -o "$CHECK_TMPDIR/out" ./... >"$CHECK_TMPDIR/out.txt" 2>&1 ||
	{ cat "$CHECK_TMPDIR/out.txt"; fail "--for 60s --durations failed"; }
end=$(date +%s%N)
read -r from count when <<<"$(first "$CHECK_TMPDIR/out")"
echo "# with --durations: the first count $count, from the $from, $when"
[ "$from" = plan ] && [ "$when" = first ] || fail "the first count is not the plan's"
[ "$count" -ge 3 ] || fail "the plan's count $count: a plan of 60 s fits more"
check_budget "$CHECK_TMPDIR/out" 60000 $(((end - start) / 1000000)) for_s 60

"$FLAKESWEEP" --for 20s --cpu 1,2 --load 1,2 --no-race --ui none -o "$CHECK_TMPDIR/none" ./... \
	>"$CHECK_TMPDIR/none.txt" 2>&1 || { cat "$CHECK_TMPDIR/none.txt"; fail "--for 20s failed"; }
read -r from count when <<<"$(first "$CHECK_TMPDIR/none")"
[ "$from" = runs ] && [ "$when" = after-runs ] || fail "without --durations: $from $when"
