#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# flakesweep-out/.gitignore in two more shapes: a Go module swept twice
# with the default -o, the second sweep interrupted (SIGINT) while a test
# sleeps, after which `git add -A` stages nothing under flakesweep-out; and
# a pytest project swept with -o flakesweep-out/nightly/run1, -o out/run1
# (no .gitignore: not under flakesweep-out), into a flakesweep-out whose
# own .gitignore is kept as it is, and with -o sub/flakesweep-out/x.
set -eu
command -v git >/dev/null || { echo "SKIP no git"; exit 77; }
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
fail() { echo "FAIL: $*"; exit 1; }
ignores_all() { # FILE
	[ "$(grep -v '^#' "$1")" = '*' ] || fail "$1: $(cat "$1")"
}
if command -v go >/dev/null; then
	mkdir -p "$CHECK_TMPDIR/go/slow"
	cd "$CHECK_TMPDIR/go"
	git init -q .
	printf 'module example.com/gi\n\ngo 1.19\n' >go.mod
	cat >slow/slow_test.go <<'GO'
package slow

import (
	"os"
	"testing"
	"time"
)

func TestSlow(t *testing.T) {
	if os.Getenv("FLAKESWEEP_RUN") == "3" {
		time.Sleep(time.Minute)
	}
}
GO
	git add -A && git commit -qm init
	GOPROXY=off "$FLAKESWEEP" --cpu 1 --load 1 --count 2 --confirm 0 --no-race --ui none >/dev/null 2>&1 ||
		fail "the first sweep failed"
	ignores_all flakesweep-out/.gitignore
	sleep 1
	GOPROXY=off "$FLAKESWEEP" --cpu 1 --load 1 --count 5 --confirm 0 --no-race --ui none \
		>"$CHECK_TMPDIR/go.txt" 2>&1 &
	pid=$!
	for _ in $(seq 300); do [ "$(ls flakesweep-out/*/tmp 2>/dev/null | wc -l)" -gt 0 ] && break; sleep 0.1; done
	sleep 1
	kill -INT "$pid"
	rc=0
	wait "$pid" || rc=$?
	[ "$rc" = 130 ] || { cat "$CHECK_TMPDIR/go.txt"; fail "interrupted sweep: exit $rc, expected 130"; }
	[ "$(ls -d flakesweep-out/2* | wc -l)" = 2 ] || fail "not two sweeps: $(ls flakesweep-out)"
	ignores_all flakesweep-out/.gitignore
	git add -A
	[ -z "$(git diff --cached --name-only)" ] || fail "git add -A staged $(git diff --cached --name-only)"
else
	echo "# no go: the Go sweeps are left out"
fi
py=$(. "$CHECK_SRCDIR/tests/lib/pytest.sh" >/dev/null && echo "$py") || py=
[ -n "$py" ] || { echo "# no pytest: the pytest sweeps are left out"; echo ok; exit 0; }
unset PYTEST_ADDOPTS PYTHONPATH FLAKESWEEP_DATADIR
export FLAKESWEEP_PYTHON=$py PYTHONDONTWRITEBYTECODE=1
mkdir -p "$CHECK_TMPDIR/py/tests"
cd "$CHECK_TMPDIR/py"
git init -q .
printf 'def test_a():\n    pass\n' >tests/test_a.py
git add -A && git commit -qm init
sweep() { # OUTDIR
	"$FLAKESWEEP" --driver pytest --cpu 1 --load 1 --count 1 --confirm 0 --ui none -o "$1" \
		>"$CHECK_TMPDIR/py.txt" 2>&1 || { cat "$CHECK_TMPDIR/py.txt"; fail "sweep -o $1"; }
}
sweep flakesweep-out/nightly/run1
ignores_all flakesweep-out/.gitignore
[ ! -e flakesweep-out/nightly/.gitignore ] || fail "a .gitignore in flakesweep-out/nightly"
[ -z "$(git status --porcelain)" ] || fail "git status: $(git status --porcelain)"
sweep out/run1
[ ! -e out/.gitignore ] && [ ! -e out/run1/.gitignore ] || fail "a .gitignore under out"
rm -rf out
printf 'keep-me\n' >flakesweep-out/.gitignore
sweep flakesweep-out/run2
[ "$(cat flakesweep-out/.gitignore)" = keep-me ] || fail "the .gitignore was replaced"
sweep sub/flakesweep-out/x
ignores_all sub/flakesweep-out/.gitignore
echo ok
