#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# flakesweep plan in front of a TAP sweep's command line (flakesweep(1),
# plan): "plan --cores 64 --durations R" before --driver tap --shuffle
# --timeout 5s --kill-grace 1s --tap-select env --ui none ... -- CMD
# plans the same as without the options that change nothing the
# scheduler decides, and the words of the sweep's own parser refuse the
# same bad options (--load 65, --cpu 0, --count x). --cores -3, 2x and a
# --cores with no number, no --durations, a --durations file cut short
# (its path and line) or whose packages are not an array (the field) are
# refused with exit status 2, naming the option or the file.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant28.sh"
mkdir -p "$V28/proj" && cd "$V28/proj"
tapscript ./t60.sh 60 2
"$FLAKESWEEP" --driver tap --cpu 1 --load 1,2 --count 3 --canaries 0 --ui none -o "$V28/real" -- ./t60.sh \
	>"$V28/sweep.out" 2>&1 || { cat "$V28/sweep.out"; fail "the sweep failed"; }
R=$V28/real/results.json
keep=(--driver tap --cpu 1,2 --load 1,2 --count 40 --canaries 0)
summary() { jq_py "$1" 'd["cores"], d["lanes"], d["runs"], d["wall_s"], d["utilisation"], d["phases"]["sweep"]["runs"]'; }
"$FLAKESWEEP" plan --cores 64 --durations "$R" --json "${keep[@]}" -- ./t60.sh >"$V28/plain.json" 2>"$V28/plain.err" ||
	{ cat "$V28/plain.err"; fail "plan failed"; }
"$FLAKESWEEP" plan --cores 64 --durations "$R" --json "${keep[@]}" --shuffle --timeout 5s --kill-grace 1s \
	--tap-select env --ui none -- ./t60.sh >"$V28/full.json" 2>"$V28/full.err" ||
	{ cat "$V28/full.err"; fail "plan in front of a TAP sweep's command line failed"; }
[ "$(summary "$V28/plain.json")" = "$(summary "$V28/full.json")" ] ||
	fail "options that change nothing the scheduler decides changed the plan: $(summary "$V28/plain.json") vs $(summary "$V28/full.json")"
[ "$(jq_py "$V28/plain.json" 'd["phases"]["sweep"]["runs"], d["cores"]')" = "160 64" ] || fail "expected 160 sweep runs at 64 cores: $(summary "$V28/plain.json")"
# the same parser, the same words
for opt in "--load 65" "--cpu 0" "--count x"; do
	rc1=0 rc2=0
	"$FLAKESWEEP" $opt --driver tap -- ./t60.sh >/dev/null 2>"$V28/sweep.err" || rc1=$?
	"$FLAKESWEEP" plan --cores 64 --durations "$R" $opt --driver tap -- ./t60.sh >/dev/null 2>"$V28/plan.err" || rc2=$?
	[ $rc1 = 2 ] && [ $rc2 = 2 ] && cmp -s "$V28/sweep.err" "$V28/plan.err" ||
		fail "$opt: sweep exit $rc1 \"$(cat "$V28/sweep.err")\", plan exit $rc2 \"$(cat "$V28/plan.err")\""
done
bad() { # WORDS... -- ARGS: exit 2 and standard error has each word
	local words=() rc=0
	while [ "$1" != -- ]; do words+=("$1"); shift; done
	shift
	"$FLAKESWEEP" plan "$@" >"$V28/bad.out" 2>"$V28/bad.err" || rc=$?
	[ $rc = 2 ] || fail "plan $*: exit $rc, expected 2: $(cat "$V28/bad.err")"
	for w in "${words[@]}"; do
		grep -qF -- "$w" "$V28/bad.err" || fail "plan $*: the error does not say \"$w\": $(cat "$V28/bad.err")"
	done
}
bad --cores '"-3"' -- --cores -3 --durations "$R" --driver tap -- ./t60.sh
bad --cores '"2x"' -- --cores 2x --durations "$R" --driver tap -- ./t60.sh
bad --cores -- --durations "$R" --driver tap --cores
bad --durations -- --cores 64 --driver tap -- ./t60.sh
head -c 200 "$R" >"$V28/cut.json"
bad "$V28/cut.json:" -- --cores 64 --durations "$V28/cut.json" --driver tap -- ./t60.sh
echo '{"schema": "flakesweep/results/v1", "packages": "t60"}' >"$V28/pk.json"
bad "$V28/pk.json:1" packages -- --cores 64 --durations "$V28/pk.json" --driver tap -- ./t60.sh
echo "PASS"
