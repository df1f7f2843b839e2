#!/bin/bash
# SPDX-License-Identifier: MIT
# Cost of the canaries: the same sweep of a fast fake TAP binary
# (bench/faketap.c, 0 ms: dispatch-bound, the worst case for a budget
# counted in runs) by this flakesweep with the default canaries (1%, at
# least 3 a pair) and with --canaries 0, alternating three times each.
# Runs per second count the project's runs only (the journal's run
# lines) over the sweep phase (its phase lines), so the canaries' time is
# the cost; prints each, the medians and their ratio, and the canaries'
# share of the run time the journal records (steadier on a busy host).
#
# Usage: bench/canary-cost.sh [RUNS] [EXTRA OPTIONS...] (from a build
# directory; default 2000 runs at --cpu 1 --load 1)
set -eu
runs=${1:-2000}
shift || true
. "$(dirname "$0")/lib.sh"
bench_faketap

# rate NAME CANARIES: project runs per second of the sweep phase, and the
# canary runs it made.
rate() {
	"$fs" --driver tap --cpu 1 --load 1 --count "$runs" --confirm 0 --ui none \
		--canaries "$2" "${extra[@]}" -o "$work/$1" -- "$work/faketap" 0 >/dev/null 2>&1 || true
	python3 - "$work/$1/journal.jsonl" <<'PY'
import json, sys
t, n, c, rms, cms = {}, 0, 0, 0, 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("type") == "phase":
        t[d["phase"]] = d["at_ms"]
    elif d.get("type") == "run":
        n += 1
        rms += d["ms"]
    elif d.get("type") == "canary":
        c += 1
        cms += d["ms"]
print("%.1f:%d:%.4f" % (n / ((t["confirm"] - t["sweep"]) / 1000.0), c, cms / max(rms + cms, 1)))
PY
}

extra=("$@")
with=() without=() canaries=0 shares=()
for i in 1 2 3; do
	r=$(rate "with$i" 1%)
	with+=("${r%%:*}")
	r=${r#*:}
	canaries=${r%%:*}
	shares+=("${r#*:}")
	r=$(rate "without$i" 0)
	without+=("${r%%:*}")
done
python3 - "${with[*]}" "${without[*]}" "$canaries" "$runs" "${shares[*]}" <<'PY'
import statistics, sys
w = [float(x) for x in sys.argv[1].split()]
b = [float(x) for x in sys.argv[2].split()]
s = [float(x) for x in sys.argv[5].split()]
print("canary runs per sweep: %s for %s project runs" % (sys.argv[3], sys.argv[4]))
print("canaries' share of the lanes' run time (journal ms): median %.1f%%" % (100 * statistics.median(s)))
print("runs/s with canaries (1%%):     %s (median %.1f)" % (w, statistics.median(w)))
print("runs/s without (--canaries 0): %s (median %.1f)" % (b, statistics.median(b)))
print("ratio with/without: %.3f" % (statistics.median(w) / statistics.median(b)))
PY
