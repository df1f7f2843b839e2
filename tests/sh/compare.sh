#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# compare on generated results (tests/fixtures/seq/gen-compare.py): one
# test per verdict, the 15/20 against 14/20 case inconclusive, golden text
# and JSON (numbers rounded to 6 digits), the exit status with and without
# --test, bad input (exit 2, naming the file and what was expected), and
# --ui full without a terminal (the text, and a line saying why).
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
python3 "$CHECK_SRCDIR/tests/fixtures/seq/gen-compare.py" .

rc=0; "$FLAKESWEEP" compare before after.json >out 2>err || rc=$?
[ "$rc" = 1 ] || fail "exit $rc, expected 1 (a test is worse, one is new)"
cat >want <<'TXT'
inconclusive p::Test15of20 at cpu 1 load 1: before 15/20 (75.0%), after 14/20 (70.0%); 69 passing runs after would show it fixed
fixed        p::TestFixed at cpu 1 load 1: before 30/100 (30.0%), after 0/200 (0.0%)
not run      p::TestGone at cpu 1 load 1: before 3/10 (30.0%), after not run
new          p::TestNew at cpu 1 load 1: before 0/100 (0.0%), after 5/100 (5.0%)
unchanged    p::TestPass
rarer        p::TestRarer at cpu 1 load 1: before 30/100 (30.0%), after 5/100 (5.0%)
unchanged    p::TestSame at cpu 1 load 1: before 500/1000 (50.0%), after 500/1000 (50.0%)
worse        p::TestWorse at cpu 1 load 1: before 2/100 (2.0%), after 40/100 (40.0%)
8 tests: 1 fixed, 1 rarer, 2 unchanged, 1 worse, 1 new, 1 inconclusive, 1 not run
TXT
diff -u want out || fail "text"
[ ! -s err ] || fail "stderr: $(cat err)"

rc=0; "$FLAKESWEEP" compare --json before after.json >out.json || rc=$?
[ "$rc" = 1 ] || fail "--json exit $rc, expected 1"
python3 - out.json "$CHECK_SRCDIR/tests/golden/compare/compare.json" <<'PY'
import json, sys
def rounded(v):
    if isinstance(v, float):
        return round(v, 6)
    if isinstance(v, dict):
        return {k: rounded(x) for k, x in v.items()}
    if isinstance(v, list):
        return [rounded(x) for x in v]
    return v
got = rounded(json.load(open(sys.argv[1])))
want = json.load(open(sys.argv[2]))
if got != want:
    print(json.dumps(got, indent=1, sort_keys=True))
    sys.exit("FAIL: JSON differs from the golden file")
PY

# --test: 0 only when every named test is fixed.
rc=0; "$FLAKESWEEP" compare before after.json --test p::TestFixed >out || rc=$?
[ "$rc" = 0 ] || fail "--test fixed: exit $rc"
rc=0; "$FLAKESWEEP" compare before after.json --test p::TestFixed --test p::Test15of20 >out || rc=$?
[ "$rc" = 1 ] || fail "--test fixed and inconclusive: exit $rc"
[ "$(tail -1 out)" = "2 tests: 1 fixed, 0 rarer, 0 unchanged, 0 worse, 0 new, 1 inconclusive" ] ||
	fail "--test summary: $(tail -1 out)"
rc=0; "$FLAKESWEEP" compare before after.json --test p::TestNone >out || rc=$?
[ "$rc" = 1 ] || fail "--test unknown: exit $rc"
grep -q '^missing      p::TestNone: in neither results$' out || fail "missing line: $(cat out)"
# A file whose name ends like an option is a file.
cp after.json xtest
rc=0; "$FLAKESWEEP" compare before xtest >out || rc=$?
[ "$rc" = 1 ] || fail "compare before xtest: exit $rc"
diff -u want out || fail "compare before xtest"
# Nothing worse or new: 0 without --test.
rc=0; "$FLAKESWEEP" compare before before >out || rc=$?
[ "$rc" = 0 ] || fail "before against itself: exit $rc"
# A level the user sets: 1% makes TestFixed only rarer (its upper bound is 1.9%).
rc=0; "$FLAKESWEEP" compare before after.json --level 0.01 --test p::TestFixed >out || rc=$?
[ "$rc" = 1 ] || fail "--level 0.01: exit $rc"
grep -q '^rarer        p::TestFixed ' out || fail "--level 0.01: $(cat out)"

# An after that ran none of before's tests (no tests at all, or only tests
# of other ids) fails, and calls every test of before not run.
python3 - <<'PY'
import json
r = json.load(open("after.json"))
r["tests"] = []
json.dump(r, open("empty.json", "w"))
r = json.load(open("after.json"))
for t in r["tests"]:
    t["id"] = "q::" + t["test"]
    t["package"] = "q"
json.dump(r, open("other.json", "w"))
PY
for a in empty.json other.json; do
	rc=0; "$FLAKESWEEP" compare before $a >out 2>err || rc=$?
	[ "$rc" = 2 ] || fail "after $a: exit $rc, expected 2"
	grep -qx "flakesweep: $a ran none of the 8 tests of before" err || fail "after $a: $(cat err)"
	grep -q '^\(unchanged\|inconclusive\) *p::' out && fail "after $a: a test after never ran is judged: $(cat out)"
	[ "$(grep -c '^not run      p::' out)" = 8 ] || fail "after $a: not every test of before is not run: $(cat out)"
	rc=0; "$FLAKESWEEP" compare --json before $a >out 2>err || rc=$?
	[ "$rc" = 2 ] || fail "after $a --json: exit $rc, expected 2"
done

# Bad input.
bad() {
	local want=$1; shift
	rc=0; "$FLAKESWEEP" compare "$@" >out 2>err || rc=$?
	[ "$rc" = 2 ] || fail "$*: exit $rc, expected 2"
	grep -qF -- "$want" err || fail "$*: error '$(cat err)' lacks '$want'"
}
bad "nosuch.json" before nosuch.json
echo '{"schema": "flakesweep/results/v1", "tests": [{"id": "p::T", "cells": [7]}]}' >bad.json
bad "bad.json:1: tests[0].package: expected a string" before bad.json
printf '{"type":"header","schema":"flakesweep/journal/v1"}\n{"type":"phase","phase":"sweep"}\n' >journal.jsonl
bad "journal.jsonl is a sweep's journal: give its results.json, or the directory that holds them" before journal.jsonl
# A cell repeated (same phase, cpu and load) is refused as a repeated test
# is, never summed.
python3 - <<'PY'
import json
r = json.load(open("after.json"))
cells = r["tests"][1]["cells"]
cells.append(dict(cells[0], runs=7, failures=1))
json.dump(r, open("dupcell.json", "w"), indent=1)
PY
bad "dupcell.json:34: tests[1].cells[1]: repeats the cell at phase sweep, cpu 1, load 1 (cells[0])" before dupcell.json
bad "dupcell.json:34: tests[1].cells[1]: repeats" dupcell.json after.json
python3 - <<'PY'
import json
r = json.load(open("after.json"))
cells = r["tests"][1]["cells"]
cells.append(dict(cells[0], phase="confirm", runs=7, failures=1))
json.dump(r, open("confirmcell.json", "w"), indent=1)
PY
rc=0; "$FLAKESWEEP" compare before confirmcell.json >out 2>err || rc=$?
[ "$rc" = 1 ] || fail "a confirm cell at a sweep cell's pair: exit $rc: $(cat err)"
# A test with no cells on either side has no pair to sort or judge.
python3 - <<'PY'
import json
r = json.load(open("after.json"))
r["tests"][0]["cells"] = []
json.dump(r, open("nocells.json", "w"), indent=1)
PY
rc=0; "$FLAKESWEEP" compare nocells.json nocells.json >out 2>err || rc=$?
[ "$rc" = 0 ] && [ ! -s err ] || fail "a test without cells: exit $rc: $(cat err)"
bad "--level 2: expected a number above 0, at most 1" before after.json --level 2
bad "usage: flakesweep compare BEFORE AFTER" before
bad "--ui tui: expected full or line" before after.json --ui tui

# --ui full without a terminal: says so and prints the text (ui-tmux.sh
# drives the board itself).
rc=0; "$FLAKESWEEP" compare before after.json --ui full >out 2>err </dev/null || rc=$?
[ "$rc" = 1 ] || fail "--ui full without a terminal: exit $rc"
diff -u want out || fail "--ui full without a terminal: text"
grep -q '^flakesweep: no dashboard (.*); printing text$' err || fail "--ui full: $(cat err)"
echo ok
