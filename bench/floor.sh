#!/bin/bash
# SPDX-License-Identifier: MIT
# flakesweep against the floor (issue 28), every figure measured in this
# one run, ROUNDS times each, flakesweep and the floor in turn, medians
# printed with the ratios:
#  - own CPU per run: flakesweep's CPU time (every thread, not its
#    children: bench/own.py) over its run lines, for a sweep of a static
#    one-point TAP binary (bench/tapone.c) at --cpu 1 --load 2, against
#    bench/spawnloop (a bare posix_spawn loop that pins each run to a core
#    and reads its output to the end) keeping as many in flight;
#  - runs/s of runs sleeping 20 ms with 32 in flight (--cpu 1 --load
#    32/cores) and with 256 (or, where --load's limit of 64 leaves fewer,
#    as many as it allows), against the floor with as many in flight;
#  - the control socket's reply latency, median and p99, during a sweep
#    at --cpu 1 --load 16 of runs that spin 5 ms of CPU, against a
#    trivial echo server on a unix socket probed at the same time
#    (bench/sockprobe.py).
# The host's other work falls on both sides alike; on a shared machine
# run it more than once.
#
# Usage: bench/floor.sh [RUNS [ROUNDS [SECS]]] (from a build directory;
# default 2000 runs a round, 3 rounds, 10 s of probes a round)
# Targets: own CPU <= 2x the floor; runs/s >= 0.9x the floor at 32 and
# 256 in flight; control p99 <= 10 ms or <= 2x the echo server's.
set -eu
runs=${1:-2000}
rounds=${2:-3}
secs=${3:-10}
. "$(dirname "$0")/lib.sh"
loop=$build/bench/spawnloop
[ -x "$loop" ] || { echo "build the floor first: make bench/spawnloop" >&2; exit 2; }
cc -O2 -static -o "$work/tapone" "$here/tapone.c" 2>/dev/null ||
	cc -O2 -o "$work/tapone" "$here/tapone.c"
cores=$(nproc)
load256=$((256 / cores > 64 ? 64 : 256 / cores))
load32=$((32 / cores > 64 ? 64 : (32 / cores > 0 ? 32 / cores : 1)))
: >"$work/rows"

# sweep NAME LOAD MODE MS: a sweep of tapone; prints "RUNS_PER_S OWN_MS_PER_RUN".
sweep() {
	local out=$work/$1
	python3 "$here/own.py" "$work/own" - "$out/journal.jsonl" "$fs" --driver tap --keep 0 \
		--cpu 1 --load "$2" --count "$runs" --confirm 0 --ui none -o "$out" \
		-- "$work/tapone" "$3" "$4" >/dev/null 2>&1 || true
	read -r own _ <"$work/own"
	echo "$(bench_sweep_rate "$out/journal.jsonl")" \
		"$(awk -v own="$own" '/"type":"run"/ { n++ } END { printf "%.4f", own / n }' "$out/journal.jsonl")"
	rm -rf "$out"
}

for r in $(seq "$rounds"); do
	echo "cpu fs $(sweep cpu$r 2 sleep 0)" >>"$work/rows"
	echo "cpu floor $("$loop" $((cores * 2)) "$runs" "$work/tapone" sleep 0)" >>"$work/rows"
	echo "r32 floor $("$loop" $((cores * load32)) "$runs" "$work/tapone" sleep 20)" >>"$work/rows"
	echo "r32 fs $(sweep r32-$r "$load32" sleep 20)" >>"$work/rows"
	echo "r256 fs $(sweep r256-$r "$load256" sleep 20)" >>"$work/rows"
	echo "r256 floor $("$loop" $((cores * load256)) "$runs" "$work/tapone" sleep 20)" >>"$work/rows"
	echo "sock both $(bench_probe "$work/sock$r" "$work/tapone" "$secs")" >>"$work/rows"
done

python3 - "$work/rows" "$cores" "$runs" "$rounds" $((cores * 2)) $((cores * load32)) \
	$((cores * load256)) <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
cores, runs, rounds, p4, p32, p256 = sys.argv[2:8]
def col(fig, who, i):
    return [float(r[i]) for r in rows if r[0] == fig and r[1] == who]
def med(v):
    v = [x for x in v if x == x]
    return statistics.median(v) if v else float("nan")
def show(v, fmt):
    return " ".join(fmt % x for x in v)
print("flakesweep against the floor: %s cores, %s runs a round, %s rounds, load avg %s" % (
    cores, runs, rounds, open("/proc/loadavg").read().split()[0]))
fs, fl = col("cpu", "fs", 3), col("cpu", "floor", 3)
print("own CPU per run, one-point TAP binary, %s in flight:" % p4)
print("  flakesweep %.4f ms (rounds %s)" % (med(fs), show(fs, "%.4f")))
print("  floor      %.4f ms (rounds %s)" % (med(fl), show(fl, "%.4f")))
print("  ratio %.2f (target <= 2)" % (med(fs) / med(fl)))
for fig, p in (("r32", p32), ("r256", p256)):
    fs, fl = col(fig, "fs", 2), col(fig, "floor", 2)
    fso, flo = col(fig, "fs", 3), col(fig, "floor", 3)
    print("runs/s, runs sleeping 20 ms, %s in flight:" % p)
    print("  flakesweep %.1f (rounds %s); own CPU %.4f ms a run" % (med(fs), show(fs, "%.1f"), med(fso)))
    print("  floor      %.1f (rounds %s); own CPU %.4f ms a run" % (med(fl), show(fl, "%.1f"), med(flo)))
    print("  ratio %.2f (target >= 0.9)" % (med(fs) / med(fl)))
c50, c99, e50, e99, n = (col("sock", "both", i) for i in range(2, 7))
print("reply latency during a load-16 sweep of runs spinning 5 ms (%d probes a round):" % med(n))
print("  control socket median %.2f ms, p99 %.2f ms (rounds' p99 %s)" % (med(c50), med(c99), show(c99, "%.1f")))
print("  echo server    median %.2f ms, p99 %.2f ms (rounds' p99 %s)" % (med(e50), med(e99), show(e99, "%.1f")))
print("  p99 ratio %.2f (target: p99 <= 10 ms or ratio <= 2)" % (med(c99) / med(e99)))
PY
