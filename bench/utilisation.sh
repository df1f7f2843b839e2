#!/bin/bash
# SPDX-License-Identifier: MIT
# Lane utilisation benchmark (DESIGN section 11): a sweep of a fake TAP
# binary (bench/faketap.c) whose runs sleep MS milliseconds, at the default
# pairs (--cpu 1,2 --load 1,2) and at --cpu 1,2 --load 1, and the share of
# the machine's cores its runs had, from the journal: each run's ms times
# its cpu over its load, summed, over cores x the sweep phase's wall time
# (its phase lines); then the same with the canaries' runs, which hold
# lane slots too. Runs that sleep spend no CPU, so a busy machine delays
# their spawns but not their sleep. With BEFORE=PATH (another flakesweep
# binary) it measures that one too, first.
#
# Usage: bench/utilisation.sh [COUNT [MS]] (from a build directory;
# default 100 runs a pair of 50 ms)
# Target: at least 95% with the default pairs, with runs of 50 ms and 1 s.
set -eu
count=${1:-100}
ms=${2:-50}
. "$(dirname "$0")/lib.sh"
bench_faketap

# share NAME BINARY CPUS LOADS: "NAME cpu CPUS load LOADS: U of the cores
# (V with the canaries)".
share() {
	local out=$work/$1-$3-$4
	"$2" --driver tap --keep 0 --cpu "$3" --load "$4" --count "$count" --confirm 0 \
		--ui none -o "$out" -- "$work/faketap" "$ms" >/dev/null 2>&1 || true
	python3 - "$out/journal.jsonl" "$1" "$3" "$4" <<'PY'
import json, sys
t, used, canaries, cores = {}, 0.0, 0.0, 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("type") == "header":
        cores = sum(len(l) for l in d["machine"]["lanes"])
    if d.get("type") == "phase":
        t[d["phase"]] = d["at_ms"]
    if d.get("type") == "run" and d.get("phase", "sweep") == "sweep":
        used += d["ms"] * d["cpu"] / d["load"]
    if d.get("type") == "canary":
        canaries += d["ms"] * d["cpu"] / d["load"]
end = t.get("confirm", t.get("done"))
wall = cores * (end - t["sweep"])
print("%-6s cpu %s load %s: %.3f of the cores (%.3f with the canaries)" % (sys.argv[2],
      sys.argv[3], sys.argv[4], used / wall, (used + canaries) / wall))
PY
}
for pairs in "1,2 1,2" "1,2 1"; do
	set -- $pairs
	[ -n "${BEFORE:-}" ] && share before "$BEFORE" "$1" "$2"
	share after "$fs" "$1" "$2"
done
