#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Issue 29 (a), variant: two Go packages (./scanner/front, ./scanner/back)
# claim one "device" by creating a directory with mkdir(2) and hold it for
# a quarter second. On one core at load 2 their runs collide without
# --exclusive; with --exclusive scanner=./scanner/... no two runs of the
# group are alive at once (flakesweep(1), --exclusive), so none fails, and
# the group is in results.json's config.exclusive (flakesweep(5)).
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_go
core=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
export V3_DEVICE=$work/device.claim

gomod lab example.com/lab
for p in front back; do
	mkdir -p lab/scanner/$p
	cat >lab/scanner/$p/scan_test.go <<GO
package $p

import (
	"os"
	"testing"
	"time"
)

func TestScan$p(t *testing.T) {
	dev := os.Getenv("V3_DEVICE")
	if err := os.Mkdir(dev, 0o700); err != nil {
		t.Fatalf("scanner busy: %v", err)
	}
	defer os.Remove(dev)
	time.Sleep(250 * time.Millisecond)
}
GO
done
cd lab

sweep() {
	local name=$1 want=$2 rc=0
	shift 2
	rm -rf "$V3_DEVICE"
	taskset -c "$core" "$FLAKESWEEP" --cpu 1 --load 2 --count 8 --confirm 0 --canaries 0 \
		--no-race --timeout 30s --ui none -o "$work/$name" "$@" ./scanner/... \
		>"$work/$name.out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$work/$name.out"; fail "$name: exit $rc, want $want"; }
}

sweep without 1
f=$(json_get "$work/without/results.json" 'sum(c["failures"] for t in d["tests"] for c in t["cells"])')
[ "$f" -gt 0 ] || fail "without --exclusive: no collision in 16 runs at load 2 on one core"
echo "without --exclusive: $f failed runs"

sweep with 0 --exclusive scanner=./scanner/...
f=$(json_get "$work/with/results.json" 'sum(c["failures"] for t in d["tests"] for c in t["cells"])')
[ "$f" = 0 ] || fail "with --exclusive: $f failed runs, want 0"
r=$(json_get "$work/with/results.json" 'sum(c["runs"] for t in d["tests"] for c in t["cells"])')
[ "$r" = 16 ] || fail "with --exclusive: $r runs of the tests, want 16"
ex=$(json_get "$work/with/results.json" 'd["config"]["exclusive"]')
case $ex in *scanner*./scanner/...*) ;; *) fail "config.exclusive is $ex, want the group scanner=./scanner/..." ;; esac
grep -q '"exclusive"' "$work/with/journal.jsonl" || fail "the journal header lacks exclusive"
echo "ok: with --exclusive 0 failures in $r runs; config.exclusive $ex"
