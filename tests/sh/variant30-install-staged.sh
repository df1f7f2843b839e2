#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# An install staged with make install DESTDIR= runs a pytest sweep from
# its staged place with its own plugin, CPU shim and canary program.
# flakesweep(1), The pytest driver: the plugin flakesweep_ledger.py is "put
# first on the run's PYTHONPATH from the directory FLAKESWEEP_DATADIR
# names; else, for a flakesweep binary run from its build tree, the source
# tree's data; else the package data directory (share/flakesweep) below
# the prefix the binary is installed in, which also finds an install
# staged with make install DESTDIR=dir or moved whole"; "The reproduce
# commands run from the root with the plugin's directory on PYTHONPATH".
# FILES: "pkglibdir/flakesweep-cpu.so" and "pkglibdir/flakesweep-canary"
# are found "in an install moved with its prefix, the same path below the
# new one" (a staged install is its prefix below DESTDIR). Pinning: every
# run of a driver other than Go gets the shim "added to LD_PRELOAD",
# "Python's os.cpu_count ... are c too", "The direct reproduce commands
# set the same LD_PRELOAD". Canaries: canary runs of flakesweep-canary,
# "where it is missing, flakesweep's own subcommand canary".
# The configured prefix may hold another install: none of its files, nor
# the build tree's or the source tree's, may be used. The staged canary
# program is wrapped by a script that notes each start. A pytest file
# whose first test writes down, in every run, os.cpu_count(), the run's
# cores, LD_PRELOAD, the shims mapped (/proc/self/maps), PYTHONPATH and
# the plugin's file, and whose second test always fails, is swept at cpu
# 1 with FLAKESWEEP_DATADIR unset.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
T=$CHECK_TMPDIR
[ "$("$py" -c 'import os; print(len(os.sched_getaffinity(0)) >= 2 and os.cpu_count() >= 2)')" = True ] ||
	{ echo "SKIP one usable core: cpu 1 would be the machine's count with or without the shim"; exit 77; }
. "$CHECK_SRCDIR/tests/lib/variant30-install.sh"
stage_install "$T/stage"
share=$(cd "$root" && find . -path '*/flakesweep/flakesweep_ledger.py')
[ -n "$share" ] || { echo "FAIL: the install has no flakesweep_ledger.py below its prefix"; exit 1; }
share=$root/$(dirname "${share#./}")
wrap_canary "$root" "$T/canary-starts"

mkdir -p "$T/proj" "$T/obs"
cd "$T/proj"
cat >test_probe.py <<PY
import json, os, sys

OBS = "$T/obs"


def test_observe():
    maps = sorted({l.split()[-1] for l in open("/proc/self/maps") if "flakesweep-cpu" in l})
    ledger = sys.modules.get("flakesweep_ledger")
    obs = {"cpu_count": os.cpu_count(), "affinity": len(os.sched_getaffinity(0)),
           "preload": os.environ.get("LD_PRELOAD", ""), "maps": maps,
           "pythonpath": os.environ.get("PYTHONPATH", ""),
           "plugin": os.path.realpath(ledger.__file__) if ledger else None}
    name = os.path.join(OBS, "%d.json" % os.getpid())
    json.dump(obs, open(name, "w"))
    assert obs["cpu_count"] == obs["affinity"]


def test_marker():
    assert False, "always"
PY
unset LD_PRELOAD FLAKESWEEP_CPU_SHIM FLAKESWEEP_DATADIR PYTEST_ADDOPTS PYTHONPATH
export FLAKESWEEP_PYTHON=$py PYTHONDONTWRITEBYTECODE=1
rc=0
"$root/bin/flakesweep" --driver pytest --cpu 1 --load 1 --count 3 --confirm 0 --timeout 30s \
	--ui none -o "$T/out" >"$T/stdout" 2>"$T/stderr" || rc=$?
[ "$rc" = 1 ] || cat "$T/stderr" "$T/stdout"
sweep_ok "$rc" "$T/out"

"$py" - "$T" "$root/$lib" "$share" <<'PY'
import json, os, sys
T, lib, share = sys.argv[1:]
shim = os.path.join(lib, "flakesweep-cpu.so")
bad = []
obs = [json.load(open(os.path.join(T, "obs", f))) for f in os.listdir(os.path.join(T, "obs"))]
if len(obs) != 3:
    bad.append("%d runs observed, expected 3" % len(obs))
for o in obs:
    if (o["cpu_count"], o["affinity"]) != (1, 1):
        bad.append("os.cpu_count() %s on %d cores" % (o["cpu_count"], o["affinity"]))
    if [p for p in o["preload"].replace(":", " ").split() if p] != [shim]:
        bad.append("LD_PRELOAD %r, expected %s alone" % (o["preload"], shim))
    if o["maps"] != [shim]:
        bad.append("shims mapped %s, expected %s" % (o["maps"], shim))
    if o["pythonpath"].split(":")[0] != share:
        bad.append("PYTHONPATH %r does not start with %s" % (o["pythonpath"], share))
    if o["plugin"] != os.path.realpath(os.path.join(share, "flakesweep_ledger.py")):
        bad.append("the plugin loaded is %s, not %s's" % (o["plugin"], share))
journal = [json.loads(l) for l in open(os.path.join(T, "out", "journal.jsonl"))]
ncanary = sum(1 for o in journal if o["type"] == "canary")
path = os.path.join(T, "canary-starts")
starts = open(path).read().split() if os.path.exists(path) else []
if ncanary < 3 or len(starts) != ncanary or set(starts) != {os.path.join(lib, "flakesweep-canary")}:
    bad.append("%d canary runs, started from the staged program: %s" % (ncanary, starts))
res = json.load(open(os.path.join(T, "out", "results.json")))
if res["harness"]["clean"] is not True:
    bad.append("harness not clean: %s" % res["harness"]["reasons"])
[marker] = [t for t in res["tests"] if t["test"].endswith("::test_marker")]
if marker["verdict"] != "failing":
    bad.append("test_marker: %s" % marker["verdict"])
[observe] = [t for t in res["tests"] if t["test"].endswith("::test_observe")]
if observe["verdict"] != "passed":
    bad.append("test_observe: %s: %s" % (observe["verdict"], (observe["first_failure"] or {}).get("lines")))
rep = marker["reproduce"]
if "PYTHONPATH=" + share not in rep["direct"]:
    bad.append("the direct reproduce line has not %s on PYTHONPATH: %s" % (share, rep["direct"]))
if "LD_PRELOAD=" + shim not in rep["direct"]:
    bad.append("the direct reproduce line does not preload %s: %s" % (shim, rep["direct"]))
for b in bad:
    print("FAIL: " + b)
sys.exit(1 if bad else 0)
PY
