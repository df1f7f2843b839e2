#!/bin/bash
# SPDX-License-Identifier: MIT
# Dispatch benchmark (DESIGN section 11): runs of the same one-test Go
# binary at parallelism P, in one run, by flakesweep (--cpu 1 --load 1, so
# one lane per core), by golang-stress -p P, and by a bare posix_spawn
# loop (the floor); prints runs per second and the ratios. Also the
# journal's bytes per run and flakesweep's peak RSS.
#
# Usage: bench/dispatch.sh [RUNS] (from a build directory; default 3000)
# Targets: flakesweep >= 1.5x golang-stress and >= 0.8x the floor.
set -eu
runs=${1:-3000}
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$PWD}
fs=$build/flakesweep
loop=$build/bench/spawnloop
[ -x "$fs" ] || { echo "run from the build directory (no ./flakesweep)" >&2; exit 2; }
[ -x "$loop" ] || { echo "build the floor first: make bench/spawnloop" >&2; exit 2; }
command -v golang-stress >/dev/null || { echo "needs golang-stress (golang-golang-x-tools)" >&2; exit 2; }
p=$(nproc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$here/onetest" "$work/onetest"
cd "$work/onetest"
go test -c -o "$work/one.test" . >/dev/null
bin="$work/one.test"
args=(-test.v -test.paniconexit0 -test.count=1 -test.cpu=1 -test.timeout=2m)

# flakesweep: the sweep phase only, timed from the journal's phase lines.
# Its own peak RSS (VmHWM), polled: wait4's figure would include the Go
# build it runs.
"$fs" --cpu 1 --load 1 --count "$runs" --confirm 0 --no-race --ui none -o "$work/out" ./... \
	>/dev/null 2>&1 &
pid=$!
rss=0
while kill -0 "$pid" 2>/dev/null; do
	hwm=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
	[ -n "$hwm" ] && rss=$hwm
	sleep 0.2
done
wait "$pid" || true
fs_rate=$(python3 - "$work/out/journal.jsonl" "$runs" <<'PY'
import json, sys
t = {}
n = 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("type") == "phase":
        t[d["phase"]] = d["at_ms"]
    if d.get("type") == "run":
        n += 1
print("%.1f" % (n / ((t["done"] - t["sweep"]) / 1000.0)))
PY
)
bytes=$(stat -c %s "$work/out/journal.jsonl")

# golang-stress reports its count every 5 s; run it for a fixed time.
secs=$(python3 -c "print(max(10, int($runs / float($fs_rate) + 0.5)))")
timeout -s INT "$((secs + 1))" golang-stress -p "$p" "$bin" "${args[@]}" >"$work/stress.log" 2>&1 || true
stress_rate=$(awk '/runs so far/ { t = $1; sub(/s:$/, "", t); n = $2 } END { if (t > 0) printf "%.1f", n / t }' "$work/stress.log")

floor_rate=$("$loop" "$p" "$runs" "$bin" "${args[@]}")

python3 - "$p" "$runs" "$fs_rate" "$stress_rate" "$floor_rate" "$bytes" "$rss" <<'PY'
import sys
p, runs, fs, stress, floor, nbytes, rss = sys.argv[1:]
fs, stress, floor = float(fs), float(stress or 0), float(floor)
print("dispatch, one-test Go binary, parallelism %s, %s runs" % (p, runs))
print("  %-28s %8.1f runs/s" % ("flakesweep --cpu 1 --load 1", fs))
print("  %-28s %8.1f runs/s" % ("golang-stress -p %s" % p, stress))
print("  %-28s %8.1f runs/s" % ("posix_spawn loop (floor)", floor))
print("ratio flakesweep / golang-stress: %.2f (target >= 1.50)" % (fs / stress if stress else float("nan")))
print("ratio flakesweep / floor:         %.2f (target >= 0.80)" % (fs / floor))
print("journal: %.0f bytes per run (target < 200)" % (int(nbytes) / int(runs)))
print("flakesweep peak RSS (VmHWM): %.1f MiB" % (int(rss) / 1024.0))
PY
