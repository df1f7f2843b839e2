#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# Two more shapes of a package that blocks while its tests are listed,
# swept beside a quick package: a TestMain that polls forever for a file
# that never appears (patterns ./waiter ./quick), and a package variable
# whose initialiser waits a day (import-path patterns, two loads). Each
# blocking package is named with its listing's limit (--timeout plus
# --kill-grace), and the quick package's runs all pass, in far less time
# than the blocking package would take.
set -eu
command -v go >/dev/null || { echo "SKIP no go"; exit 77; }
work=$CHECK_TMPDIR/repo
mkdir -p "$work/waiter" "$work/quick" "$work/api"
cd "$work"
export GOPROXY=off GOFLAGS=-mod=mod
cat >go.mod <<'GO'
module example.net/svc

go 1.19
GO
cat >waiter/main_test.go <<'GO'
package waiter

import (
	"os"
	"testing"
	"time"
)

// TestMain waits for a database that never comes up.
func TestMain(m *testing.M) {
	for {
		if _, err := os.Stat("/nonexistent/db.ready"); err == nil {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	os.Exit(m.Run())
}

func TestQuery(t *testing.T) {}
GO
cat >quick/quick_test.go <<'GO'
package quick

import "testing"

func TestFast(t *testing.T) {}
GO
cat >api/api_test.go <<'GO'
package api

import (
	"testing"
	"time"
)

var ready = waitADay()

func waitADay() bool {
	<-time.After(24 * time.Hour)
	return true
}

func TestInitBlocks(t *testing.T) {}
GO
out=$CHECK_TMPDIR/out
fail() { echo "FAIL: $*"; cat "$out.txt"; exit 1; }
# blocked NAME PACKAGE LIMIT_MS RUNS OPTIONS AND PATTERNS...
blocked() {
	local name=$1 pkg=$2 limit=$3 runs=$4 rc=0 start took
	shift 4
	start=$(date +%s)
	timeout 150 "$FLAKESWEEP" --count 3 --confirm 0 --no-race --ui none \
		-o "$out-$name" "$@" >"$out.txt" 2>&1 || rc=$?
	took=$(($(date +%s) - start))
	[ "$rc" = 1 ] || fail "$name: exit $rc, expected 1"
	[ "$took" -lt 100 ] || fail "$name: took ${took}s"
	grep -q "^BUILD FAILED $pkg (unit):" "$out.txt" || fail "$name: $pkg is not named"
	grep -q "passed its time limit of $limit ms" "$out.txt" || fail "$name: no limit named"
	python3 - "$out-$name/results.json" "$runs" <<'PY' || fail "$name: TestFast"
import json, sys
r = json.load(open(sys.argv[1]))
t = [t for t in r["tests"] if t["test"] == "TestFast"]
if not t or t[0]["verdict"] != "passed" or sum(c["runs"] for c in t[0]["cells"]) != int(sys.argv[2]):
    print("FAIL: TestFast is not passed in %s runs: %s" % (sys.argv[2], t)); sys.exit(1)
PY
}
blocked waiter example.net/svc/waiter 8000 6 --cpu 1,2 --load 1 --timeout 6s --kill-grace 2s ./waiter ./quick
blocked api example.net/svc/api 6000 12 --cpu 1,2 --load 1,2 --timeout 5s --kill-grace 1s \
	example.net/svc/api example.net/svc/quick
echo ok
