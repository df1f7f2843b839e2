#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# Values the sweep cannot honour are refused up front with exit 2 and a
# message that says the limit: --load above 64, --count above 1e8,
# --timeout above Go's 2562047h (go driver), and --run or --skip that Go's
# regexp syntax rejects.
set -eu
cd "$CHECK_TMPDIR"
fail() { echo "FAIL: $*"; exit 1; }
expect() { # expect MESSAGE ARGS...: exit 2, MESSAGE on stderr
	local msg=$1 rc=0
	shift
	"$FLAKESWEEP" --ui none "$@" >stdout 2>stderr || rc=$?
	[ "$rc" = 2 ] || fail "$* exit $rc, expected 2: $(cat stderr)"
	grep -qF -- "$msg" stderr || fail "$*: no \"$msg\" in: $(cat stderr)"
}
cp "$CHECK_SRCDIR/tests/fixtures/tap/sleep1.sh" .
expect 'at most 64' --load 1,65 -o o1 --driver tap -- ./sleep1.sh
expect 'at most 100000000' --count 2147483647 -o o2 --driver tap -- ./sleep1.sh
expect '2562047h' --timeout 2562048h -o o3 ./...
[ ! -e o1 ] && [ ! -e o2 ] && [ ! -e o3 ] || fail "a refused sweep wrote its directory"
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
cp -r "$CHECK_SRCDIR/tests/fixtures/gomod" gomod
cd gomod
expect 'invalid regexp' --run '(' --no-race -o ../o4 ./...
expect 'invalid regexp' --skip 'a/(b' --no-race -o ../o5 ./...
grep -q -- '--skip' stderr || fail "the error does not name --skip: $(cat stderr)"
echo "ok: limits refused"
