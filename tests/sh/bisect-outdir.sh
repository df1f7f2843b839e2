#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# bisect without -o picks its directory under flakesweep-out/ from the
# test and the good and bad commits, and says which: the same command run
# again finds it and takes the commits judged there from their journals,
# whatever names the commits; another test or another range gets another
# directory. git ignores flakesweep-out/, as it does a sweep's. The
# repository: 8 commits of a TAP test that fails on every run from commit
# 5 on (bisect-repo.sh).
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
bash "$CHECK_SRCDIR/tests/fixtures/seq/bisect-repo.sh" repo 8 5
cd repo
bs() { "$FLAKESWEEP" bisect --timeout 10s --level 0.01 "$@" --driver tap -- sh t.sh; }
dir() { sed -n 's/^flakesweep: bisect journals in \(.*\)$/\1/p' "$1"; }

rc=0; bs --test 'sh t.sh::TestRace' --good c1 --bad c8 >../out 2>../err || rc=$?
cat ../out ../err
[ "$rc" = 0 ] || fail "bisect without -o: exit $rc, expected 0"
grep -q "^first bad commit: $(git rev-parse c5) commit 5\$" ../out || fail "first bad commit"
d=$(dir ../err)
case "$d" in flakesweep-out/bisect-*) ;; *) fail "directory: '$d'" ;; esac
[ "$(ls "$d/commits" | wc -l)" = 3 ] || fail "records in $d: $(ls "$d/commits")"
[ "$(ls flakesweep-out | wc -l)" = 1 ] || fail "flakesweep-out: $(ls flakesweep-out)"
[ -z "$(git status --porcelain)" ] || fail "flakesweep-out is not ignored: $(git status --porcelain)"

# Again, the commits named otherwise: the same directory, every commit
# from its record.
rc=0; bs --test 'sh t.sh::TestRace' --good c1~0 --bad "$(git rev-parse c8)" >../out2 2>../err2 ||
	rc=$?
[ "$rc" = 0 ] || fail "bisect run again: exit $rc"
[ "$(dir ../err2)" = "$d" ] || fail "another directory: $(dir ../err2), expected $d"
[ "$(grep -c 'from its journal' ../err2)" = 3 ] || fail "not resumed: $(cat ../err2)"
cmp ../out ../out2 || fail "the resumed bisect differs"

# Another range, another test: other directories.
rc=0; bs --test 'sh t.sh::TestRace' --good c2 --bad c8 >/dev/null 2>../err3 || rc=$?
[ "$rc" = 0 ] || fail "bisect from c2: exit $rc"
[ -n "$(dir ../err3)" ] && [ "$(dir ../err3)" != "$d" ] || fail "c2..c8 in $(dir ../err3)"
rc=0; bs --test 'sh t.sh::TestNope' --good c1 --bad c8 >/dev/null 2>../err4 || rc=$?
[ -n "$(dir ../err4)" ] && [ "$(dir ../err4)" != "$d" ] || fail "TestNope in $(dir ../err4)"
[ "$(ls flakesweep-out | wc -l)" = 3 ] || fail "flakesweep-out: $(ls flakesweep-out)"
echo "ok"
