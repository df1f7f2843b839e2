#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# flakesweep plan --cores 256 -o DIR from a real sweep of three Go
# packages (25, 55, 85 ms) at --cpu 1,2,4,8 --load 1,2: DIR's journal
# header and results.json say "simulated": true (flakesweep(5)); view DIR
# at 80x24 and 200x50 says "simulated", gives the plan's wall time
# ("plan: ... in all") and shows each of the 31 lanes, alone or in a
# shared cell; report (--rebuild, --results), merge, compare (either
# side), quarantine check --results, junit, --resume and plan --durations
# refuse it with exit status 2, saying it is a plan's simulation.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/variant28.sh"
. "$CHECK_SRCDIR/tests/lib/tmux.sh"
work=$V28/mod
gomod "$work" example.com/v28sim k:25 l:55 m:85
cd "$work"
"$FLAKESWEEP" --cpu 1 --load 1,2 --count 2 --canaries 0 --no-race --ui none -o "$V28/real" ./... \
	>"$V28/sweep.out" 2>&1 || { cat "$V28/sweep.out"; fail "the sweep failed"; }
sim=$V28/sim
"$FLAKESWEEP" plan --cores 256 --cpu 1,2,4,8 --load 1,2 --count 30 --durations "$V28/real/results.json" \
	-o "$sim" ./... >"$V28/plan.out" 2>&1 || { cat "$V28/plan.out"; fail "plan -o failed"; }
"$FLAKESWEEP" plan --cores 256 --cpu 1,2,4,8 --load 1,2 --count 30 --durations "$V28/real/results.json" \
	--json ./... >"$V28/plan.json" 2>/dev/null || fail "plan --json failed"
head -1 "$sim/journal.jsonl" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d["type"]=="header" and d.get("simulated") is True, d' ||
	fail "the journal header does not say \"simulated\": true: $(head -c 300 "$sim/journal.jsonl")"
[ "$(jq_py "$sim/results.json" 'd.get("simulated")')" = True ] || fail "results.json does not say \"simulated\": true"
lanes=$(jq_py "$V28/plan.json" 'd["lanes"]')
runs=$(jq_py "$V28/plan.json" 'd["runs"]')
canaries=$(jq_py "$V28/plan.json" 'd["canary_runs"]')
[ "$lanes" = 31 ] || fail "31 lanes expected at 256 cores and width 8, plan says $lanes"
for size in 80x24 200x50; do
	start "v$size" "${size%x*}" "${size#*x}" "cd '$work' && '$FLAKESWEEP' view '$sim'"
	wait_for "v$size" "in all" 20
	sleep 1
	screen "v$size" >"$V28/screen-$size"
	shown=$(view_lanes "$V28/screen-$size" "$lanes") || { cat "$V28/screen-$size"; fail "view at $size"; }
	echo "view $size: the lane cells add up to $shown runs (plan: $runs, canaries $canaries)"
	[ "$shown" -ge "$runs" ] && [ "$shown" -le $((runs + canaries)) ] ||
		{ cat "$V28/screen-$size"; fail "view at $size: lanes carry $shown runs, the plan $runs"; }
	tm send-keys -t "v$size" q
done
refuse() {
	local rc=0
	"$FLAKESWEEP" "$@" >"$V28/refuse.out" 2>&1 || rc=$?
	[ $rc = 2 ] && grep -q "simulation" "$V28/refuse.out" ||
		fail "flakesweep $*: exit $rc, expected 2 and a plan's simulation: $(cat "$V28/refuse.out")"
}
refuse report --rebuild "$sim"
refuse report --results "$sim/results.json" --test 'example.com/v28sim/k::TestSleep' --dry-run
refuse merge -o "$V28/merged" "$sim" "$V28/real"
refuse compare "$sim" "$V28/real"
refuse compare "$V28/real/results.json" "$sim/results.json"
refuse quarantine check --results "$sim/results.json"
refuse junit "$sim" -o "$V28/junit.xml"
refuse --resume "$sim"
refuse plan --cores 8 --durations "$sim/results.json" ./...
echo "PASS"
