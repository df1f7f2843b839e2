#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# flakesweep plan takes a sweep's whole command line (flakesweep(1),
# plan): "plan --cores 64 --durations R" in front of a Go sweep's options
# (--timeout, --kill-grace, --shuffle, --no-race, --ui none, --tags,
# --confirm) gives the same plan as without those that change nothing the
# scheduler decides; --for, --until, --resume, --shard and --quiet are
# named on standard error and the plan goes on without them. Bad input is
# refused (exit 2) with the option or file named: --cores 0, x, 1025, a
# --durations file that is not there, a directory, one that is not JSON
# (its line), one whose field is wrong (the field), one of another schema.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/variant28.sh"
work=$V28/mod
gomod "$work" example.com/v28cmd one:35 two:75
cd "$work"
"$FLAKESWEEP" --cpu 1 --load 1 --count 2 --canaries 0 --no-race --ui none -o "$V28/real" ./... \
	>"$V28/sweep.out" 2>&1 || { cat "$V28/sweep.out"; fail "the sweep failed"; }
R=$V28/real/results.json
base=(plan --cores 64 --durations "$R" --json)
keep=(--cpu 1,2,4 --load 1,2 --count 50 --confirm 300)
summary() { jq_py "$1" 'd["cores"], d["lanes"], d["runs"], d["wall_s"], d["utilisation"], d["phases"]["sweep"]["runs"]'; }
"$FLAKESWEEP" "${base[@]}" "${keep[@]}" ./... >"$V28/plain.json" 2>"$V28/plain.err" ||
	{ cat "$V28/plain.err"; fail "plan failed"; }
"$FLAKESWEEP" "${base[@]}" "${keep[@]}" --timeout 30s --kill-grace 5s --shuffle --no-race --ui none --tags unit \
	./... >"$V28/full.json" 2>"$V28/full.err" || { cat "$V28/full.err"; fail "plan in front of a sweep's command line failed"; }
[ "$(summary "$V28/plain.json")" = "$(summary "$V28/full.json")" ] ||
	fail "options that change nothing the scheduler decides changed the plan: $(summary "$V28/plain.json") vs $(summary "$V28/full.json")"
[ "$(jq_py "$V28/plain.json" 'd["phases"]["sweep"]["runs"]')" = $((2 * 6 * 50)) ] || fail "not 600 sweep runs"
for opt in "--for 2h" "--until 06:30" "--resume $V28/real" "--shard 1/3" "--quiet 15"; do
	rc=0
	"$FLAKESWEEP" "${base[@]}" "${keep[@]}" $opt ./... >"$V28/opt.json" 2>"$V28/opt.err" || rc=$?
	[ $rc = 0 ] || fail "plan with $opt: exit $rc: $(cat "$V28/opt.err")"
	grep -qF -- "${opt%% *}" "$V28/opt.err" || fail "plan with $opt does not name ${opt%% *} on standard error: $(cat "$V28/opt.err")"
	[ "$(summary "$V28/plain.json")" = "$(summary "$V28/opt.json")" ] || fail "plan with $opt is not the plan without it"
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
bad --cores '"0"' -- --cores 0 --durations "$R" ./...
bad --cores '"x"' -- --cores x --durations "$R" ./...
bad --cores 1024 -- --cores 1025 --durations "$R" ./...
bad "$V28/none.json" -- --cores 64 --durations "$V28/none.json" ./...
bad "$V28/real" -- --cores 64 --durations "$V28/real" ./...
printf '{"schema": "flakesweep/results/v1",\n"packages": [\n{"package": "x",, }\n' >"$V28/broken.json"
bad "$V28/broken.json:3" -- --cores 64 --durations "$V28/broken.json" ./...
python3 - "$R" "$V28/field.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["packages"][0]["durations"][0]["cpu"] = "one"
json.dump(d, open(sys.argv[2], "w"), indent=1)
PY
bad "$V28/field.json" "packages[0].durations[0].cpu" -- --cores 64 --durations "$V28/field.json" ./...
echo '{"schema": "flakesweep/journal/v1", "packages": []}' >"$V28/schema.json"
bad "$V28/schema.json" schema "flakesweep/results/v1" -- --cores 64 --durations "$V28/schema.json" ./...
echo "PASS"
