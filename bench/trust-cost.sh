#!/bin/bash
# SPDX-License-Identifier: MIT
# Cost of trusting the measurement: the same sweep of a fast fake TAP
# binary (bench/faketap.c, 0 ms: dispatch-bound, the worst case for
# per-run work) by this flakesweep and by BASELINE, a flakesweep built
# without host noise accounting (and canaries), alternating three times
# each. Runs per second come from the journal's phase lines (the sweep
# phase only); prints each, the medians and their ratio.
#
# Usage: bench/trust-cost.sh BASELINE [RUNS] (from a build directory;
# default 2000 runs)
set -eu
base=${1:?usage: bench/trust-cost.sh BASELINE [RUNS]}
runs=${2:-2000}
. "$(dirname "$0")/lib.sh"
bench_faketap

# rate BIN NAME: runs per second of the sweep phase.
rate() {
	"$1" --driver tap --cpu 1 --load 1 --count "$runs" --confirm 0 --ui none \
		-o "$work/$2" -- "$work/faketap" 0 >/dev/null 2>&1 || true
	bench_sweep_rate "$work/$2/journal.jsonl"
}

with=() without=()
for i in 1 2 3; do
	with+=("$(rate "$fs" "with$i")")
	without+=("$(rate "$base" "without$i")")
done
python3 - "${with[*]}" "${without[*]}" <<'PY'
import statistics, sys
w = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
print("runs/s with noise accounting:    %s (median %.1f)" % (w, statistics.median(w)))
print("runs/s without (baseline):       %s (median %.1f)" % (b, statistics.median(b)))
print("ratio with/without: %.3f" % (statistics.median(w) / statistics.median(b)))
PY
