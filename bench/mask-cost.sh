#!/bin/bash
# SPDX-License-Identifier: MIT
# Cost of masking secrets: the same sweep of a fast fake TAP binary
# (bench/faketap.c, 0 ms: dispatch-bound, where flakesweep's own work per
# run weighs most) by this flakesweep with 3 values to mask and with none,
# alternating five times each in one invocation, so drift in the host's
# load falls on both alike. Each sweep runs in an environment of its own
# (env -i): "with" has 3 secret-looking variables whose values begin like
# the lines the runs print (the masker compares at every such byte),
# "without" the same values under plain names. Prints runs per second of
# the sweep phase (the journal's run and phase lines) and flakesweep's own
# CPU time per run (its utime + stime, not its children's, read from its
# zombie), each side's medians and the ratios with/without.
#
# Usage: bench/mask-cost.sh [RUNS] [EXTRA OPTIONS...] (from a build
# directory; default 2000 runs at --cpu 1 --load 1)
set -eu
runs=${1:-2000}
shift || true
. "$(dirname "$0")/lib.sh"
bench_faketap
extra=("$@")

# own.py CMD...: runs CMD and prints its own CPU time in seconds.
cat >"$work/own.py" <<'PY'
import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open("/dev/null", os.O_WRONLY)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.execvp(sys.argv[1], sys.argv[1:])
os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
f = open("/proc/%d/stat" % pid).read()
fields = f[f.rindex(")") + 2:].split()
print((int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK"))
os.waitpid(pid, 0)
PY

# rate NAME MODE: "RUNS_PER_S CPU_US_PER_RUN" of one sweep.
rate() {
	local a b c cpu
	if [ "$2" = with ]; then
		a=BENCH_TOKEN b=BENCH_SECRET c=BENCH_PASSWORD
	else
		a=BENCH_PLAIN_A b=BENCH_PLAIN_B c=BENCH_PLAIN_C
	fi
	cpu=$(env -i PATH="$PATH" HOME="${HOME:-/}" "$a=case_11-value" "$b=ok 99 - value" \
		"$c=not ok 0 - value" python3 "$work/own.py" \
		"$fs" --driver tap --cpu 1 --load 1 --count "$runs" --confirm 0 --ui none \
		--canaries 0 "${extra[@]}" -o "$work/$1" -- "$work/faketap" 0)
	echo "$(bench_sweep_rate "$work/$1/journal.jsonl") $(python3 -c "print('%.1f' % ($cpu * 1e6 / $runs))")"
}

with=() without=()
for i in 1 2 3 4 5; do
	with+=("$(rate "with$i" with)")
	without+=("$(rate "without$i" without)")
done
python3 - "${with[*]}" "${without[*]}" "$runs" <<'PY'
import statistics, sys
def split(s):
    v = [float(x) for x in s.split()]
    return v[0::2], v[1::2]
wr, wc = split(sys.argv[1])
br, bc = split(sys.argv[2])
print("runs per sweep: %s (sweep phase, --cpu 1 --load 1, faketap 0 ms)" % sys.argv[3])
print("runs/s with 3 masked values: %s (median %.1f)" % (wr, statistics.median(wr)))
print("runs/s with none:            %s (median %.1f)" % (br, statistics.median(br)))
print("own CPU us/run with 3:       %s (median %.1f)" % (wc, statistics.median(wc)))
print("own CPU us/run with none:    %s (median %.1f)" % (bc, statistics.median(bc)))
print("ratio runs/s with/without:   %.3f" % (statistics.median(wr) / statistics.median(br)))
print("ratio CPU/run with/without:  %.3f" % (statistics.median(wc) / statistics.median(bc)))
PY
