#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# bisect on a generated git repository of 16 commits whose TAP test
# TestRace starts failing at commit 11, at cpu 1 only, on every seventh run
# (FLAKESWEEP_RUN % 7 == 0: a rate of 1/7, exact per run id). Commit 12
# lacks the test and is skipped. The worst pair comes from a sweep of the
# bad commit at cpu 1 and 2. bisect names commit 11 with the runs at each
# probed commit, resumes from its journals, never touches the user's tree,
# resumes after an interrupt, and with a budget too small for the flake says it cannot separate.
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@example.com GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' \
	GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
mkdir repo && cd repo
git init -q .
for i in $(seq 1 16); do
	if [ "$i" = 12 ]; then
		printf '#!/bin/sh\n${T_SLEEP:+sleep $T_SLEEP}\necho "1..1"\necho "ok 1 - TestOther"\n' >t.sh
	else
		cond=false
		[ "$i" -ge 11 ] && cond='[ "$FLAKESWEEP_CPU" = 1 ] && [ $((FLAKESWEEP_RUN % 7)) = 0 ]'
		printf '#!/bin/sh\n${T_SLEEP:+sleep $T_SLEEP}\necho "1..2"\necho "ok 1 - TestOther"\nif %s; then echo "not ok 2 - TestRace"; else echo "ok 2 - TestRace"; fi\n' "$cond" >t.sh
	fi
	echo "$i" >version
	git add t.sh version
	git commit -q -m "commit $i"
	git tag "c$i"
done
echo "local change" >>version
before_status=$(git status --porcelain)

# The sweep of the bad commit: 7/50 at cpu 1, 0/50 at cpu 2.
"$FLAKESWEEP" --cpu 1 --load 1 --count 50 --confirm 0 --ui none -o ../bad \
	--driver tap -- sh t.sh >/dev/null 2>&1 || true
python3 "$CHECK_SRCDIR/tests/fixtures/seq/add-pair.py" ../bad 2 1 50
bs() { "$FLAKESWEEP" bisect --test 'sh t.sh::TestRace' --timeout 10s "$@" --driver tap -- sh t.sh; }

rc=0; bs --good c1 --bad c16 --results ../bad -o ../b1 >../out 2>../err || rc=$?
cat ../out ../err
[ "$rc" = 0 ] || fail "bisect exit $rc, expected 0"
# p0 = Wilson lower bound of 7/50 (0.0695), p1 a tenth of it: a clean
# commit takes 46 passing runs, a flaky one fails at runs 7 and 14.
strip() { sed -E 's/ [0-9a-f]{12} / SHA /; s/^(first bad commit:) [0-9a-f]{40}/\1 SHA/'; }
strip <../out >../got
cat >../want <<'TXT'
clean     SHA 0/46 (0.0%)  commit 8
clean     SHA 0/46 (0.0%)  commit 10
flaky     SHA 2/14 (14.3%)  commit 11
skipped   SHA 0/0  commit 12
flaky     SHA 2/14 (14.3%)  commit 13
first bad commit: SHA commit 11
TXT
diff -u ../want ../got || fail "bisect result"
[ "$(git rev-parse c11)" = "$(sed -n 's/^first bad commit: \([0-9a-f]*\) .*/\1/p' ../out)" ] ||
	fail "first bad commit is not c11"
[ "$(git status --porcelain)" = "$before_status" ] || fail "the user's tree changed"
[ "$(git worktree list | wc -l)" = 1 ] || fail "worktrees left: $(git worktree list)"
[ "$(ls ../b1/commits | wc -l)" = 5 ] || fail "journals: $(ls ../b1/commits)"

# Run again: every commit comes from its journal, no run is made.
rc=0; bs --good c1 --bad c16 --results ../bad -o ../b1 >../out2 2>../err2 || rc=$?
[ "$rc" = 0 ] || fail "resumed bisect exit $rc"
cmp ../out ../out2 || fail "the resumed bisect differs"
[ "$(grep -c 'from its journal' ../err2)" = 5 ] || fail "not resumed: $(cat ../err2)"

# Interrupted (SIGTERM: a background job ignores SIGINT) in the third
# probe, slowed down by T_SLEEP: exit 130, its worktree removed, two
# journals kept; the same bisect run again takes those two from their
# journals and finishes with the same result.
T_SLEEP=0.2 "$FLAKESWEEP" bisect --test 'sh t.sh::TestRace' --timeout 10s --good c1 --bad c16 \
	--results ../bad -o ../b4 --driver tap -- sh t.sh >../out4 2>../err4 &
pid=$!
for i in $(seq 600); do
	[ "$(ls ../b4/commits 2>/dev/null | wc -l)" -ge 2 ] && break
	sleep 0.05
done
sleep 0.5
kill -TERM $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 130 ] || fail "interrupted bisect exit $rc, expected 130: $(cat ../err4)"
[ "$(git worktree list | wc -l)" = 1 ] || fail "worktrees left after interrupt: $(git worktree list)"
[ "$(ls ../b4/commits | wc -l)" = 2 ] || fail "journals after interrupt: $(ls ../b4/commits)"
rc=0; bs --good c1 --bad c16 --results ../bad -o ../b4 >../out4 2>../err4 || rc=$?
[ "$rc" = 0 ] || fail "bisect after interrupt: exit $rc"
cmp ../out ../out4 || fail "the bisect after the interrupt differs"
[ "$(grep -c 'from its journal' ../err4)" = 2 ] || fail "not resumed: $(cat ../err4)"

# Ten runs per commit cannot show a 1-in-7 flake against 10%: nothing is
# decided, and bisect says the evidence cannot separate commits 2 to 16.
rc=0; bs --good c1 --bad c16 --budget 10 -o ../b2 >../out 2>../err || rc=$?
cat ../out
[ "$rc" = 1 ] || fail "undecided bisect exit $rc, expected 1"
grep -q '^the evidence cannot separate' ../out || fail "no cannot separate"
[ "$(grep -c '^undecided ' ../out)" = 13 ] || fail "expected 13 undecided commits"
grep -q '^skipped   [0-9a-f]\{12\} 0/0  commit 12$' ../out || fail "commit 12 not skipped"
grep -q '^undecided [0-9a-f]\{12\} 1/10 (10.0%)  commit 11$' ../out || fail "commit 11 not 1/10"
[ "$(grep -c '^  [0-9a-f]\{40\} commit' ../out)" = 15 ] || fail "range is not commits 2 to 16"

# Bad input: an unknown revision is exit 2 and says which.
rc=0; bs --good nosuch --bad c16 -o ../b3 >/dev/null 2>../err || rc=$?
[ "$rc" = 2 ] || fail "unknown revision: exit $rc"
grep -q nosuch ../err || fail "the error does not name the revision: $(cat ../err)"
echo "ok"
