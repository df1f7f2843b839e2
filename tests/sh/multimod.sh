#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# A git repository of two Go modules with no go.mod at its root
# (tests/fixtures/multimod): with no pattern, and with ./..., each module is
# swept, the root (which holds no module) is not itself listed, no build
# fails, a sweep whose tests all pass exits 0 and the warning that --run
# selected no test names each package. A mistyped directory,
# and a directory with no module at, above or below it, are refused before
# anything runs (exit 2, naming the pattern and what was expected), and
# leave no output directory behind.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
work=$CHECK_TMPDIR/repo
cp -r "$CHECK_SRCDIR/tests/fixtures/multimod" "$work"
cd "$work"
git init -q .
git add -A
git -c user.name=t -c user.email=t@example.com commit -qm fixture
export GOPROXY=off GOFLAGS=-mod=mod
out=$CHECK_TMPDIR/out
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
for name in none dots; do
	pattern=()
	[ "$name" = dots ] && pattern=(./...)
	rc=0
	"$FLAKESWEEP" --ui none --run '^TestNever$' --count 3 --cpu 1 --load 1 --confirm 0 \
		--no-race -o "$out/$name" ${pattern[@]+"${pattern[@]}"} >"$out/$name.txt" 2>&1 || rc=$?
	[ "$rc" = 0 ] || { cat "$out/$name.txt"; fail "$name: exit $rc, expected 0"; }
	! grep -q 'BUILD FAILED\|failed to build' "$out/$name.txt" ||
		{ cat "$out/$name.txt"; fail "$name: a build failed"; }
	# The warning names the filter and the package, never "?".
	for p in example.com/alpha example.com/beta/sub; do
		grep -qF -- "--run '^TestNever\$' selected no test of $p" "$out/$name.txt" ||
			{ cat "$out/$name.txt"; fail "$name: no \"selected no test of $p\""; }
	done
	! grep -qF 'filter for ?' "$out/$name.txt" ||
		{ cat "$out/$name.txt"; fail "$name: a run named \"?\""; }
	python3 - "$out/$name/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
got = sorted((p["package"], p["build"]["ok"]) for p in r["packages"])
want = [("example.com/alpha", True), ("example.com/beta/sub", True)]
if got != want:
    print("FAIL: packages %s, expected %s" % (got, want)); sys.exit(1)
PY
done
# refused NAME WANT PATTERN: exit 2 with WANT on stderr, nothing left behind.
refused() {
	local name=$1 want=$2 rc=0
	shift 2
	"$FLAKESWEEP" --ui line --count 1 --cpu 1 --load 1 --no-race "$@" \
		>"$out/$name.txt" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$out/$name.txt"; fail "$name: exit $rc, expected 2"; }
	grep -qF -- "$want" "$out/$name.txt" || { cat "$out/$name.txt"; fail "$name: no \"$want\""; }
	! grep -q '^\[done\]' "$out/$name.txt" || { cat "$out/$name.txt"; fail "$name: [done]"; }
}
refused typo "./alpa: no such directory in $PWD: expected a package directory" ./alpa
[ ! -e flakesweep-out ] || fail "typo: flakesweep-out/ was left behind"
refused typo-o "./beta/sbu/...: no such directory" -o "$out/new/typo" ./beta/sbu/...
[ ! -e "$out/new" ] || fail "typo -o: $out/new was left behind"
mkdir -p "$CHECK_TMPDIR/nomod/docs"
cd "$CHECK_TMPDIR/nomod"
refused nomod "./...: no Go module in $PWD, above it or below it: expected a go.mod"
[ ! -e flakesweep-out ] || fail "nomod: flakesweep-out/ was left behind"
echo ok
