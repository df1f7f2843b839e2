#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# verify checks results of the project it runs in only (flakesweep(1),
# PROJECT IDENTITY). Results swept in a checkout whose origin is
# o/flakycheck: a copy of that checkout at another path verifies them; a
# checkout of another origin is refused (exit 2, naming both origins),
# before any run and without an output directory.
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
checkout() {
	mkdir "$1"
	printf '#!/bin/sh\necho "1..1"\nif [ $((FLAKESWEEP_RUN %% 7)) = 0 ]; then echo "not ok 1 - TestRace"; else echo "ok 1 - TestRace"; fi\n' >"$1/t.sh"
	git -C "$1" init -q
	git -C "$1" remote add origin "$2"
	git -C "$1" add t.sh
	git -C "$1" -c user.name=t -c user.email=t@example.com commit -qm "$1"
}
checkout proj git@example.com:o/flakycheck.git
checkout demo git@example.com:o/demo.git
(cd proj && "$FLAKESWEEP" --cpu 1 --load 1 --count 50 --confirm 0 --ui none -o ../before \
	--driver tap -- sh t.sh >/dev/null 2>&1) || true
[ -f before/results.json ] || fail "no results to verify"
cp -a proj copy
top=$PWD
vf() { "$FLAKESWEEP" verify --test 'sh t.sh::TestRace' --results "$top/before" \
	--budget 40 -o "$top/$1" --driver tap -- sh t.sh; }

rc=0; (cd copy && vf v-copy) >out 2>err || rc=$?
cat out err
[ "$rc" != 2 ] || fail "a copy of the checkout at another path: exit 2"
grep -q 'different project\|another project' err && fail "a copy called another project"
grep -q '^verify: sh t.sh::TestRace' out || fail "a copy: no verdict"

rc=0; (cd demo && vf v-demo) >out 2>err || rc=$?
cat out err
[ "$rc" = 2 ] || fail "another project's results: exit $rc, expected 2"
grep -qxF "flakesweep: $PWD/before is of another project than $(pwd -P)/demo: origin git@example.com:o/flakycheck.git vs git@example.com:o/demo.git" err ||
	fail "another project's results: $(cat err)"
[ ! -e v-demo ] || fail "a refused verify wrote its directory"
echo "ok: a copy verifies; another project's results are refused"
