#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# flakesweep plan --cores 256 -o DIR for the TAP driver at --cpu 1,2
# --load 1,3: 124 lanes of 2 cores, from a real sweep of a TAP script
# (40 ms). DIR's journal header and results.json say "simulated": true;
# view DIR at 80x24 and 200x50 says "simulated" and "plan: ... in all"
# and shows every one of the 124 lanes, in shared cells where they do not
# fit; a copy whose journal was cut in the middle gives the pace so far
# ("plan: ~... in all"). report, merge, compare, quarantine, junit and
# --resume refuse the simulation (and the cut copy) with exit status 2.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant28.sh"
. "$CHECK_SRCDIR/tests/lib/tmux.sh"
mkdir -p "$V28/proj" && cd "$V28/proj"
tapscript ./t40.sh 40 4
tap=(--driver tap --cpu 1,2 --load 1,3)
"$FLAKESWEEP" "${tap[@]}" --count 3 --canaries 0 --ui none -o "$V28/real" -- ./t40.sh \
	>"$V28/sweep.out" 2>&1 || { cat "$V28/sweep.out"; fail "the sweep failed"; }
sim=$V28/sim
"$FLAKESWEEP" plan --cores 256 "${tap[@]}" --count 200 --durations "$V28/real/results.json" -o "$sim" -- ./t40.sh \
	>"$V28/plan.out" 2>&1 || { cat "$V28/plan.out"; fail "plan -o failed"; }
"$FLAKESWEEP" plan --cores 256 "${tap[@]}" --count 200 --durations "$V28/real/results.json" --json -- ./t40.sh \
	>"$V28/plan.json" 2>/dev/null || fail "plan --json failed"
head -1 "$sim/journal.jsonl" | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d.get("simulated") is True, d' ||
	fail "the journal header does not say \"simulated\": true"
[ "$(jq_py "$sim/results.json" 'd.get("simulated")')" = True ] || fail "results.json does not say \"simulated\": true"
lanes=$(jq_py "$V28/plan.json" 'd["lanes"]')
[ "$lanes" = 124 ] || fail "124 lanes expected at 256 cores, 8 kept, width 2; plan says $lanes"
cut=$V28/cut
mkdir -p "$cut"
n=$(wc -l <"$sim/journal.jsonl")
head -n $((n / 2)) "$sim/journal.jsonl" >"$cut/journal.jsonl"
for size in 80x24 200x50; do
	start "v$size" "${size%x*}" "${size#*x}" "'$FLAKESWEEP' view '$sim'"
	wait_for "v$size" "in all" 20
	sleep 1
	screen "v$size" >"$V28/screen-$size"
	shown=$(view_lanes "$V28/screen-$size" "$lanes") || { cat "$V28/screen-$size"; fail "view at $size"; }
	echo "view $size: every lane shown, their cells carry $shown runs"
	tm send-keys -t "v$size" q
done
start cut 80 24 "'$FLAKESWEEP' view '$cut'"
wait_for cut "in all" 20
screen cut | grep -q "plan: ~" || { screen cut; fail "view of a journal cut in half: no \"plan: ~... in all\""; }
screen cut >"$V28/screen-cut"
view_lanes "$V28/screen-cut" "$lanes" >/dev/null || { cat "$V28/screen-cut"; fail "view of the cut journal"; }
refuse() {
	local rc=0
	"$FLAKESWEEP" "$@" >"$V28/refuse.out" 2>&1 || rc=$?
	[ $rc = 2 ] && grep -q "simulation" "$V28/refuse.out" ||
		fail "flakesweep $*: exit $rc, expected 2 and a plan's simulation: $(cat "$V28/refuse.out")"
}
for d in "$sim" "$cut"; do
	refuse report --rebuild "$d"
	refuse merge -o "$V28/merged" "$d"
	refuse junit "$d"
	refuse --resume "$d"
done
refuse report --results "$sim/results.json" --test './t40.sh::t1' --dry-run
refuse compare "$V28/real" "$sim"
refuse quarantine check --results "$sim/results.json"
refuse plan --cores 64 --driver tap --durations "$sim/results.json" -- ./t40.sh
echo "PASS"
