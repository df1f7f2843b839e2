#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# A commit's record (commits/SHA.json) that is not one bisect wrote is not
# taken: a negative or non-integer count, more failures than runs, 1e308,
# counts the sequential test would not have stopped at,
# another commit's hash, or a FIFO in its place. bisect says which file it
# did not take and why, probes that commit again and names the right first
# bad commit; a FIFO never blocks it. No signal is held blocked while it
# reads or runs git, so SIGTERM ends it with 130 whenever it comes. The
# repository: 8 commits of a TAP test that fails on every run from commit
# 5 on (bisect-repo.sh); the probes are commits 4 (clean), 6 and 5.
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
bash "$CHECK_SRCDIR/tests/fixtures/seq/bisect-repo.sh" repo 8 5
cd repo
bs() {
	"$FLAKESWEEP" bisect --test 'sh t.sh::TestRace' --timeout 10s --level 0.01 --good c1 \
		--bad c8 "$@" --driver tap -- sh t.sh
}
c4=$(git rev-parse c4) c5=$(git rev-parse c5)

rc=0; bs -o ../b >../out 2>../err || rc=$?
cat ../out ../err
[ "$rc" = 0 ] || fail "bisect exit $rc"
grep -q "^first bad commit: $c5 commit 5\$" ../out || fail "first bad commit"
[ -f "../b/commits/$c4.json" ] || fail "no record of commit 4: $(ls ../b/commits)"

# Each tampered record of commit 4 says flaky, so taking it would name
# commit 4 the first bad one.
n=0
for rec in "{\"commit\":\"$c4\",\"state\":\"flaky\",\"runs\":-5,\"failures\":1e308}" \
	"{\"commit\":\"$c4\",\"state\":\"flaky\",\"runs\":10,\"failures\":20}" \
	"{\"commit\":\"$c4\",\"state\":\"flaky\",\"runs\":1e308,\"failures\":1}" \
	"{\"commit\":\"$c4\",\"state\":\"flaky\",\"runs\":14.5,\"failures\":2}" \
	"{\"commit\":\"$c5\",\"state\":\"flaky\",\"runs\":14,\"failures\":2}" \
	"{\"state\":\"flaky\",\"runs\":14,\"failures\":2}"; do
	n=$((n + 1))
	cp -a ../b ../t$n
	printf '%s\n' "$rec" >"../t$n/commits/$c4.json"
	rc=0; bs -o ../t$n >../out 2>../err || rc=$?
	cat ../out ../err
	[ "$rc" = 0 ] || fail "record $rec: exit $rc"
	grep -q "^first bad commit: $c5 commit 5\$" ../out || fail "record $rec: wrong first bad commit"
	grep -q "warning: .*t$n/commits/$c4.json" ../err || fail "record $rec: no warning naming it"
	[ "$(grep -c 'from its journal' ../err)" = 2 ] || fail "record $rec: commit 4 not probed again"
	cmp "../b/commits/$c4.json" "../t$n/commits/$c4.json" || fail "record $rec: not rewritten"
done

# A record whose counts the sequential test could not have stopped at:
# commit 5 clean after 1 run (it needs many more to say clean at these
# rates). Taken, it would name commit 6 the first bad one.
cp -a ../b ../short
printf '{"commit":"%s","state":"clean","runs":1,"failures":0}\n' "$c5" >"../short/commits/$c5.json"
rc=0; bs -o ../short >../out 2>../err || rc=$?
cat ../out ../err
[ "$rc" = 0 ] || fail "a clean record after 1 run: exit $rc"
grep -q "^first bad commit: $c5 commit 5\$" ../out || fail "a clean record after 1 run was taken"
grep -q "warning: .*short/commits/$c5.json.*says otherwise" ../err ||
	fail "a clean record after 1 run: no warning naming it"

# A FIFO where commit 4's record goes: not read, commit 4 probed again.
# Before, bisect blocked opening it with SIGTERM held blocked, so only
# timeout's SIGKILL ended it (137).
cp -a ../b ../fifo
rm "../fifo/commits/$c4.json"
mkfifo "../fifo/commits/$c4.json"
rc=0; timeout -k 5 60 "$FLAKESWEEP" bisect --test 'sh t.sh::TestRace' --timeout 10s --level 0.01 \
	--good c1 --bad c8 -o ../fifo --driver tap -- sh t.sh >../out 2>../err || rc=$?
cat ../out ../err
[ "$rc" = 0 ] || fail "a FIFO for a record: exit $rc, expected 0"
grep -q "warning: .*fifo/commits/$c4.json" ../err || fail "the FIFO is not named"
[ -f "../fifo/commits/$c4.json" ] || fail "the FIFO is not replaced by a record"

# While git runs, flakesweep holds no signal blocked, and neither does git.
real_git=$(command -v git)
mkdir ../bin
cat >../bin/git <<SH
#!/bin/sh
# Only git as flakesweep runs it (directly or through sh -c): git itself
# blocks signals around its own children. flakesweep's mask is read while
# it waits for this child, a tenth of a second after the spawn (which
# blocks them in flakesweep for an instant, until the child has started):
# read after git, flakesweep may already be spawning the next one.
grep '^SigBlk' /proc/self/status >"$CHECK_TMPDIR/self.\$\$"
p=\$PPID
[ "\$(cat /proc/\$p/comm)" = sh ] && p=\$(awk '/^PPid:/ { print \$2 }' /proc/\$p/status)
if [ "\$(cat /proc/\$p/comm)" = flakesweep ]; then
	sleep 0.1
	grep '^SigBlk' /proc/\$p/status >>"$CHECK_TMPDIR/blocked"
	cat "$CHECK_TMPDIR/self.\$\$" >>"$CHECK_TMPDIR/blocked"
fi
rm -f "$CHECK_TMPDIR/self.\$\$"
exec "$real_git" "\$@"
SH
chmod +x ../bin/git
rc=0; PATH="$CHECK_TMPDIR/bin:$PATH" bs -o ../sig >../out 2>../err || rc=$?
[ "$rc" = 0 ] || fail "bisect with the git wrapper: exit $rc: $(cat ../err)"
[ -s ../blocked ] || fail "git was not run through the wrapper"
if grep -v 'SigBlk:[[:space:]]*0*$' ../blocked; then
	fail "signals blocked while git runs"
fi
echo "ok"
