#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# An install staged with make install DESTDIR= and then moved whole runs
# its own CPU shim and canary program (flakesweep(1), FILES):
# "pkglibdir/flakesweep-cpu.so The CPU shim (see Pinning); ... in an
# install moved with its prefix, the same path below the new one", and
# "pkglibdir/flakesweep-canary The canary runs' program (see Canaries);
# ... in an install moved with its prefix, the same path below the new
# one". Pinning: "Every run of a driver other than Go also gets the CPU
# shim, the library flakesweep-cpu.so, added to LD_PRELOAD", in the run
# "sysconf _SC_NPROCESSORS_ONLN ... answer the size of the run's CPU set
# ..., so ... Python's os.cpu_count ... are c too", "The direct reproduce
# commands set the same LD_PRELOAD". Canaries: "canary runs of
# flakesweep-canary, a small program that comes with it (see FILES; where
# it is missing, flakesweep's own subcommand canary ...)". Isolation:
# FLAKESWEEP_RUN "The run's id"; FLAKESWEEP_CPU "The run's CPU count".
# flakesweep(5): each canary run has a canary line; harness clean "False
# when a canary run was unexpected".
# The moved tree's canary program is wrapped by a script that notes each
# start, then runs the real one. A TAP command in Python, swept at cpu 1
# from the moved binary, checks in every run that os.cpu_count() is its
# FLAKESWEEP_CPU and writes down its LD_PRELOAD and the shims mapped into
# it (/proc/self/maps); its second test fails in run 1. Every run preloads
# and maps the moved tree's shim and no other (not the configured
# prefix's, which may hold another install, nor the build tree's), every
# canary run started the moved tree's program, the harness is clean and
# the reproduce line preloads the moved shim.
set -eu
T=$CHECK_TMPDIR
[ "$(python3 -c 'import os; print(len(os.sched_getaffinity(0)) >= 2 and os.cpu_count() >= 2)')" = True ] ||
	{ echo "SKIP one usable core: cpu 1 would be the machine's count with or without the shim"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/variant30-install.sh"
stage_install "$T/stage"
mkdir -p "$T/elsewhere"
mv "$root" "$T/elsewhere/tree"
rm -rf "$T/stage"
moved=$T/elsewhere/tree
shim=$lib/flakesweep-cpu.so
wrap_canary "$moved" "$T/canary-starts"

mkdir -p "$T/proj" "$T/obs"
cd "$T/proj"
cat >probe.py <<'PY'
import json, os, sys
run = os.environ["FLAKESWEEP_RUN"]
maps = sorted({l.split()[-1] for l in open("/proc/self/maps") if "flakesweep-cpu" in l})
obs = {"cpu": os.environ.get("FLAKESWEEP_CPU"), "cpu_count": os.cpu_count(),
       "affinity": len(os.sched_getaffinity(0)), "preload": os.environ.get("LD_PRELOAD", ""),
       "maps": maps}
json.dump(obs, open(os.path.join(sys.argv[1], run + ".json"), "w"))
print("1..2")
ok = str(obs["cpu_count"]) == obs["cpu"]
print("%s 1 - cpu_count" % ("ok" if ok else "not ok"))
if not ok:
    print("# os.cpu_count() %s, FLAKESWEEP_CPU %s" % (obs["cpu_count"], obs["cpu"]))
print("%s 2 - marker" % ("not ok" if run == "1" else "ok"))
PY
unset LD_PRELOAD FLAKESWEEP_CPU_SHIM FLAKESWEEP_DATADIR
rc=0
"$moved/bin/flakesweep" --driver tap --cpu 1 --load 1 --count 4 --confirm 0 --timeout 30s \
	--ui none -o "$T/out" -- python3 probe.py "$T/obs" >"$T/stdout" 2>"$T/stderr" || rc=$?
[ "$rc" = 1 ] || cat "$T/stderr" "$T/stdout"
sweep_ok "$rc" "$T/out"

python3 - "$T" "$moved/$shim" "$moved/$lib/flakesweep-canary" <<'PY'
import json, os, sys
T, shim, canary = sys.argv[1:]
bad = []
obs = {int(f[:-5]): json.load(open(os.path.join(T, "obs", f))) for f in os.listdir(os.path.join(T, "obs"))}
if sorted(obs) != [1, 2, 3, 4]:
    bad.append("runs observed: %s" % sorted(obs))
for run, o in sorted(obs.items()):
    if (o["cpu"], o["cpu_count"], o["affinity"]) != ("1", 1, 1):
        bad.append("run %d: FLAKESWEEP_CPU %s, os.cpu_count() %s, %d cores" % (run, o["cpu"], o["cpu_count"], o["affinity"]))
    preloads = [p for p in o["preload"].replace(":", " ").split() if p]
    if preloads != [shim]:
        bad.append("run %d: LD_PRELOAD %r, expected %s alone" % (run, o["preload"], shim))
    if o["maps"] != [shim]:
        bad.append("run %d: shims mapped %s, expected %s" % (run, o["maps"], shim))
journal = [json.loads(l) for l in open(os.path.join(T, "out", "journal.jsonl"))]
ncanary = sum(1 for o in journal if o["type"] == "canary")
starts = open(os.path.join(T, "canary-starts")).read().split() if os.path.exists(os.path.join(T, "canary-starts")) else []
if ncanary < 3 or len(starts) != ncanary or set(starts) != {canary}:
    bad.append("%d canary runs, started from the moved tree's program: %s" % (ncanary, starts))
res = json.load(open(os.path.join(T, "out", "results.json")))
if res["harness"]["clean"] is not True:
    bad.append("harness not clean: %s" % res["harness"]["reasons"])
[marker] = [t for t in res["tests"] if t["id"].endswith("::marker")]
direct = marker["reproduce"]["direct"]
if "LD_PRELOAD=" + shim not in direct:
    bad.append("the direct reproduce line does not preload %s: %s" % (shim, direct))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
