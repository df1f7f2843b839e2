#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# A go.work that uses ./api and ./worker of three modules (tools, with
# tools/lint's TestLint, is not in it): a sweep with no pattern and one of
# ./... sweep api and worker and warn that go.work leaves tools out, naming
# it; ./tools/... and ./tools/lint, which match only tools, stop before
# anything runs (exit 2, no output directory) saying it is outside go.work.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
export GOPROXY=off GOFLAGS=
out=$CHECK_TMPDIR/out.txt
fail() { echo "FAIL: $*"; cat "$out"; exit 1; }
work=$CHECK_TMPDIR/repo
mkdir -p "$work/api" "$work/worker" "$work/tools/lint"
cd "$work"
for m in api worker tools; do
	printf 'module example.com/%s\n\ngo 1.19\n' $m >$m/go.mod
done
printf 'package api\n\nimport "testing"\n\nfunc TestAPI(t *testing.T) {}\n' >api/api_test.go
printf 'package worker\n\nimport "testing"\n\nfunc TestWork(t *testing.T) {}\n' >worker/worker_test.go
printf 'package lint\n\nimport "testing"\n\nfunc TestLint(t *testing.T) {}\n' >tools/lint/lint_test.go
printf 'go 1.19\n\nuse (\n\t./api\n\t./worker\n)\n' >go.work
sweep() { # NAME WANT_RC ARGS...
	local name=$1 want=$2 rc=0
	shift 2
	timeout 200 "$FLAKESWEEP" --ui none --count 1 --cpu 1 --load 1 --confirm 0 --no-race \
		-o "$CHECK_TMPDIR/$name" "$@" </dev/null >"$out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || fail "$name: exit $rc, expected $want"
}
left="flakesweep: go.work ($work/go.work) does not use module example.com/tools (./tools): its tests are left out; \`go work use ./tools\` adds it"
sweep all 0
grep -qF -- "$left" "$out" || fail "all: no \"$left\""
grep -q '^2 runs, 2 tests: 2 passed' "$out" || fail "all: not api's and worker's tests"
sweep dots 0 ./...
grep -qF -- "$left" "$out" || fail "dots: no \"$left\""
grep -q '^2 runs, 2 tests: 2 passed' "$out" || fail "dots: not api's and worker's tests"
outside="module example.com/tools (./tools) is outside go.work ($work/go.work), which does not use it: \`go work use ./tools\` adds it"
for p in ./tools/... ./tools/lint example.com/tools/lint; do
	sweep tools 2 "$p"
	grep -qF -- "flakesweep: $p: $outside" "$out" || fail "$p: no \"$outside\""
	[ ! -e "$CHECK_TMPDIR/tools" ] || fail "$p: left an output directory"
done
# Beside a module go.work uses, the pattern of the one it does not is named too.
sweep mixed 2 ./api ./tools/lint
grep -qF -- "flakesweep: ./tools/lint: $outside" "$out" || fail "mixed: no \"$outside\""
echo ok
