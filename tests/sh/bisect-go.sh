#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# bisect with the go driver on a generated module of 6 commits: commit 3
# does not build and is skipped as `git bisect skip` does; commit 4 makes
# TestRace fail on every third run id. Commit 2 is clean after 31 passing
# runs (flaky at 10%, clean at 1%), commit 4 flaky at its runs 3 and 6;
# commits 3 and 4 cannot be separated, and bisect says so (exit 1).
set -eu
command -v go >/dev/null 2>&1 || { echo "SKIP no Go"; exit 77; }
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
export GOFLAGS=-mod=mod GOCACHE="$CHECK_TMPDIR/gocache"
mkdir repo && cd repo
git init -q .
printf 'module example.com/b\n\ngo 1.19\n' >go.mod
for i in 1 2 3 4 5 6; do
	if [ "$i" = 3 ]; then
		body='func TestRace(t *testing.T) { undefined() }'
	elif [ "$i" -ge 4 ]; then
		body='func TestRace(t *testing.T) { if n, _ := strconv.Atoi(os.Getenv("FLAKESWEEP_RUN")); n%3 == 0 { t.Fatal("race") } }'
	else
		body='func TestRace(t *testing.T) {}'
	fi
	printf 'package b\n\nimport (\n\t"os"\n\t"strconv"\n\t"testing"\n)\n\nvar _ = os.Getenv\nvar _ = strconv.Itoa\n\n%s\n' "$body" >b_test.go
	echo "$i" >v
	git add -A
	git -c user.name=t -c user.email=t@example.com commit -qm "commit $i"
	git tag "c$i"
done
rc=0
"$FLAKESWEEP" bisect --good c1 --bad c6 --test 'example.com/b::TestRace' -o ../out --budget 60 \
	--timeout 30s --no-race ./... >../stdout 2>../stderr || rc=$?
cat ../stdout ../stderr
[ "$rc" = 1 ] || fail "exit $rc, expected 1 (cannot separate)"
sed -E 's/ [0-9a-f]{12} / SHA /; s/^  [0-9a-f]{40} /  SHA /' ../stdout >../got
cat >../want <<'TXT'
clean     SHA 0/31 (0.0%)  commit 2
skipped   SHA 0/0  commit 3
flaky     SHA 2/6 (33.3%)  commit 4
the evidence cannot separate these commits (budget reached without a decision, or skipped); the first bad one is among:
  SHA commit 3
  SHA commit 4
TXT
diff -u ../want ../got || fail "bisect result"
[ -z "$(git status --porcelain)" ] || fail "the user's tree changed"
[ "$(git worktree list | wc -l)" = 1 ] || fail "worktrees left"
echo ok
