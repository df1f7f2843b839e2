#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# An episode is named only where the failures still cluster in time within
# each set of cores the runs were pinned to (journals written by hand as a
# sweep writes them, then rebuilt). A machine of 4 cores cut into lanes
# [0,1] and [2,3]; a Go test swept at cpu 1 and 2, loads 1 and 2, 60 runs a
# pair, each run overlapping the next. Its cpu-1 runs fail exactly when
# pinned to core 3, and they took core 3 in two streaks of six runs a pair
# (twelve seconds apart) and three times on their own: the failures cluster
# in time, but core 3 explains them, so no episode (core_concentration
# names core 3 at cpu 1). The same failing runs pinned to every core in turn
# are an episode. A foreign load that fails every run started in a window
# of 30 seconds, on every core (cpu-1 runs rotate over the four cores,
# cpu-2 runs alternate [0,1] and [2,3]), and nothing elsewhere, is an
# episode too, with its window, and no core is blamed.
set -eu
cd "$CHECK_TMPDIR"
python3 - "$CHECK_TMPDIR" "$CHECK_SRCDIR/tests/lib" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from variant29 import write_events
import json, os, sys
d = sys.argv[1]
T0 = 1796288400000  # 2026-12-03T09:00:00Z
PAIRS = [(1, 1), (2, 1), (1, 2), (2, 2)]
PER_PAIR = 60

def journal(name, fails, cores_of):
    """fails(i, k, cpu, load, cores) says whether run i fails; k is its
    index within its pair, cores_of(k, cpu) the cores it was pinned to."""
    os.makedirs(os.path.join(d, name))
    out = open(os.path.join(d, name, "journal.jsonl"), "w")
    def w(o):
        out.write(json.dumps(o, separators=(",", ":")) + "\n")
    w({"type": "header", "schema": "flakesweep/journal/v1", "started": "2026-12-03T09:00:00Z",
       "config": {"cpu": [1, 2], "load": [1, 2], "count": PER_PAIR, "confirm": 0,
                  "timeout_ms": 600000, "kill_grace_ms": 5000, "shuffle": False, "run": None,
                  "skip": None, "levels": ["unit"], "tags": None, "race": True,
                  "isolate_net": False, "tap_select": "arg", "env": {}, "quarantine": None,
                  "build_tags": None, "driver": "go", "packages": ["./..."], "command": []},
       "machine": {"host": "build-07", "cores": 4, "keep": 0, "lanes": [[0, 1], [2, 3]]},
       "project": {"driver": "go", "root": "/src/store",
                   "commit": "3f1c9a7e5b2d4c6a8e0f1a3b5c7d9e1f2a4b6c8d",
                   "toolchain": "go1.19.8", "origin": "https://example.com/store.git"}})
    w({"type": "phase", "phase": "build", "at_ms": T0})
    w({"type": "build", "pkg": 0, "package": "example.com/store", "level": "unit",
       "dir": "/src/store", "binary": os.path.join(d, "store.test"), "ok": True,
       "toolchain": "go1.19.8", "tests": ["TestCompact", "TestFlush"]})
    w({"type": "phase", "phase": "sweep", "at_ms": T0 + 4200})
    # Lines as the sweep writes them: a spawn line as a run starts, its run
    # line as it ends, in the order these happened.
    events = []
    for i in range(1, len(PAIRS) * PER_PAIR + 1):
        cpu, load = PAIRS[(i - 1) % 4]
        k = (i - 1) // 4
        cores = cores_of(k, cpu)
        began = T0 + 5000 + (i - 1) * 600 + (i * 17) % 90
        ms = 1000 + (i * 37) % 300
        noise = round(0.004 + (i % 5) * 0.001, 3)
        r = {"type": "run", "run": i, "pkg": 0, "cpu": cpu, "load": load,
             "lane": cores[0] // 2, "ms": ms, "cores": cores, "noise": noise,
             "noise_ms": round(noise * ms * cpu, 1), "began": began, "ended": began + ms}
        if fails(i, k, cpu, load, cores):
            r.update({"exit": 1, "set": 1, "times": [3, ms - 200],
                      "fail": ["TestCompact"],
                      "lines": {"TestCompact": "    compact_test.go:41: segment 7 still referenced\n"
                                               "--- FAIL: TestCompact (%.2fs)\n" % ((ms - 200) / 1000)},
                      "log": "runs/%d.log" % i})
        else:
            r.update({"set": 2, "times": [ms - 200, 3]})
        events.append((began, 0, {"type": "spawn", "run": i, "pid": 40000 + 7 * i,
                                  "start": 912000 + i * 60}))
        events.append((began + ms, 1, r))
    w({"type": "set", "id": 1, "pkg": 0, "order": ["PTestFlush"]})
    w({"type": "set", "id": 2, "pkg": 0, "order": ["PTestCompact", "PTestFlush"]})
    write_events(w, events, "2026-12-03T09:02:31Z", 5, 40)

def rest(k, cpu):
    return [[0, 1, 2][k % 3]] if cpu == 1 else [[0, 1], [2, 3]][k % 2]
# Two streaks of six on core 3 at each cpu-1 pair, and three runs apart.
ON3 = {5, 20, 21, 22, 23, 24, 25, 30, 31, 32, 33, 34, 35, 44, 53}
def streaks(k, cpu):
    return [3] if cpu == 1 and k in ON3 else rest(k, cpu)
journal("core", lambda i, k, cpu, load, cores: cores == [3], streaks)
# The same runs fail, but the cpu-1 runs take the four cores in turn.
turns = lambda k, cpu: [k % 4] if cpu == 1 else [[0, 1], [2, 3]][k % 2]
journal("turns", lambda i, k, cpu, load, cores: cpu == 1 and k in ON3, turns)
# Every run started from 09:01:35 to 09:02:05 fails, whatever its cores.
journal("window", lambda i, k, cpu, load, cores:
        T0 + 95000 <= T0 + 5000 + (i - 1) * 600 + (i * 17) % 90 < T0 + 125000, turns)
PY
for x in core turns window; do
	rc=0
	"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/$x" >"$CHECK_TMPDIR/$x.out" 2>"$CHECK_TMPDIR/$x.err" || rc=$?
	if [ $rc != 1 ] || grep -q 'journal.jsonl:' "$CHECK_TMPDIR/$x.err"; then
		echo "report --rebuild $x: exit $rc"
		cat "$CHECK_TMPDIR/$x.err"
		exit 1
	fi
done
python3 - "$CHECK_TMPDIR" <<'PY'
import json, os, sys
d = sys.argv[1]
def load(name):
    res = json.load(open(os.path.join(d, name, "results.json")))
    [t] = [t for t in res["tests"] if t.get("causes")]
    print("%s: %s; core_concentration %s" % (name, [(c["cause"], c["evidence"]) for c in t["causes"]],
                                            t["core_concentration"]))
    return t, [c["cause"] for c in t["causes"]]
bad = []
def expect(ok, what):
    if not ok:
        bad.append(what)
        print("FAIL: " + what)

t, kinds = load("core")
expect("episode" not in kinds, "core: failures that core 3 explains named an episode: %s" % t["causes"])
expect("cpu" in kinds, "core: fails only at cpu 1, no cpu cause: %s" % kinds)
cc = t["core_concentration"]
expect(cc is not None and cc["core"] == 3 and cc["cpu"] == 1 and cc["runs"] == 30
       and cc["failures"] == 30 and cc["other_runs"] == 90 and cc["other_failures"] == 0,
       "core: core_concentration is not core 3 at cpu 1 (30/30 against 0/90): %s" % cc)

t, kinds = load("turns")
expect("episode" in kinds, "turns: the same failures on every core are no episode: %s" % t["causes"])

t, kinds = load("window")
expect("episode" in kinds, "window: failures in 30 s on every core are no episode: %s" % t["causes"])
expect(t["core_concentration"] is None, "window: blames a core: %s" % t["core_concentration"])
for c in t["causes"]:
    if c["cause"] == "episode":
        w = c["window"]
        expect("2026-12-03T09:01:35Z" <= w["start"] and w["end"] <= "2026-12-03T09:02:07Z"
               and 40 <= w["failures"] <= 50 and w["failures"] <= w["runs"] <= w["failures"] + 8
               and c["q"] < 0.01, "window: window is not the 30 s of failures: %s" % c)
sys.exit(1 if bad else 0)
PY
