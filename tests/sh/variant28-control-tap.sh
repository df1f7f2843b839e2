#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# The control socket answers while a TAP sweep at --load 16 of CPU-bound
# runs (awk spinning about 10 ms) goes on (flakesweep(5), CONTROL
# SOCKET): 200 connections each wait for the hello and the first status
# line, then send an unknown command (refused by the socket at once) and
# wait for its reply; then 100 more send "resume", which the sweep's loop
# carries out, and wait for its reply. The socket's own answers come within
# 2 s, the loop's within 30 s; the p50 and p99 are printed, not judged.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant28.sh"
mkdir -p "$V28/proj" && cd "$V28/proj"
cat >spin.sh <<'SH'
#!/bin/sh
awk 'BEGIN { for (i = 0; i < 300000; i++) x += i * i }'
echo 1..2
echo ok 1 - spun
echo ok 2 - still spun
SH
chmod +x spin.sh
out=$V28/out
"$FLAKESWEEP" --driver tap --cpu 1 --load 16 --count 100000 --canaries 0 --ui none -o "$out" -- ./spin.sh \
	>"$V28/sweep.out" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for i in $(seq 600); do
	grep -q '"phase":"sweep"' "$out/journal.jsonl" 2>/dev/null && [ -S "$out/control.sock" ] && break
	kill -0 $pid 2>/dev/null || { cat "$V28/sweep.out"; fail "the sweep ended before its sweep phase"; }
	sleep 0.1
done
grep -q '"phase":"sweep"' "$out/journal.jsonl" || fail "no sweep phase after 60 s"
sleep 2
rc=0
probe "$out/control.sock" 200 nosuch || rc=$?
probe "$out/control.sock" 100 resume || rc=$?
echo "runs finished meanwhile: $(grep -c '"type":"run"' "$out/journal.jsonl")"
stop_sweep "$out/control.sock"
wait $pid || true
trap - EXIT
[ $rc = 0 ] || fail "a request got no answer in time"
echo "PASS"
