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

# bench_probe OUT TAPONE SECS: the control socket's and a trivial echo
# server's reply latencies (bench/sockprobe.py) for SECS seconds of a
# --load 16 sweep into OUT of TAPONE (bench/tapone.c) spinning 5 ms of
# CPU a run; prints "CONTROL_P50 CONTROL_P99 ECHO_P50 ECHO_P99 PROBES".
bench_probe() {
	local out=$1 pid i
	"$fs" --driver tap --keep 0 --cpu 1 --load 16 --count 1000000 --confirm 0 --ui none \
		-o "$out" -- "$2" spin 5 >/dev/null 2>&1 &
	pid=$!
	for i in $(seq 600); do
		[ -S "$out/control.sock" ] && grep -q '"phase":"sweep"' "$out/journal.jsonl" 2>/dev/null && break
		sleep 0.1
	done
	sleep 1
	python3 "$here/sockprobe.py" "$out/control.sock" "$3" || echo "nan nan nan nan 0"
	kill -TERM "$pid" 2>/dev/null || true
	wait "$pid" || true
	rm -rf "$out"
}
