#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Two more shapes of a Go test package that exists only behind a build tag:
# an external test package (package integration_test) whose only file
# carries //go:build integration, two directories deep, and one whose only
# file carries the old // +build smoke line alone. Each is swept at its
# level with no pattern, with ./... and with --tags naming its level; with
# --tags unit neither is.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
work=$CHECK_TMPDIR/repo
mkdir -p "$work/calc" "$work/test/integration" "$work/smoke"
cd "$work"
export GOPROXY=off GOFLAGS=-mod=mod
cat >go.mod <<'GO'
module example.org/shop

go 1.19
GO
cat >calc/calc.go <<'GO'
package calc

func Add(a, b int) int { return a + b }
GO
cat >calc/calc_test.go <<'GO'
package calc

import "testing"

func TestAdd(t *testing.T) {
	if Add(2, 2) != 4 {
		t.Fatal("2+2")
	}
}
GO
cat >test/integration/checkout_test.go <<'GO'
//go:build integration

package integration_test

import (
	"testing"

	"example.org/shop/calc"
)

func TestCheckout(t *testing.T) {
	if calc.Add(40, 2) != 42 {
		t.Fatal("total")
	}
}
GO
cat >smoke/smoke_test.go <<'GO'
// +build smoke

package smoke

import "testing"

func TestSmoke(t *testing.T) {}
GO
out=$CHECK_TMPDIR/out
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
sweep() { # NAME WANT_RC [OPTIONS AND PATTERNS...]
	local name=$1 want=$2 rc=0
	shift 2
	"$FLAKESWEEP" --cpu 1 --load 1 --count 2 --confirm 0 --no-race --ui none \
		-o "$out/$name" "$@" >"$out/$name.txt" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$out/$name.txt"; fail "$name: exit $rc, expected $want"; }
}
# swept NAME: "package level verdict-of-each-test" of the sweep NAME.
swept() {
	python3 - "$out/$1/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for p in sorted(r["packages"], key=lambda p: (p["package"], p["level"])):
    v = sorted("%s=%s" % (t["test"], t["verdict"]) for t in r["tests"]
               if t["package"] == p["package"] and t["level"] == p["level"])
    print(p["package"], p["level"], "ok" if p["build"]["ok"] else "failed", *v)
PY
}
all="example.org/shop/calc unit ok TestAdd=passed
example.org/shop/smoke smoke ok TestSmoke=passed
example.org/shop/test/integration integration ok TestCheckout=passed"
sweep none 0
[ "$(swept none)" = "$all" ] || { swept none; fail "no pattern"; }
sweep dots 0 ./...
[ "$(swept dots)" = "$all" ] || { swept dots; fail "./..."; }
sweep tags 0 --tags integration
[ "$(swept tags)" = "example.org/shop/test/integration integration ok TestCheckout=passed" ] ||
	{ swept tags; fail "--tags integration"; }
sweep dir 0 --tags smoke ./smoke
[ "$(swept dir)" = "example.org/shop/smoke smoke ok TestSmoke=passed" ] || { swept dir; fail "--tags smoke ./smoke"; }
sweep unit 0 --tags unit ./...
[ "$(swept unit)" = "example.org/shop/calc unit ok TestAdd=passed" ] || { swept unit; fail "--tags unit"; }
echo ok
