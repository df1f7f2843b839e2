#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Issue 29 (a), variant: two Go packages in unrelated directories (./printer
# and ./plotter) share one serial port, stood in for by a file each test
# locks with flock(LOCK_EX|LOCK_NB) and writes its pid into, then reads back
# after a pause. At load 2 on one core they collide without --exclusive;
# with one group given by an import-path pattern with ... in the middle
# (example.com/bench/p...: "... matches any text", flakesweep(1)) they
# never do. Bad input: a pattern that matches no package and a group named
# twice are errors before anything runs (exit 2), naming them.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_go
core=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
export V3_PORT=$work/ttyS0
: >"$V3_PORT"

gomod bench example.com/bench
for p in printer plotter; do
	mkdir -p bench/$p
	cat >bench/$p/port_test.go <<GO
package $p

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

func TestPortIsMine(t *testing.T) {
	f, err := os.OpenFile(os.Getenv("V3_PORT"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatalf("port in use: %v", err)
	}
	defer syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	me := strconv.Itoa(os.Getpid())
	f.Truncate(0)
	f.WriteAt([]byte(me), 0)
	time.Sleep(200 * time.Millisecond)
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	if string(buf[:n]) != me {
		t.Fatalf("port taken over: %s", fmt.Sprint(string(buf[:n])))
	}
}
GO
done
mkdir -p bench/other
cat >bench/other/other_test.go <<'GO'
package other

import "testing"

func TestQuiet(t *testing.T) {}
GO
cd bench

sweep() {
	local name=$1 want=$2 rc=0
	shift 2
	taskset -c "$core" "$FLAKESWEEP" --cpu 1 --load 2 --count 8 --confirm 0 --canaries 0 \
		--no-race --timeout 30s --ui none -o "$work/$name" "$@" ./printer ./plotter ./other \
		>"$work/$name.out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$work/$name.out"; fail "$name: exit $rc, want $want"; }
}

sweep without 1
f=$(json_get "$work/without/results.json" 'sum(c["failures"] for t in d["tests"] for c in t["cells"])')
[ "$f" -gt 0 ] || fail "without --exclusive: no collision at load 2 on one core"
echo "without --exclusive: $f failed runs"

sweep with 0 --exclusive 'serial=example.com/bench/p...'
f=$(json_get "$work/with/results.json" 'sum(c["failures"] for t in d["tests"] for c in t["cells"])')
[ "$f" = 0 ] || fail "with --exclusive serial=example.com/bench/p...: $f failed runs, want 0"
ex=$(json_get "$work/with/results.json" 'd["config"].get("exclusive")')
case $ex in *serial*) ;; *) fail "config.exclusive is $ex, want the group serial" ;; esac
echo "ok: with the group, 0 failures; config.exclusive $ex"

# Bad input: nothing runs, exit 2, the offending pattern or name is said.
bad() {
	local name=$1 want=$2 rc=0
	shift 2
	"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --canaries 0 --no-race --ui none \
		-o "$work/$name" "$@" ./printer ./plotter >"$work/$name.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || { cat "$work/$name.out"; fail "$name: exit $rc, want 2"; }
	grep -q -- "$want" "$work/$name.out" || { cat "$work/$name.out"; fail "$name: the error does not name $want"; }
	[ ! -e "$work/$name/journal.jsonl" ] || fail "$name: a journal was written"
	echo "ok: $name: $(head -1 "$work/$name.out")"
}
bad nomatch 'example.com/bench/scanner' --exclusive 'serial=example.com/bench/scanner'
bad twice 'serial' --exclusive 'serial=./printer' --exclusive 'serial=./plotter'
