#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# compare and verify, given another project's results, in two more shapes:
# two repositories with other origins (one written git@host:o/r.git, the
# other https://host/o/r), and two projects with no git at all (their roots
# decide). Each is refused with exit 2 before any run, naming both values.
# And the same project cloned to another path, its origin spelled the
# other way, its fix committed there: compare and verify take it.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
command -v git >/dev/null || { echo "SKIP no git"; exit 77; }
export GOPROXY=off GOFLAGS=
export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
out=$CHECK_TMPDIR/out.txt
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }
# project DIR MODULE: a module whose TestFlap fails in every third run.
project() {
	mkdir -p "$1/lib"
	printf 'module %s\n\ngo 1.19\n' "$2" >"$1/go.mod"
	cat >"$1/lib/lib_test.go" <<'GO'
package lib

import (
	"os"
	"strconv"
	"testing"
)

func TestFlap(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FLAKESWEEP_RUN"))
	if n%3 == 0 {
		t.Fatal("flap")
	}
}
GO
	printf 'flakesweep-out/\n' >"$1/.gitignore"
}
sweep() { # DIR OUT WANT_RC
	local rc=0
	(cd "$1" && "$FLAKESWEEP" --cpu 1 --load 1,2 --count 9 --confirm 0 --no-race --ui none -o "$2") \
		>"$out" 2>&1 || rc=$?
	[ "$rc" = "$3" ] || fail "sweep of $1: exit $rc, expected $3"
}
# refused WHAT MESSAGE DIR ARGS...: flakesweep ARGS run in DIR exits 2 with MESSAGE, and runs nothing.
refused() {
	local what=$1 msg=$2 dir=$3 rc=0
	shift 3
	(cd "$dir" && "$FLAKESWEEP" "$@") >"$out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "$what: exit $rc, expected 2"
	grep -qF -- "$msg" "$out" || fail "$what: no \"$msg\""
}
cd "$CHECK_TMPDIR"
project x example.com/x
(cd x && git init -q . && git add -A && git commit -qm x && git remote add origin git@github.com:acme/x.git)
project y example.com/y
(cd y && git init -q . && git add -A && git commit -qm y && git remote add origin https://github.com/acme/y)
sweep x "$CHECK_TMPDIR/x-out" 1
sweep y "$CHECK_TMPDIR/y-out" 1
diff="origin git@github.com:acme/x.git vs https://github.com/acme/y"
refused compare-origin "flakesweep: $CHECK_TMPDIR/x-out and $CHECK_TMPDIR/y-out are of different projects: $diff" \
	. compare "$CHECK_TMPDIR/x-out" "$CHECK_TMPDIR/y-out"
refused verify-origin "flakesweep: $CHECK_TMPDIR/x-out is of another project than $CHECK_TMPDIR/y: $diff" \
	y verify --test example.com/x/lib::TestFlap --results "$CHECK_TMPDIR/x-out" --no-race --ui none \
	-o "$CHECK_TMPDIR/y-verify"
[ ! -e "$CHECK_TMPDIR/y-verify" ] || fail "verify-origin ran"
project p example.com/p
project q example.com/q
sweep p "$CHECK_TMPDIR/p-out" 1
sweep q "$CHECK_TMPDIR/q-out" 1
refused compare-root "are of different projects: root $CHECK_TMPDIR/p vs $CHECK_TMPDIR/q" \
	. compare p-out q-out
refused verify-root "flakesweep: $CHECK_TMPDIR/p-out is of another project than $CHECK_TMPDIR/q: root $CHECK_TMPDIR/p vs $CHECK_TMPDIR/q" \
	q verify --test example.com/p/lib::TestFlap --results "$CHECK_TMPDIR/p-out" --no-race --ui none \
	-o "$CHECK_TMPDIR/q-verify"
git clone -q x clone
(cd clone && git remote set-url origin https://github.com/acme/x &&
	sed -i 's/n%3 == 0/n < 0/' lib/lib_test.go && git commit -qam fix)
sweep clone "$CHECK_TMPDIR/clone-out" 0
rc=0
"$FLAKESWEEP" compare x-out clone-out >"$out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "compare of the clone: exit $rc"
grep -Eq '^(inconclusive|rarer|fixed) +example.com/x/lib::TestFlap at cpu 1 load [12]: before [0-9]+/9 .*, after 0/9 ' "$out" || fail "compare of the clone"
rc=0
(cd clone && "$FLAKESWEEP" verify --test example.com/x/lib::TestFlap --results "$CHECK_TMPDIR/x-out" \
	--no-race --ui none -o "$CHECK_TMPDIR/clone-verify") >"$out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "verify in the clone: exit $rc"
grep -q '^verify: example.com/x/lib::TestFlap fixed at all 2 pairs (exit 0)$' "$out" || fail "verify in the clone"
echo ok
