#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# verify on a TAP fixture whose TestRace failed 7 of 50 runs at cpu 1
# (every seventh run id) and never at cpu 2: it runs the test alone at
# cpu 1 load 1 through the sweep engine and stops as soon as Wald's test
# decides. Fixed: 46 passing runs, where compare's fixed-count design
# needs 549 to call it fixed (compare says rarer after the 46). Not fixed: runs 7 and 14 fail and it stops at 14. A budget
# below 46 leaves it undecided. Each ends with verify's own verdict line,
# after compare's. Bad input is exit 2 naming the file.
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
flaky() {
	printf '#!/bin/sh\necho "1..1"\nif [ "$FLAKESWEEP_CPU" = 1 ] && [ $((FLAKESWEEP_RUN %% 7)) = 0 ]; then echo "not ok 1 - TestRace"; else echo "ok 1 - TestRace"; fi\n' >t.sh
}
fixed() { printf '#!/bin/sh\necho "1..1"\necho "ok 1 - TestRace"\n' >t.sh; }
flaky
"$FLAKESWEEP" --cpu 1 --load 1 --count 50 --confirm 0 --ui none -o before \
	--driver tap -- sh t.sh >/dev/null 2>&1 || true
python3 "$CHECK_SRCDIR/tests/fixtures/seq/add-pair.py" before 2 1 50
vf() { "$FLAKESWEEP" verify --test 'sh t.sh::TestRace' --results before "$@" --driver tap -- sh t.sh; }

fixed
rc=0; vf -o v-fixed >out 2>err || rc=$?
cat out err
[ "$rc" = 0 ] || fail "fixed: exit $rc, expected 0"
cat >want <<'TXT'
verify at cpu 1 load 1: 46 runs, 0 failed; the sequential test says fixed (rate 0.06951 not fixed against 0.006951 fixed; a fixed-count design needs 549)
rarer        sh t.sh::TestRace at cpu 1 load 1: before 7/50 (14.0%), after 0/46 (0.0%)
1 test: 0 fixed, 1 rarer, 0 unchanged, 0 worse, 0 new, 0 inconclusive
verify: sh t.sh::TestRace fixed at cpu 1 load 1 (exit 0)
TXT
# A run of a later id that finished before the decision is counted in the
# results too (never fed to the test): after may hold a run or two more.
sed -E 's#after 0/4[6-9] #after 0/46 #' out >got
diff -u want got || fail "fixed output"
python3 - v-fixed <<'PY'
import json, sys
d = json.load(open(sys.argv[1] + "/results.json"))
assert d["status"] == "complete", d["status"]
assert d["config"]["cpu"] == [1] and d["config"]["load"] == [1], d["config"]
t = [t for t in d["tests"] if t["test"] == "TestRace"][0]
runs = sum(c["runs"] for c in t["cells"])
assert runs >= 46, runs  # runs finished past the decision are kept, never fewer
PY

flaky
rc=0; vf -o v-flaky >out 2>err || rc=$?
cat out
[ "$rc" = 1 ] || fail "not fixed: exit $rc, expected 1"
grep -q '^verify at cpu 1 load 1: 14 runs, 2 failed; the sequential test says not fixed' out ||
	fail "not fixed output"
[ "$(tail -1 out)" = 'verify: sh t.sh::TestRace not fixed at cpu 1 load 1 (exit 1)' ] ||
	fail "not fixed: the last line is $(tail -1 out)"

fixed
rc=0; vf -o v-budget --budget 20 >out 2>err || rc=$?
[ "$rc" = 1 ] || fail "budget: exit $rc, expected 1"
grep -q '^verify at cpu 1 load 1: 20 runs, 0 failed; the sequential test did not decide within the budget' out ||
	fail "budget output: $(cat out)"
[ "$(tail -1 out)" = 'verify: sh t.sh::TestRace undecided at cpu 1 load 1 after 20 runs: the budget is spent (exit 1)' ] ||
	fail "budget: the last line is $(tail -1 out)"

rc=0; "$FLAKESWEEP" verify --test 'sh t.sh::TestRace' --results nosuch.json -o v-bad \
	--driver tap -- sh t.sh >out 2>err || rc=$?
[ "$rc" = 2 ] || fail "missing results: exit $rc"
grep -q 'nosuch.json' err || fail "the error does not name the file: $(cat err)"
rc=0; vf --test 'sh t.sh::TestNone' -o v-bad2 >out 2>err || rc=$?
[ "$rc" = 2 ] || fail "unknown test: exit $rc"
grep -q 'no test sh t.sh::TestNone' err || fail "unknown test message: $(cat err)"
echo ok
