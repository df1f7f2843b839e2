#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# The control socket answers while a sweep at high load of CPU-bound runs
# goes on (flakesweep(5), CONTROL SOCKET: "a sweep busy with its runs
# still answers at once: the hello, the status it published last"): two
# Go packages whose tests spin the CPU for 5 and 8 ms, swept at --cpu 1
# --load 16 on this machine's cores; 300 connections each wait for the
# hello and the first status line. Every one is answered within 2 s; the
# p50 and p99 are printed, not judged. The sweep is then stopped.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/variant28.sh"
work=$V28/mod
mkdir -p "$work/spin5" "$work/spin8"
printf 'module example.com/v28spin\n\ngo 1.19\n' >"$work/go.mod"
for ms in 5 8; do
	cat >"$work/spin$ms/spin_test.go" <<GO
package spin$ms

import (
	"testing"
	"time"
)

func TestSpin(t *testing.T) {
	end := time.Now().Add($ms * time.Millisecond)
	for time.Now().Before(end) {
	}
}
GO
done
cd "$work"
out=$V28/out
"$FLAKESWEEP" --cpu 1 --load 16 --count 100000 --canaries 0 --no-race --ui none -o "$out" ./... \
	>"$V28/sweep.out" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for i in $(seq 1200); do
	grep -q '"phase":"sweep"' "$out/journal.jsonl" 2>/dev/null && [ -S "$out/control.sock" ] && break
	kill -0 $pid 2>/dev/null || { cat "$V28/sweep.out"; fail "the sweep ended before its sweep phase"; }
	sleep 0.1
done
grep -q '"phase":"sweep"' "$out/journal.jsonl" || fail "no sweep phase after 120 s"
sleep 2
rc=0
probe "$out/control.sock" 300 || rc=$?
echo "runs finished meanwhile: $(grep -c '"type":"run"' "$out/journal.jsonl")"
stop_sweep "$out/control.sock"
wait $pid || true
trap - EXIT
[ $rc = 0 ] || fail "a status request got no answer within 2 s"
echo "PASS"
