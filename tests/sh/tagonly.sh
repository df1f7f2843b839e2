#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Test packages that `go list ./...` does not show (tests/fixtures/tagonly):
# an external test package whose only file carries //go:build e2e, and a
# package whose only file carries the old // +build legacy, are each swept
# at their level by default and with --tags; a directory of test files go
# list cannot load is named in the report with go's reason, not dropped
# (whatever --tags says: its levels cannot be known), and the rest goes on.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
work=$CHECK_TMPDIR/repo
cp -r "$CHECK_SRCDIR/tests/fixtures/tagonly" "$work"
cd "$work"
export GOPROXY=off GOFLAGS=-mod=mod
out=$CHECK_TMPDIR/out
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
sweep() { # NAME WANT_RC [OPTIONS AND PATTERNS...]
	local name=$1 want=$2 rc=0
	shift 2
	"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --ui none \
		-o "$out/$name" "$@" >"$out/$name.txt" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$out/$name.txt"; fail "$name: exit $rc, expected $want"; }
}
# levels NAME: "package level ok" of each package of the sweep NAME, sorted.
levels() {
	python3 - "$out/$1/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for p in sorted(r["packages"], key=lambda p: (p["package"], p["level"])):
    print(p["package"], p["level"], "ok" if p["build"]["ok"] else "failed")
PY
}
# passed NAME TEST: TEST passed in the sweep NAME.
passed() {
	python3 - "$out/$1/results.json" "$2" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = [t for t in r["tests"] if t["test"] == sys.argv[2]]
if not t or t[0]["verdict"] != "passed":
    print("FAIL: %s not passed: %s" % (sys.argv[2], t)); sys.exit(1)
PY
}
sweep all 1
got=$(levels all)
want="example.com/tagonly/badpkg unit failed
example.com/tagonly/e2e e2e ok
example.com/tagonly/legacy legacy ok
example.com/tagonly/lib unit ok"
[ "$got" = "$want" ] || { cat "$out/all.txt"; fail "levels: $got"; }
passed all TestEndToEnd
passed all TestLegacy
grep -q '^BUILD FAILED example.com/tagonly/badpkg (unit):$' "$out/all.txt" ||
	{ cat "$out/all.txt"; fail "badpkg is not named"; }
grep -q 'found packages one (one_test.go) and two (two_test.go)' "$out/all.txt" ||
	{ cat "$out/all.txt"; fail "badpkg: no reason"; }
sweep tagsall 1 --tags e2e
[ "$(levels tagsall)" = "example.com/tagonly/badpkg unit failed
example.com/tagonly/e2e e2e ok" ] || { levels tagsall; fail "--tags e2e"; }
passed tagsall TestEndToEnd
for p in ./e2e/... ./e2e; do
	sweep tags 0 --tags e2e "$p"
	[ "$(levels tags)" = "example.com/tagonly/e2e e2e ok" ] || { levels tags; fail "--tags e2e $p"; }
	passed tags TestEndToEnd
	rm -rf "$out/tags"
done
sweep legacy 0 --tags legacy ./legacy/...
[ "$(levels legacy)" = "example.com/tagonly/legacy legacy ok" ] || { levels legacy; fail "--tags legacy"; }
passed legacy TestLegacy
echo ok
