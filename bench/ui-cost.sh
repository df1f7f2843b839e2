#!/bin/bash
# SPDX-License-Identifier: MIT
# Dashboard cost benchmark (DESIGN section 11): the same sweep of a fast
# fake TAP binary (bench/faketap.c, runs finishing at about RATE per
# second) twice, with --ui none and with --ui full in a 120x40 tmux
# terminal, and flakesweep's own CPU time in each (utime + stime of the
# process, not of its runs, from /proc at the moment the sweep ends).
# Prints the runs per second reached, both CPU times, their ratio, and
# the dashboard's cost as a share of one core: (full - none) / wall time.
#
# Usage: bench/ui-cost.sh [RUNS [RATE]] (from a build directory; default
# 3000 runs at 100 per second)
# Target: the dashboard costs under 5% of one core.
set -eu
runs=${1:-3000}
rate=${2:-100}
. "$(dirname "$0")/lib.sh"
command -v tmux >/dev/null || { echo "needs tmux" >&2; exit 2; }
sock="fs-bench-$$"
trap 'tmux -L "$sock" kill-server >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
bench_faketap
# One lane per core at cpu 1 load 1: P runs at once, each sleeping P/RATE s.
p=$(nproc)
ms=$((p * 1000 / rate))
pairs=1
count=$((runs / pairs))

# cpu_at_end OUTDIR PID: flakesweep's CPU seconds when the journal's end
# line appears.
cpu_at_end() {
	local out=$1 pid=$2 ticks=0 t hz
	hz=$(getconf CLK_TCK)
	while :; do
		t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null || true)
		[ -n "$t" ] && ticks=$t
		grep -q '"type":"end"' "$out/journal.jsonl" 2>/dev/null && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	python3 -c "print('%.2f' % (${ticks:-0} / float($hz)))"
}
# wall OUTDIR: seconds from the sweep phase to the end, from the journal.
wall() {
	python3 - "$1/journal.jsonl" <<'PY'
import json, sys
t = {}
n = 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("type") == "phase":
        t[d["phase"]] = d["at_ms"]
    if d.get("type") == "run":
        n += 1
print("%.2f %d" % ((t["done"] - t["sweep"]) / 1000.0, n))
PY
}
args=(--driver tap --keep 0 --cpu 1 --load 1 --count "$count" --confirm 0)

# Calibration: each run costs its sleep plus the spawn; on a loaded
# machine the spawn alone is milliseconds, so measure it and sleep less.
"$fs" --driver tap --keep 0 --cpu 1 --load 1 --count 200 --confirm 0 --ui none \
	-o "$work/calib" -- "$work/faketap" "$ms" >/dev/null 2>&1 || true
read -r cw cn <<<"$(wall "$work/calib")"
ms=$(python3 -c "
got = $cn / $cw
over = $p / got - $ms / 1000.0
print(max(0, int(1000 * ($p / float($rate) - over))))")
echo "calibrated: each run sleeps $ms ms"

# --ui none
"$fs" "${args[@]}" --ui none -o "$work/none" -- "$work/faketap" "$ms" >/dev/null 2>&1 &
pid=$!
sleep 0.2
none_cpu=$(cpu_at_end "$work/none" "$pid")
wait "$pid" || true
read -r none_wall none_runs <<<"$(wall "$work/none")"

# --ui full in a 120x40 terminal
tmux -L "$sock" -f /dev/null new-session -d -s bench -x 120 -y 40 \
	"LANG=C.UTF-8 $fs ${args[*]} --ui full -o $work/full -- $work/faketap $ms; sleep 60"
for _ in $(seq 100); do
	pid=$(pgrep -P "$(tmux -L "$sock" display-message -p -t bench '#{pane_pid}')" flakesweep || true)
	[ -n "$pid" ] && break
	sleep 0.05
done
[ -n "$pid" ] || { echo "the dashboard did not start" >&2; exit 1; }
full_cpu=$(cpu_at_end "$work/full" "$pid")
screen=$(tmux -L "$sock" capture-pane -p -t bench)
tmux -L "$sock" send-keys -t bench q
read -r full_wall full_runs <<<"$(wall "$work/full")"

python3 - "$p" "$runs" "$rate" "$none_cpu" "$none_wall" "$none_runs" "$full_cpu" "$full_wall" "$full_runs" <<'PY'
import sys
p, runs, rate = sys.argv[1:4]
nc, nw, nr, fc, fw, fr = map(float, sys.argv[4:])
print("dashboard cost, fake TAP binary, %s lanes, %s runs at about %s/s" % (p, runs, rate))
print("  %-14s %7.1f runs/s  flakesweep CPU %6.2f s in %6.2f s" % ("--ui none", nr / nw, nc, nw))
print("  %-14s %7.1f runs/s  flakesweep CPU %6.2f s in %6.2f s" % ("--ui full", fr / fw, fc, fw))
print("ratio CPU full / none: %.2f" % (fc / nc if nc else float("nan")))
print("dashboard cost: %.2f%% of one core (target < 5%%)" % (100.0 * (fc - nc) / fw))
PY
echo "--- the dashboard at the end:"
echo "$screen"
