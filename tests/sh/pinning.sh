#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Lane packing at this machine's real width: a TAP sweep of a probe at
# every cpu that fits (1,2,4,...) and load 1,2. Each run must be born
# pinned to exactly its cpu cores, all in its lane, told the same count
# (FLAKESWEEP_CPU, nproc), and no core may ever hold more runs than its
# lane's load, nor a lane mix loads.
set -eu
n=$(nproc)
cpus=1
for c in 2 4 8; do [ "$c" -le "$n" ] && cpus="$cpus,$c"; done
export PROBE_DIR=$CHECK_TMPDIR/probe
mkdir -p "$PROBE_DIR"
cd "$CHECK_TMPDIR"
"$FLAKESWEEP" --driver tap --cpu "$cpus" --load 1,2 --count 8 --confirm 0 --timeout 20s \
	--ui none -o "$CHECK_TMPDIR/out" -- sh "$CHECK_SRCDIR/tests/fixtures/tap/probe.sh" >/dev/null
python3 - "$CHECK_TMPDIR/out" "$PROBE_DIR" "$cpus" <<'PY'
import json, os, sys
out, pdir, cpus = sys.argv[1:]
probe = {}
for f in os.listdir(pdir):
    run, cpu, allowed, start, end, nproc = open(os.path.join(pdir, f)).read().split()
    cores = set()
    for part in allowed.split(","):
        a, _, b = part.partition("-")
        cores |= set(range(int(a), int(b or a) + 1))
    probe[int(run)] = (int(cpu), cores, int(start), int(end), int(nproc))
res = json.load(open(os.path.join(out, "results.json")))
lanes = res["machine"]["lanes"]
runs = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl")) if '"type":"run"' in l]
want = len(cpus.split(",")) * 2 * 8
bad = []
if len(runs) != want or len(probe) != want:
    bad.append("%d runs, %d probes, expected %d" % (len(runs), len(probe), want))
for r in runs:
    cpu, cores, s, e, nproc = probe[r["run"]]
    if not (cpu == r["cpu"] == len(cores) == nproc and cores <= set(lanes[r["lane"]])):
        bad.append("run %d (cpu %d, lane %d) got cores %s, nproc %d, FLAKESWEEP_CPU %d"
                   % (r["run"], r["cpu"], r["lane"], sorted(cores), nproc, cpu))
events = sorted([(probe[r["run"]][2], 1, r) for r in runs] +
                [(probe[r["run"]][3], -1, r) for r in runs], key=lambda x: (x[0], x[1]))
live, peak = {}, {}
for t, kind, r in events:
    if kind < 0:
        live.pop(r["run"])
        continue
    live[r["run"]] = r
    loads, per_core = {}, {}
    for x in live.values():
        loads.setdefault(x["lane"], set()).add(x["load"])
        for c in probe[x["run"]][1]:
            per_core[c] = per_core.get(c, 0) + 1
    for lane, ls in loads.items():
        if len(ls) > 1:
            bad.append("lane %d mixes loads %s" % (lane, sorted(ls)))
    for c, k in per_core.items():
        lane = [i for i, l in enumerate(lanes) if c in l][0]
        load = max(loads[lane])
        peak[load] = max(peak.get(load, 0), k)
        if k > load:
            bad.append("core %d holds %d runs at load %d" % (c, k, load))
if bad:
    print("FAIL:\n  " + "\n  ".join(sorted(set(bad))[:20])); sys.exit(1)
print("ok: %d runs pinned to their lane slots on lanes %s; peak runs per core by load %s"
      % (len(runs), lanes, peak))
PY
