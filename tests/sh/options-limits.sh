#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# Values the sweep cannot honour are refused up front with exit 2 and a
# message that says the limit: --load above 64, --count above 1e8,
# --timeout above Go's 2562047h (go driver), an empty --env-up or
# --env-down, a --scrub-env or --mask-env that is not a variable name, and --run or
# --skip that Go's regexp syntax rejects.
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
# An empty environment command, and a variable to scrub that no
# environment can hold, are refused rather than ignored.
expect 'invalid value "" for --env-up: expected a shell command' --env-up '' --cpu 1 --load 1 --count 1 --confirm 0 -o o6 --driver tap -- ./sleep1.sh
expect 'invalid value "" for --env-down: expected a shell command' --env-down '' --cpu 1 --load 1 --count 1 --confirm 0 -o o7 --driver tap -- ./sleep1.sh
expect 'invalid value "" for --scrub-env: expected a variable name' --scrub-env '' --cpu 1 --load 1 --count 1 --confirm 0 -o o8 --driver tap -- ./sleep1.sh
expect 'invalid value "A=B" for --scrub-env: expected a variable name' --scrub-env A=B --cpu 1 --load 1 --count 1 --confirm 0 -o o9 --driver tap -- ./sleep1.sh
expect 'invalid value "1X" for --scrub-env: expected a variable name' --scrub-env 1X --cpu 1 --load 1 --count 1 --confirm 0 -o o10 --driver tap -- ./sleep1.sh
expect 'invalid value "" for --mask-env: expected a variable name' --mask-env '' --cpu 1 --load 1 --count 1 --confirm 0 -o o11 --driver tap -- ./sleep1.sh
expect 'invalid value "A=B" for --mask-env: expected a variable name' --mask-env A=B --cpu 1 --load 1 --count 1 --confirm 0 -o o12 --driver tap -- ./sleep1.sh
[ ! -e o1 ] && [ ! -e o2 ] && [ ! -e o3 ] || fail "a refused sweep wrote its directory"
[ ! -e o6 ] && [ ! -e o7 ] && [ ! -e o8 ] && [ ! -e o9 ] && [ ! -e o10 ] && [ ! -e o11 ] && [ ! -e o12 ] || fail "a refused sweep wrote its directory"
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
cp -r "$CHECK_SRCDIR/tests/fixtures/gomod" gomod
cd gomod
expect 'invalid regexp' --run '(' --no-race -o ../o4 ./...
expect 'invalid regexp' --skip 'a/(b' --no-race -o ../o5 ./...
grep -q -- '--skip' stderr || fail "the error does not name --skip: $(cat stderr)"
echo "ok: limits refused"
