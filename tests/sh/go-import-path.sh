#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# A mistyped import path, as the directory form ./pkg/nett already is, is
# named before anything runs: alone, beside a valid one (never dropped in
# silence while the other is swept), as a pattern with /... that matches
# nothing, and as a path that is neither a directory nor an import path of
# the module (pkg/net, where Go looks in GOROOT). Each exits 2 with the
# pattern and what was expected, and leaves no output directory; the valid
# import path alone is still swept.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
export GOPROXY=off GOFLAGS=
out=$CHECK_TMPDIR/out.txt
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }
mkdir -p "$CHECK_TMPDIR/r/pkg/net"
cd "$CHECK_TMPDIR/r"
printf 'module example.com/bad\n\ngo 1.19\n' >go.mod
printf 'package net\n\nimport "testing"\n\nfunc TestDial(t *testing.T) {}\n' >pkg/net/net_test.go
sweep() { # WANT_RC ARGS...
	local want=$1 rc=0
	shift
	timeout 120 "$FLAKESWEEP" --ui none --count 1 --cpu 1 --load 1 --confirm 0 --no-race -o o \
		"$@" </dev/null >"$out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || fail "$*: exit $rc, expected $want"
}
# refused MESSAGE ARGS...: the sweep exits 2 with MESSAGE and leaves nothing.
refused() {
	local msg=$1
	shift
	sweep 2 "$@"
	grep -qF -- "$msg" "$out" || fail "$*: no \"$msg\""
	! grep -q 'no package with tests matched' "$out" || fail "$*: the pattern is not named"
	[ "$(ls -A)" = "go.mod
pkg" ] || fail "$*: left $(ls -A)"
}
typo="flakesweep: example.com/bad/pkg/nett: module example.com/bad ($PWD) has no package pkg/nett:"
refused "$typo" example.com/bad/pkg/nett
refused "$typo" example.com/bad/pkg/net example.com/bad/pkg/nett
refused "$typo" example.com/bad/pkg/nett example.com/bad/pkg/net
refused "flakesweep: example.com/bad/pkg/nett/...: matches no package of module example.com/bad ($PWD)" \
	example.com/bad/pkg/nett/...
refused "flakesweep: pkg/net: neither a directory nor an import path of the module example.com/bad: expected ./pkg/net or example.com/bad/pkg/net" \
	pkg/net
sweep 0 example.com/bad/pkg/net
grep -q '^1 runs*, 1 tests*: 1 passed' "$out" || fail "the valid import path was not swept"
echo ok
