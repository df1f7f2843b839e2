#!/bin/bash
# SPDX-License-Identifier: MIT
# Dispatch benchmark (DESIGN section 11): runs of the same one-test Go
# binary by flakesweep (--cpu 1 --load L: L runs on each core), by
# golang-stress -p P and by a bare posix_spawn loop keeping P in flight
# (the floor), P = cores x L, at load 1 and load 2. Each load runs three
# rounds in the orders ABC, BCA and CAB, so drift in the host's load falls
# on every launcher alike; the rates are the rounds' mean, and the ratios
# against both baselines come out of this one run. Also each launcher's
# own CPU time per run (its utime + stime, its children and flakesweep's
# builds apart), the journal's bytes per run and flakesweep's peak RSS.
#
# Usage: bench/dispatch.sh [RUNS] [LOADS] (from a build directory; default
# 3000 runs a round, loads "1 2")
# Targets, at load 1 and load 2: flakesweep >= 0.95x the floor and
# >= 1.1x golang-stress.
set -eu
runs=${1:-3000}
loads=${2:-1 2}
. "$(dirname "$0")/lib.sh"
loop=$build/bench/spawnloop
[ -x "$loop" ] || { echo "build the floor first: make bench/spawnloop" >&2; exit 2; }
command -v golang-stress >/dev/null || { echo "needs golang-stress (golang-golang-x-tools)" >&2; exit 2; }
cores=$(nproc)
cp -r "$here/onetest" "$work/onetest"
cd "$work/onetest"
go test -c -o "$work/one.test" . >/dev/null
bin="$work/one.test"
args=(-test.v -test.paniconexit0 -test.count=1 -test.cpu=1 -test.timeout=2m)

# bench/own.py: the launcher's own CPU time (every thread, not its
# children) and its peak RSS.
ownpy=$here/own.py

# Each prints "RATE OWN_MS_PER_RUN" (runs/s; ms of the launcher's CPU).
run_fs() { # LOAD
	local out=$work/out-$1-$round
	python3 "$ownpy" "$work/own" - "$out/journal.jsonl" "$fs" --cpu 1 --load "$1" --count "$runs" --confirm 0 \
		--no-race --ui none -o "$out" ./... >/dev/null 2>&1
	read -r own rss <"$work/own"
	echo "$rss" >"$work/rss-$1"
	stat -c %s "$out/journal.jsonl" >"$work/bytes-$1"
	python3 - "$out/journal.jsonl" "$own" <<'PY'
import json, sys
t = {}
n = 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("type") == "phase":
        t[d["phase"]] = d["at_ms"]
    if d.get("type") == "run":
        n += 1
secs = (t["done"] - t["sweep"]) / 1000.0
print("%.1f %.3f" % (n / secs, float(sys.argv[2]) / n))
PY
	rm -rf "$out"
}
# golang-stress has no run count: it runs for as long as flakesweep's last
# round took (at least 10 s) and reports its count every 5 s.
run_stress() { # LOAD
	local secs
	secs=$(python3 -c "r = float('${fs_last:-0}' or 0); print(max(10, int($runs / r) + 1 if r > 0 else 10))")
	python3 "$ownpy" "$work/own" "$((secs / 5 * 5 + 1))" - golang-stress -p "$((cores * $1))" \
		"$bin" "${args[@]}" >"$work/stress.log" 2>&1 || true
	read -r own rss <"$work/own"
	awk -v own="$own" '/runs so far/ { t = $1; sub(/s:$/, "", t); n = $2 }
		END { if (t > 0) printf "%.1f %.3f\n", n / t, own / n; else print "0 0" }' "$work/stress.log"
}
run_loop() { # LOAD
	echo "$("$loop" "$((cores * $1))" "$runs" "$bin" "${args[@]}") 0"
}

for load in $loads; do
	: >"$work/rates-$load"
	fs_last=
	for order in "fs stress loop" "stress loop fs" "loop fs stress"; do
		round=${order%% *}
		for who in $order; do
			r=$(run_$who "$load")
			[ "$who" = fs ] && fs_last=${r%% *}
			echo "$load $round $who $r" >>"$work/rates-$load"
		done
	done
done

python3 - "$cores" "$runs" "$work" "$loads" <<'PY'
import os, sys
cores, runs, work, loads = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4].split()
print("dispatch, one-test Go binary, %d cores, %s runs a round, rounds ABC BCA CAB" % (cores, runs))
print("load avg at the end: %s" % open("/proc/loadavg").read().split()[0])
for load in loads:
    rows = [l.split() for l in open("%s/rates-%s" % (work, load))]
    rate = {w: [float(r[3]) for r in rows if r[2] == w] for w in ("fs", "stress", "loop")}
    own = {w: [float(r[4]) for r in rows if r[2] == w] for w in ("fs", "stress", "loop")}
    mean = lambda v: sum(v) / len(v) if v else float("nan")
    p = cores * int(load)
    print("load %s (parallelism %d):" % (load, p))
    print("  %-30s %8.1f runs/s  own CPU %.3f ms/run  rounds %s" % (
        "flakesweep --cpu 1 --load %s" % load, mean(rate["fs"]), mean(own["fs"]),
        " ".join("%.1f" % x for x in rate["fs"])))
    print("  %-30s %8.1f runs/s  own CPU %.3f ms/run  rounds %s" % (
        "golang-stress -p %d" % p, mean(rate["stress"]), mean(own["stress"]),
        " ".join("%.1f" % x for x in rate["stress"])))
    print("  %-30s %8.1f runs/s                         rounds %s" % (
        "posix_spawn loop -p %d (floor)" % p, mean(rate["loop"]),
        " ".join("%.1f" % x for x in rate["loop"])))
    fs, st, fl = mean(rate["fs"]), mean(rate["stress"]), mean(rate["loop"])
    print("  ratio flakesweep / golang-stress: %.2f (target >= 1.10)" % (fs / st if st else float("nan")))
    print("  ratio flakesweep / floor:         %.2f (target >= 0.95)" % (fs / fl))
    print("  journal: %.0f bytes per run; flakesweep peak RSS (VmHWM) %.1f MiB" % (
        int(open("%s/bytes-%s" % (work, load)).read()) / int(runs),
        int(open("%s/rss-%s" % (work, load)).read()) / 1024.0))
PY
