#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 150
# verify at every pair where the test failed, worst first. Before: TestRace
# failed 7 of 50 runs at cpu 1 (every seventh run id) and 10 of 50 at cpu
# 2, so cpu 2 (Wilson lower bound 0.112) comes before cpu 1 (0.0695), and
# each pair's sequential test has beta 0.05/2. Fixed everywhere: both pairs
# say fixed, exit 0. Fixed only at cpu 2: cpu 2 says fixed, then cpu 1 not
# fixed, exit 1. Not fixed at cpu 2 (every fifth run): it stops there and
# never runs cpu 1. verify's verdict line comes last.
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
script() {
	printf '#!/bin/sh\necho "1..1"\nif %s; then echo "not ok 1 - TestRace"; else echo "ok 1 - TestRace"; fi\n' "$1" >t.sh
}
script '[ "$FLAKESWEEP_CPU" = 1 ] && [ $((FLAKESWEEP_RUN % 7)) = 0 ]'
"$FLAKESWEEP" --cpu 1 --load 1 --count 50 --confirm 0 --ui none -o before \
	--driver tap -- sh t.sh >/dev/null 2>&1 || true
python3 "$CHECK_SRCDIR/tests/fixtures/seq/add-pair.py" before 2 1 50 10 TestRace
vf() { "$FLAKESWEEP" verify --test 'sh t.sh::TestRace' --results before "$@" --driver tap -- sh t.sh; }
# A run of a later id that finished before the decision is counted in the
# results too (never fed to the test): after may hold a run or two more.
after() { sed -E 's#after 0/(2[89]|3[01]) #after 0/28 #; s#after 0/(4[6-9]) #after 0/46 #' "$@"; }

script false
rc=0; vf -o v-fixed >out 2>err || rc=$?
cat out err
[ "$rc" = 0 ] || fail "fixed: exit $rc, expected 0"
cat >want <<'TXT'
verify at cpu 2 load 1: 28 runs, 0 failed; the sequential test says fixed (rate 0.1124 not fixed against 0.01124 fixed; a fixed-count design needs 338)
verify at cpu 1 load 1: 46 runs, 0 failed; the sequential test says fixed (rate 0.06951 not fixed against 0.006951 fixed; a fixed-count design needs 549)
rarer        sh t.sh::TestRace at cpu 2 load 1: before 10/50 (20.0%), after 0/28 (0.0%)
1 test: 0 fixed, 1 rarer, 0 unchanged, 0 worse, 0 new, 0 inconclusive
verify: sh t.sh::TestRace fixed at all 2 pairs (exit 0)
TXT
after out >got
diff -u want got || fail "fixed output"
[ -f v-fixed/cpu-2-load-1/results.json ] && [ -f v-fixed/cpu-1-load-1/results.json ] ||
	fail "no results per pair: $(ls v-fixed)"
# Without -o the pairs share one new directory: two default ones made in
# the same second would collide.
rc=0; vf >out 2>err || rc=$?
[ "$rc" = 0 ] || fail "fixed without -o: exit $rc: $(cat err)"
[ "$(ls flakesweep-out | wc -l)" = 1 ] || fail "without -o: $(ls flakesweep-out)"
[ "$(ls flakesweep-out/*)" = "$(printf 'cpu-1-load-1\ncpu-2-load-1')" ] ||
	fail "without -o: $(ls flakesweep-out/*)"

script '[ "$FLAKESWEEP_CPU" = 1 ] && [ $((FLAKESWEEP_RUN % 7)) = 0 ]'
rc=0; vf -o v-half >out 2>err || rc=$?
cat out err
[ "$rc" = 1 ] || fail "fixed at one pair only: exit $rc, expected 1"
cat >want <<'TXT'
verify at cpu 2 load 1: 28 runs, 0 failed; the sequential test says fixed (rate 0.1124 not fixed against 0.01124 fixed; a fixed-count design needs 338)
verify at cpu 1 load 1: 14 runs, 2 failed; the sequential test says not fixed (rate 0.06951 not fixed against 0.006951 fixed; a fixed-count design needs 549)
TXT
head -2 out >got
diff -u want got || fail "fixed at one pair only: output"
[ "$(tail -1 out)" = 'verify: sh t.sh::TestRace not fixed at cpu 1 load 1 (exit 1)' ] ||
	fail "fixed at one pair only: the last line is $(tail -1 out)"

script '[ "$FLAKESWEEP_CPU" = 2 ] && [ $((FLAKESWEEP_RUN % 5)) = 0 ]'
rc=0; vf -o v-worst >out 2>err || rc=$?
cat out err
[ "$rc" = 1 ] || fail "not fixed at the worst pair: exit $rc, expected 1"
[ "$(grep -c '^verify at' out)" = 1 ] || fail "ran past the pair that said not fixed"
grep -q '^verify at cpu 2 load 1: 10 runs, 2 failed; the sequential test says not fixed' out ||
	fail "not fixed at cpu 2: $(cat out)"
[ ! -e v-worst/cpu-1-load-1 ] || fail "cpu 1 ran after cpu 2 said not fixed"
[ "$(tail -1 out)" = 'verify: sh t.sh::TestRace not fixed at cpu 2 load 1 (exit 1)' ] ||
	fail "not fixed at the worst pair: the last line is $(tail -1 out)"
echo ok
