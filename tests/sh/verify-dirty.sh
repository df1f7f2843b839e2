#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# verify in a git checkout whose tracked t.sh is edited and not committed:
# it warns that the tree differs from the commit (so the runs measure the
# edit, not the commit) and records "dirty": true in the project object of
# its results. Once the edit is committed: no warning, no field. A tracked
# file deleted, with the index in git's version 4 (paths compressed), is a
# difference too; one only meant to be added (git add -N) is not.
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
command -v git >/dev/null || { echo "SKIP no git"; exit 77; }
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
flaky() {
	printf '#!/bin/sh\necho "1..1"\nif [ $((FLAKESWEEP_RUN %% 2)) = 0 ]; then echo "not ok 1 - TestRace"; else echo "ok 1 - TestRace"; fi\n' >t.sh
}
fixed() { printf '#!/bin/sh\necho "1..1"\necho "ok 1 - TestRace"\n' >t.sh; }
dirty() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]+"/results.json"))["project"].get("dirty"))' "$1"; }
mkdir repo
cd repo
git init -q .
flaky
echo data >other
git add t.sh other
git commit -q -m flaky
"$FLAKESWEEP" --cpu 1 --load 1 --count 20 --confirm 0 --ui none -o ../before \
	--driver tap -- sh t.sh >/dev/null 2>&1 || true
vf() { "$FLAKESWEEP" verify --test 'sh t.sh::TestRace' --results ../before "$@" --driver tap -- sh t.sh; }

fixed
head=$(git rev-parse HEAD | cut -c1-12)
rc=0; vf -o ../v-dirty >../out 2>../err || rc=$?
cat ../out ../err
[ "$rc" = 0 ] || fail "dirty: exit $rc, expected 0"
grep -qF "flakesweep: the tree differs from commit $head (t.sh changed): verify measures your uncommitted edit" ../err ||
	fail "no warning about the edited tree"
[ "$(dirty ../v-dirty)" = True ] || fail "dirty not recorded: $(dirty ../v-dirty)"

git commit -q -am fixed
# A file added with git add -N (an extended entry: index version 3) is not
# yet the commit's, as an untracked one is not.
echo new >new
git add -N new
rc=0; vf -o ../v-clean >../out 2>../err || rc=$?
[ "$rc" = 0 ] || fail "clean: exit $rc, expected 0"
! grep -q 'differs from commit' ../err || fail "a committed tree called different: $(cat ../err)"
[ "$(dirty ../v-clean)" = None ] || fail "clean tree recorded dirty: $(dirty ../v-clean)"

git update-index --index-version 4
rm other
rc=0; vf -o ../v-v4 >../out 2>../err || rc=$?
[ "$rc" = 0 ] || fail "deleted: exit $rc, expected 0"
grep -qF "(other changed)" ../err || fail "a deleted file under index version 4: $(cat ../err)"
[ "$(dirty ../v-v4)" = True ] || fail "deleted file not recorded: $(dirty ../v-v4)"
echo ok
