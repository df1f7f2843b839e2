#!/bin/bash
# SPDX-License-Identifier: MIT
# The control socket's reply latency against a trivial echo server on a
# unix socket probed at the same time (bench/sockprobe.py), during a sweep
# at --cpu 1 --load 16 of runs that spin 5 ms of CPU: floor.sh's last
# figure alone, ROUNDS times, medians printed with the load average.
#
# Usage: bench/control.sh [ROUNDS [SECS]] (from a build directory; default
# 3 rounds of 10 s of probes)
# Target: control p99 <= 10 ms or <= 2x the echo server's.
set -eu
rounds=${1:-3}
secs=${2:-10}
. "$(dirname "$0")/lib.sh"
cc -O2 -static -o "$work/tapone" "$here/tapone.c" 2>/dev/null ||
	cc -O2 -o "$work/tapone" "$here/tapone.c"
for r in $(seq "$rounds"); do
	bench_probe "$work/sock$r" "$work/tapone" "$secs" >>"$work/rows"
done
python3 - "$work/rows" <<'PY'
import statistics, sys
rows = [[float(x) for x in l.split()] for l in open(sys.argv[1])]
def med(i):
    v = [r[i] for r in rows if r[i] == r[i]]
    return statistics.median(v) if v else float("nan")
print("reply latency during a load-16 sweep of runs spinning 5 ms, %d rounds of %d probes, load avg %s:"
      % (len(rows), med(4), open("/proc/loadavg").read().split()[0]))
print("  control socket median %.2f ms, p99 %.2f ms (rounds' p99 %s)"
      % (med(0), med(1), " ".join("%.1f" % r[1] for r in rows)))
print("  echo server    median %.2f ms, p99 %.2f ms (rounds' p99 %s)"
      % (med(2), med(3), " ".join("%.1f" % r[3] for r in rows)))
print("  p99 ratio %.2f (target: p99 <= 10 ms or ratio <= 2)" % (med(1) / med(3)))
PY
