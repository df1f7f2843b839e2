#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# bisect refuses what it cannot bisect, with exit 2 and a message that
# says why, and hands git nothing it could take as an option: a revision
# that starts with '-' (here one that would have git write over a file
# with --output), good and bad that are the same commit, and a test that
# no commit of the range has (but one that only the bad commit has is
# found there). The repository: 8 commits of a TAP test
# that fails on every run from commit 5 on (bisect-repo.sh).
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
bash "$CHECK_SRCDIR/tests/fixtures/seq/bisect-repo.sh" repo 8 5
cd repo
bs() { "$FLAKESWEEP" bisect --timeout 10s --level 0.01 "$@" --driver tap -- sh t.sh; }

# A revision is a revision, never an option: the victim stays as it was,
# whichever way the option is spelled and whichever revision it is.
echo keep >../victim
n=0
for args in "--good=--output=$CHECK_TMPDIR/victim --bad c8" \
	"--good --output=$CHECK_TMPDIR/victim --bad c8" \
	"--good c1 --bad=--output=$CHECK_TMPDIR/victim"; do
	n=$((n + 1))
	# shellcheck disable=SC2086
	rc=0; bs --test 'sh t.sh::TestRace' $args -o ../b$n >../out 2>../err || rc=$?
	cat ../err
	[ "$(cat ../victim)" = keep ] || fail "$args: the victim was overwritten: $(cat ../victim)"
	[ "$rc" = 2 ] || fail "$args: exit $rc, expected 2"
	grep -q -- "--output=$CHECK_TMPDIR/victim.*starts with '-'" ../err ||
		fail "$args: the message does not refuse the revision: $(cat ../err)"
	[ ! -e ../b$n/worktrees ] || fail "$args: a worktree was made"
done

# good and bad are the same commit, whatever names them.
for pair in "c3 c3" "HEAD c8" "c8 HEAD~0"; do
	set -- $pair
	rc=0; bs --test 'sh t.sh::TestRace' --good "$1" --bad "$2" -o ../same >../out 2>../err || rc=$?
	cat ../err
	[ "$rc" = 2 ] || fail "good $1 bad $2: exit $rc, expected 2"
	grep -q "good and bad are the same commit" ../err || fail "good $1 bad $2: $(cat ../err)"
done

# A test no commit has is named, and said never found.
rc=0; bs --test 'sh t.sh::TestNope' --good c1 --bad c8 -o ../nope >../out 2>../err || rc=$?
cat ../out ../err
[ "$rc" = 2 ] || fail "a test no commit has: exit $rc, expected 2"
grep -q "TestNope.*never found" ../err || fail "the test is not said never found: $(cat ../err)"
# Run again, from the records: the same answer.
rc=0; bs --test 'sh t.sh::TestNope' --good c1 --bad c8 -o ../nope >../out 2>../err || rc=$?
[ "$rc" = 2 ] || fail "a test no commit has, from the records: exit $rc, expected 2"
grep -q "TestNope.*never found" ../err || fail "from the records: $(cat ../err)"

# A test of the same name in another package (another command here) is not
# the test: its runs are not counted, so the test is never found.
rc=0; bs --test 'sh other.sh::TestRace' --good c1 --bad c8 -o ../other >../out 2>../err || rc=$?
cat ../out ../err
[ "$rc" = 2 ] || fail "another package's same-named test: exit $rc, expected 2"
grep -q "never found" ../err || fail "another package's test is not said never found: $(cat ../err)"

# A test that the bad commit adds is found there: the commits before it
# lack it, so the evidence cannot separate them (exit 1), as before.
cd .. && mkdir added && cd added && git init -q .
for i in 1 2 3 4; do
	printf '#!/bin/sh\necho "1..1"\necho "ok 1 - TestOther"\n' >t.sh
	[ "$i" = 4 ] && printf '#!/bin/sh\necho "1..2"\necho "ok 1 - TestOther"\necho "not ok 2 - TestRace"\n' >t.sh
	echo "$i" >version
	git add t.sh version
	git -c user.name=t -c user.email=t@example.com commit -q -m "commit $i"
	git tag "c$i"
done
rc=0; bs --test 'sh t.sh::TestRace' --good c1 --bad c4 -o ../added-out >../out 2>../err || rc=$?
cat ../out ../err
[ "$rc" = 1 ] || fail "a test the bad commit adds: exit $rc, expected 1"
grep -q "never found" ../err && fail "a test the bad commit adds is said never found"
grep -q '^the evidence cannot separate' ../out || fail "a test the bad commit adds: $(cat ../out)"

# A commit whose sweep cannot even start (here the Go driver, in a tree
# with no go.mod) is skipped, and its line says why; so it does when read
# back from its record.
cd "$CHECK_TMPDIR/repo"
for pass in 1 2; do
	rc=0
	"$FLAKESWEEP" bisect --timeout 10s --level 0.01 --test 'example.com/x::TestRace' \
		--good c1 --bad c8 -o ../nomod >../out 2>../err || rc=$?
	grep -q '^flakesweep: [0-9a-f]\{12\} skipped: .*no Go module' ../err ||
		fail "pass $pass: a skipped commit says no why: $(cat ../err)"
done
grep -q '"why": *".*no Go module' ../nomod/commits/*.json || fail "the record keeps no why"

# git never sees the GitHub token (bisect's own git children, as every
# child of a sweep): a git earlier on PATH notes its environment.
mkdir -p "$CHECK_TMPDIR/wrap"
real=$(command -v git)
printf '#!/bin/sh\nenv >>"%s/git.env"\nexec "%s" "$@"\n' "$CHECK_TMPDIR" "$real" \
	>"$CHECK_TMPDIR/wrap/git"
chmod +x "$CHECK_TMPDIR/wrap/git"
rc=0
PATH="$CHECK_TMPDIR/wrap:$PATH" GH_TOKEN=ghp_BISECTSECRET1 GITHUB_TOKEN=ghp_BISECTSECRET2 \
	bs --test 'sh t.sh::TestRace' --good c1 --bad c8 -o ../tokens >../out 2>../err || rc=$?
[ -s "$CHECK_TMPDIR/git.env" ] || fail "the wrapper saw no git run: $(cat ../err)"
grep -q PATH= "$CHECK_TMPDIR/git.env" || fail "the wrapper noted no environment"
if grep -q BISECTSECRET "$CHECK_TMPDIR/git.env"; then
	fail "git saw the GitHub token"
fi
echo "ok"
