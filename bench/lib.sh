# SPDX-License-Identifier: MIT
# bench/lib.sh: what every benchmark here starts with, sourced from a
# build directory: $here (this folder), $fs (the build's flakesweep,
# refused when missing), $work (a scratch directory removed at exit; a
# script with more to clean sets its own EXIT trap after sourcing) and
# bench_faketap, which compiles bench/faketap.c to $work/faketap.
here=$(cd "$(dirname "$0")" && pwd)
build=${BUILD:-$PWD}
fs=$build/flakesweep
[ -x "$fs" ] || { echo "run from the build directory (no ./flakesweep)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

bench_faketap() {
	cc -O2 -o "$work/faketap" "$here/faketap.c"
}

# bench_sweep_rate JOURNAL: the runs per second of a sweep's sweep phase,
# its run lines over the time from its sweep phase line to its confirm one.
bench_sweep_rate() {
	python3 - "$1" <<'PY'
import json, sys
t, n = {}, 0
for line in open(sys.argv[1]):
    d = json.loads(line)
    if d.get("type") == "phase":
        t[d["phase"]] = d["at_ms"]
    elif d.get("type") == "run":
        n += 1
print("%.1f" % (n / ((t["confirm"] - t["sweep"]) / 1000.0)))
PY
}
