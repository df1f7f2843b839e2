#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# verify counts only runs of the test it verifies. Before: TestRace of the
# TAP command "sh t.sh" failed every seventh run. A verify whose command is
# another one ("sh other.sh", which has a TestRace of its own, or "sh
# zeta.sh", which has none) never ran the test: exit 2, naming the test
# and what ran instead, never "fixed". Results of a TAP sweep verified
# without --driver tap: exit 2 saying which driver to give.
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
printf '#!/bin/sh\necho "1..1"\nif [ $((FLAKESWEEP_RUN %% 7)) = 0 ]; then echo "not ok 1 - TestRace"; else echo "ok 1 - TestRace"; fi\n' >t.sh
printf '#!/bin/sh\necho "1..1"\necho "ok 1 - TestRace"\n' >other.sh
printf '#!/bin/sh\necho "1..1"\necho "ok 1 - zeta"\n' >zeta.sh
"$FLAKESWEEP" --cpu 1 --load 1 --count 50 --confirm 0 --ui none -o before \
	--driver tap -- sh t.sh >/dev/null 2>&1 || true
vf() { "$FLAKESWEEP" verify --test 'sh t.sh::TestRace' --results before "$@"; }

rc=0; vf -o v-other --driver tap -- sh other.sh >out 2>err || rc=$?
cat out err
[ "$rc" = 2 ] || fail "another command's TestRace: exit $rc, expected 2"
grep -q 'says fixed' out && fail "another command's runs called the test fixed"
grep -qF "no run of sh t.sh::TestRace at cpu 1 load 1: the runs ran sh other.sh::TestRace" err ||
	fail "the error does not name the test and what ran: $(cat err)"

rc=0; vf -o v-zeta --driver tap -- sh zeta.sh >out 2>err || rc=$?
cat out err
[ "$rc" = 2 ] || fail "a command without the test: exit $rc, expected 2"
grep -qF "no run of sh t.sh::TestRace at cpu 1 load 1: the runs ran sh zeta.sh::zeta" err ||
	fail "zeta: the error does not name the test and what ran: $(cat err)"

rc=0; vf -o v-nodriver >out 2>err || rc=$?
cat out err
[ "$rc" = 2 ] || fail "no --driver: exit $rc, expected 2"
grep -qF "the results are a tap sweep: give --driver tap -- COMMAND" err ||
	fail "no --driver: $(cat err)"
grep -q 'go list' err && fail "no --driver: go was run on a tap sweep's results"
[ ! -e v-nodriver ] || fail "no --driver: a refused verify wrote its directory"
echo "ok: runs of other tests are not counted"
