#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# quarantine remove, then the dashboard (tmux, 120x40), in two more shapes:
# an entry added with `quarantine add` and removed by test; and one added
# with Q in the dashboard (so decisions.json says quarantined) beside a
# second channel added with `quarantine add`, removed one channel at a
# time: the test stays quarantined while an entry is left and needs a
# decision again once none is, also in a view left open while the last
# entry is removed. The state follows the quarantine file.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
command -v git >/dev/null || { echo "SKIP no git"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/tmux.sh"
export GOPROXY=off GOFLAGS=
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
proj=$CHECK_TMPDIR/qd
out=$CHECK_TMPDIR/out
mkdir -p "$proj/db"
cd "$proj"
git init -q .
printf 'module example.com/qd\n\ngo 1.19\n' >go.mod
cat >db/db_test.go <<'GO'
package db

import (
	"os"
	"strconv"
	"testing"
)

func TestTxn(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FLAKESWEEP_RUN"))
	if n%3 == 0 {
		t.Fatal("deadlock detected")
	}
}

func TestPool(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FLAKESWEEP_RUN"))
	if n%4 == 1 {
		t.Fatal("pool exhausted")
	}
}
GO
printf 'flakesweep-out/\n' >.gitignore
git add -A && git commit -qm init
rc=0
"$FLAKESWEEP" --cpu 1,2 --load 1 --count 8 --confirm 0 --no-race --ui none -o "$out" >"$CHECK_TMPDIR/sweep.txt" 2>&1 ||
	rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/sweep.txt"; fail "sweep: exit $rc, expected 1"; }
q() { "$FLAKESWEEP" quarantine "$@" >/dev/null || fail "quarantine $*"; }
n=0
# view: a new dashboard of the sweep, at 120x40, in the project.
view() {
	n=$((n + 1))
	start "v$n" 120 40 "cd $proj && $FLAKESWEEP view $out"
	wait_for "v$n" "= Flaky tests (2)"
}
# row SESSION TEST STATE: TEST's row in the list says STATE.
row() {
	wait_for "$1" "$2"
	screen "$1" | grep -E "^[> ] $2 +[0-9]+/16 .* flaky +$3 " >/dev/null ||
		{ screen "$1"; fail "$1: $2 is not $3"; }
}
quit() { tm send-keys -t "$1" q && wait_for "$1" "EXIT:0"; }

# 1. Added and removed with the command.
q add example.com/qd/db::TestTxn cpu=1 --owner alice --issue '#7' --expires 2099-01-01
view
row v1 TestTxn quarantined
wait_for v1 "Quarantine (1,"
quit v1
q remove example.com/qd/db::TestTxn
view
row v2 TestTxn "to decide"
wait_for v2 "Quarantine (0,"
quit v2

# 2. Q in the dashboard, a second channel by command, removed one by one.
view
tm send-keys -t v3 Q
wait_for v3 "quarantine example.com/qd/db::TestTxn: channel: load=1"
tm send-keys -t v3 Enter
wait_for v3 "owner (a person or team):"
tm send-keys -t v3 bob Enter
wait_for v3 "issue (URL or #number"
tm send-keys -t v3 '#9' Enter
wait_for v3 "expires (YYYY-MM-DD):"
tm send-keys -t v3 Enter
wait_for v3 "quarantined example.com/qd/db::TestTxn (load=1)"
row v3 TestTxn quarantined
quit v3
grep -q '"decision":.*"quarantined"' .flakesweep/decisions.json || fail "decisions.json: $(cat .flakesweep/decisions.json)"
q add example.com/qd/db::TestTxn cpu=2 --owner carol --issue '#10' --expires 2099-01-01
q remove example.com/qd/db::TestTxn load=1
view
row v4 TestTxn quarantined
wait_for v4 "Quarantine (1,"
# The last entry goes while this view is open.
q remove example.com/qd/db::TestTxn cpu=2
wait_for v4 "Quarantine (0,"
row v4 TestTxn "to decide"
quit v4
view
row v5 TestTxn "to decide"
wait_for v5 "no entries: Q on a flaky test adds one"
quit v5
echo ok
