#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# A core that passes for a time under the pytest driver (journals written
# by hand as a sweep writes them, then rebuilt and merged). A machine of 4
# cores, lanes [0,1] and [2,3], a pytest file swept at cpu 2, loads 1 and
# 2, 50 runs a pair, each run overlapping the next: every run pinned to
# [2,3] fails tests/test_cache.py::test_evict, every run on [0,1] passes.
# The runs took [2,3] in one long streak of fourteen a pair and four
# times apart, so the failures cluster in time, but their cores explain
# them: no episode, and core_concentration names core 2 or 3 at cpu 2.
# Then two shards of one sweep on two hosts, merged: shard 1/2 (host ci-a)
# holds the same file with its streak on [2,3] at other times, shard 2/2
# (host ci-b) tests/test_net.py, whose test_reconnect fails every run
# started in 15 seconds on both pairs of cores and passes elsewhere. In the
# merge, and in its journal rebuilt, test_evict has no episode and
# test_reconnect has one.
set -eu
cd "$CHECK_TMPDIR"
python3 - "$CHECK_TMPDIR" "$CHECK_SRCDIR/tests/lib" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from variant29 import write_events
import json, os, sys
d = sys.argv[1]
T0 = 1796374800000  # 2026-12-04T09:00:00Z
PAIRS = [(2, 1), (2, 2)]
PER_PAIR = 50
ROOT = "/home/ci/cachelib"

def journal(name, host, shard, path, tests, flaky, fails, on23, lines):
    """Runs of one pytest file; run i (index k within its pair) is pinned
    to [2,3] when on23(k), and its test flaky fails when fails(i, k, cores)."""
    os.makedirs(os.path.join(d, name))
    out = open(os.path.join(d, name, "journal.jsonl"), "w")
    def w(o):
        out.write(json.dumps(o, separators=(",", ":")) + "\n")
    config = {"cpu": [2], "load": [1, 2], "count": PER_PAIR, "confirm": 0,
              "timeout_ms": 600000, "kill_grace_ms": 5000, "shuffle": False, "run": None,
              "skip": None, "levels": ["unit"], "tags": None, "race": False,
              "isolate_net": False, "tap_select": "arg",
              "env": {"FLAKESWEEP_PYTHON": "/usr/bin/python3"}, "quarantine": None,
              "build_tags": None, "driver": "pytest", "pytest_unit": "file",
              "packages": ["tests"], "command": []}
    if shard:
        config["shard"] = {"index": shard, "count": 2,
                           "buckets": list(range(shard - 1, 512, 2))}
    w({"type": "header", "schema": "flakesweep/journal/v1", "started": "2026-12-04T09:00:00Z",
       "config": config,
       "machine": {"host": host, "cores": 4, "keep": 0, "lanes": [[0, 1], [2, 3]]},
       "project": {"driver": "pytest", "root": ROOT,
                   "commit": "9b8e7d6c5b4a39281706f5e4d3c2b1a098765432", "toolchain": None,
                   "origin": "git@example.com:ci/cachelib.git"}})
    w({"type": "phase", "phase": "build", "at_ms": T0})
    w({"type": "build", "pkg": 0, "package": path, "level": "unit", "dir": ROOT, "ok": True,
       "toolchain": "/usr/bin/python3", "tests": ["%s::%s" % (path, t) for t in tests]})
    w({"type": "phase", "phase": "sweep", "at_ms": T0 + 1800})
    flaky_id = "%s::%s" % (path, flaky)
    others = sorted("%s::%s" % (path, t) for t in tests if t != flaky)
    everyone = sorted("%s::%s" % (path, t) for t in tests)
    w({"type": "set", "id": 1, "pkg": 0, "order": ["P" + t for t in others]})
    w({"type": "set", "id": 2, "pkg": 0, "order": ["P" + t for t in everyone]})
    events = []
    for i in range(1, len(PAIRS) * PER_PAIR + 1):
        cpu, load = PAIRS[(i - 1) % 2]
        k = (i - 1) // 2
        cores = [2, 3] if on23(k) else [0, 1]
        began = T0 + 3000 + (i - 1) * 1500 + (i * 29) % 120
        ms = 2400 + (i * 53) % 500
        noise = round(0.006 + (i % 7) * 0.002, 3)
        r = {"type": "run", "run": i, "pkg": 0, "cpu": cpu, "load": load,
             "lane": cores[0] // 2, "ms": ms, "cores": cores, "noise": noise,
             "noise_ms": round(noise * ms * cpu, 1), "began": began, "ended": began + ms}
        own = {t: 40 + 9 * n for n, t in enumerate(everyone)}
        if fails(i, k, cores):
            # The sweep keeps a failing run's output.
            os.makedirs(os.path.join(d, name, "runs"), exist_ok=True)
            with open(os.path.join(d, name, "runs", "%d.log" % i), "w") as log:
                log.write("FAILED %s - %s" % (flaky_id, lines.splitlines()[-1]))
            r.update({"exit": 1, "set": 1, "fail": [flaky_id], "lines": {flaky_id: lines},
                      "times": [own[t] for t in others] + [own[flaky_id]],
                      "log": "runs/%d.log" % i})
        else:
            r.update({"set": 2, "times": [own[t] for t in everyone]})
        events.append((began, 0, {"type": "spawn", "run": i, "pid": 73000 + 11 * i,
                                  "start": 2210000 + i * 150}))
        events.append((began + ms, 1, r))
    write_events(w, events, "2026-12-04T09:02:36Z", 4, 30)

EVICT = ("tests/test_cache.py:57: in test_evict\n    assert cache.size() <= 64\n"
         "E   AssertionError: assert 65 <= 64\n")
RECONNECT = ("tests/test_net.py:112: in test_reconnect\n    conn.wait_ready(timeout=2)\n"
             "E   TimeoutError: server did not answer\n")
on_core = lambda i, k, cores: cores == [2, 3]
# [2,3] in one streak of fourteen a pair and four times apart.
streak = lambda k: 15 <= k < 29 or k in (3, 9, 36, 44)
journal("single", "ci-runner-3", None, "tests/test_cache.py", ["test_evict", "test_hit"],
        "test_evict", on_core, streak, EVICT)
journal("shard1", "ci-a", 1, "tests/test_cache.py", ["test_evict", "test_hit"],
        "test_evict", on_core, lambda k: 27 <= k < 41 or k in (2, 11, 17, 47), EVICT)
# Every run started from 09:00:48 to 09:01:03 fails, on either pair of cores.
journal("shard2", "ci-b", 2, "tests/test_net.py", ["test_reconnect", "test_send"],
        "test_reconnect",
        lambda i, k, cores: T0 + 48000 <= T0 + 3000 + (i - 1) * 1500 + (i * 29) % 120 < T0 + 63000,
        lambda k: k % 2 == 1, RECONNECT)
PY
rebuild() {
	rc=0
	"$FLAKESWEEP" "$@" >"$CHECK_TMPDIR/out" 2>"$CHECK_TMPDIR/err" || rc=$?
	if [ $rc != 1 ] || grep -q 'journal.jsonl:' "$CHECK_TMPDIR/err"; then
		echo "flakesweep $*: exit $rc"
		cat "$CHECK_TMPDIR/err"
		exit 1
	fi
}
rebuild report --rebuild "$CHECK_TMPDIR/single"
rebuild merge -o "$CHECK_TMPDIR/merged" "$CHECK_TMPDIR/shard1" "$CHECK_TMPDIR/shard2"
cp -r "$CHECK_TMPDIR/merged" "$CHECK_TMPDIR/remerged"
rm "$CHECK_TMPDIR/remerged/results.json"
rebuild report --rebuild "$CHECK_TMPDIR/remerged"
python3 - "$CHECK_TMPDIR" <<'PY'
import json, os, sys
d = sys.argv[1]
bad = []
def expect(ok, what):
    if not ok:
        bad.append(what)
        print("FAIL: " + what)
def test(name, node):
    res = json.load(open(os.path.join(d, name, "results.json")))
    [t] = [t for t in res["tests"] if t["id"].endswith("::" + node)]
    kinds = [c["cause"] for c in t.get("causes") or []]
    print("%s %s: %s; core_concentration %s" % (name, node, [(c["cause"], c["evidence"]) for c in t.get("causes") or []],
                                               t["core_concentration"]))
    return t, kinds
for name in ("single", "merged", "remerged"):
    t, kinds = test(name, "tests/test_cache.py::test_evict")
    expect(t["id"] == "tests/test_cache.py::tests/test_cache.py::test_evict", "%s: id %s" % (name, t["id"]))
    expect(kinds and "episode" not in kinds,
           "%s: failures that cores [2,3] explain named an episode: %s" % (name, t["causes"]))
    cc = t["core_concentration"]
    expect(cc is not None and cc["core"] in (2, 3) and cc["cpu"] == 2 and cc["runs"] == 36
           and cc["failures"] == 36 and cc["other_runs"] == 64 and cc["other_failures"] == 0,
           "%s: core_concentration is not core 2 or 3 at cpu 2 (36/36 against 0/64): %s" % (name, cc))
    if name == "single":
        continue
    t, kinds = test(name, "tests/test_net.py::test_reconnect")
    expect("episode" in kinds, "%s: failures in 15 s on both pairs of cores are no episode: %s" % (name, t["causes"]))
    expect(t["core_concentration"] is None, "%s: test_reconnect blames a core: %s" % (name, t["core_concentration"]))
    for c in t["causes"]:
        if c["cause"] == "episode":
            w = c["window"]
            expect("2026-12-04T09:00:48Z" <= w["start"] and w["end"] <= "2026-12-04T09:01:06Z"
                   and 8 <= w["failures"] <= 10 and c["q"] < 0.01,
                   "%s: window is not the 15 s of failures: %s" % (name, c))
    hosts = sorted(m.get("host") for m in json.load(open(os.path.join(d, name, "results.json")))["machines"])
    expect(hosts == ["ci-a", "ci-b"], "%s: machines %s" % (name, hosts))
sys.exit(1 if bad else 0)
PY
