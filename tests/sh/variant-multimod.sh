#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# Two more repositories of several Go modules with no go.mod at the root:
# modules two levels down (services/api, services/worker, tools) beside
# modules Go skips (under testdata and _old) whose one test fails; and the
# same with a go.work that uses two of them. Swept with no pattern and with
# ./... (./services/... with the go.work), every module is swept (with the
# go.work: those it uses), no build failure is reported, the exit status is
# 0 as every test passed, and the repository's git status stays clean.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
command -v git >/dev/null || { echo "SKIP no git"; exit 77; }
export GOPROXY=off GOFLAGS=
work=$CHECK_TMPDIR/repo
mkdir -p "$work"
cd "$work"
git init -q .
mkmod() { # DIR MODULE PACKAGE TEST BODY
	mkdir -p "$1/${3%/*}"
	printf 'module %s\n\ngo 1.19\n' "$2" >"$1/go.mod"
	printf 'package %s\n\nimport "testing"\n\nfunc %s(t *testing.T) { %s }\n' \
		"${3##*/}" "$4" "$5" >"$1/$3_test.go"
}
mkmod services/api example.com/acme/api handler/handler TestServe ""
mkmod services/worker example.com/acme/worker worker/worker TestJob ""
mv services/worker/worker/worker_test.go services/worker/ && rmdir services/worker/worker
mkmod tools example.com/acme/tools lint/lint TestLint ""
mkmod testdata/fixture example.com/acme/fixture x/x TestBroken 't.Fatal("swept")'
mkmod _old/mod example.com/acme/old x/x TestBroken 't.Fatal("swept")'
git add -A
git -c user.name=t -c user.email=t@example.com commit -qm init
out=$CHECK_TMPDIR/out
fail() { echo "FAIL: $*"; cat "$out.txt"; exit 1; }
# sweep NAME TESTS [PATTERN]: the sweep passes with exactly TESTS.
sweep() {
	local name=$1 want=$2 rc=0 got
	shift 2
	"$FLAKESWEEP" --cpu 1 --load 1 --count 2 --confirm 0 --no-race --ui none --json \
		-o "flakesweep-out/$name" "$@" >"$out.json" 2>"$out.txt" || rc=$?
	[ "$rc" = 0 ] || fail "$name: exit $rc, expected 0"
	got=$(python3 -c '
import json, sys
r = json.load(open(sys.argv[1]))
bad = [p["package"] for p in r["packages"] if not p["build"]["ok"]]
print(" ".join(sorted(t["id"] + "=" + t["verdict"] for t in r["tests"]) + ["FAILED:" + b for b in bad]))
' "$out.json")
	[ "$got" = "$want" ] || fail "$name: $got"
	! grep -q 'BUILD FAILED\|failed to build' "$out.txt" || fail "$name: a build failure"
	[ -z "$(git status --porcelain)" ] || fail "$name: git status: $(git status --porcelain)"
}
all="example.com/acme/api/handler::TestServe=passed example.com/acme/tools/lint::TestLint=passed example.com/acme/worker::TestJob=passed"
sweep none "$all"
sweep dots "$all" ./...
printf 'go 1.19\n\nuse (\n\t./services/api\n\t./services/worker\n)\n' >go.work
git add go.work
git -c user.name=t -c user.email=t@example.com commit -qm work
two="example.com/acme/api/handler::TestServe=passed example.com/acme/worker::TestJob=passed"
sweep work "$two"
sweep services "$two" ./services/...
echo ok
