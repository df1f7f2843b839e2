#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# A signal that comes between two probes of a bisect (here while git adds
# the third probe's worktree, when no sweep is running) stops it as a
# signal in a probe does: exit 130, no worktree left, the two judged
# commits keep their journals, and the same bisect run again takes them
# from there and names the first bad commit. The repository: 8 commits of
# a TAP test that fails on every run from commit 5 on (bisect-repo.sh).
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
bash "$CHECK_SRCDIR/tests/fixtures/seq/bisect-repo.sh" repo 8 5
cd repo

# A git that sends SIGTERM to flakesweep when asked for the third
# worktree: between the second probe and the third.
real_git=$(command -v git)
mkdir ../bin
cat >../bin/git <<SH
#!/bin/sh
case "\$*" in
*"worktree add"*)
	n=\$(cat "$CHECK_TMPDIR/adds" 2>/dev/null || echo 0)
	n=\$((n + 1))
	echo \$n >"$CHECK_TMPDIR/adds"
	[ \$n = 3 ] && [ -n "\${KILL_AT_THIRD:-}" ] && kill -TERM \$(cat "$CHECK_TMPDIR/pid")
	;;
esac
exec "$real_git" "\$@"
SH
chmod +x ../bin/git

args=(bisect --test 'sh t.sh::TestRace' --timeout 10s --level 0.01 --good c1 --bad c8 -o ../b
	--driver tap -- sh t.sh)
bs() { "$FLAKESWEEP" "${args[@]}"; }
# exec: the signal goes to flakesweep itself, not to a shell around it.
(PATH="$CHECK_TMPDIR/bin:$PATH" KILL_AT_THIRD=1 exec "$FLAKESWEEP" "${args[@]}") >../out 2>../err &
echo $! >../pid
rc=0; wait $! || rc=$?
cat ../err
[ "$rc" = 130 ] || fail "a signal between probes: exit $rc, expected 130"
[ "$(cat ../adds)" = 3 ] || fail "worktrees added: $(cat ../adds), expected 3"
[ "$(ls ../b/commits | wc -l)" = 2 ] || fail "journals after the signal: $(ls ../b/commits)"
[ "$(git worktree list | wc -l)" = 1 ] || fail "worktrees left: $(git worktree list)"

rc=0; bs >../out 2>../err || rc=$?
cat ../out ../err
[ "$rc" = 0 ] || fail "bisect after the signal: exit $rc"
[ "$(grep -c 'from its journal' ../err)" = 2 ] || fail "not resumed: $(cat ../err)"
grep -q "^first bad commit: $(git rev-parse c5) commit 5\$" ../out || fail "first bad commit"
echo "ok"
