# SPDX-License-Identifier: MIT
# A journal written by hand as flakesweep(5) describes it, for the variant30
# noise scripts: a header, the build phase and one build line per package
# (a Go module of several packages, each with a passing TestOK and one test
# that fails in some runs), the sweep phase, then a spawn line and a run
# line for each run in turn (one at a time, never two alive together, at
# cpu 1 and load 1 on a machine of two lanes), the confirm phase, the end
# and the done phase. Then the results read back from it, and whether a
# test's causes name noise as they should.
import json
import os
import subprocess

T0 = 1796288400000  # 2026-12-03T09:00:00Z
MODULE = "example.com/meter"


def test_id(pkg, name):
    return "%s/%s::%s" % (MODULE, pkg, name)


def write_journal(d, packages, runs, began=True):
    """packages: [(name, failing test)]; runs: [(pkg index, ms, noise_ms,
    failed)] in the order they ran. Without began the run lines have no
    began and ended, as journals written before they were recorded."""
    os.makedirs(d)
    out = open(os.path.join(d, "journal.jsonl"), "w")

    def w(o):
        out.write(json.dumps(o, separators=(",", ":")) + "\n")

    w({"type": "header", "schema": "flakesweep/journal/v1", "started": "2026-12-03T09:00:00Z",
       "config": {"cpu": [1], "load": [1], "count": len(runs) // len(packages), "confirm": 0,
                  "timeout_ms": 600000, "kill_grace_ms": 5000, "shuffle": False, "run": None,
                  "skip": None, "levels": ["unit"], "tags": None, "race": True,
                  "isolate_net": False, "tap_select": "arg", "env": {}, "quarantine": None,
                  "build_tags": None, "driver": "go", "packages": ["./..."], "command": []},
       "machine": {"host": "meter-01", "cores": 2, "keep": 0, "lanes": [[0], [1]]},
       "project": {"driver": "go", "root": "/src/meter", "commit": "9" * 40,
                   "toolchain": "go1.19.8", "origin": None}})
    w({"type": "phase", "phase": "build", "at_ms": T0})
    for i, (name, failing) in enumerate(packages):
        w({"type": "build", "pkg": i, "package": "%s/%s" % (MODULE, name), "level": "unit",
           "dir": "/src/meter/" + name, "binary": os.path.join(d, "bin", name + ".test"),
           "ok": True, "toolchain": "go1.19.8", "tests": [failing, "TestOK"]})
    w({"type": "phase", "phase": "sweep", "at_ms": T0 + 3000})
    sets = {}
    at = T0 + 4000
    for n, (pkg, ms, noise_ms, failed) in enumerate(runs, 1):
        failing = packages[pkg][1]
        order = ["PTestOK"] if failed else ["P" + failing, "PTestOK"]
        key = (pkg, tuple(order))
        if key not in sets:
            sets[key] = len(sets) + 1
            w({"type": "set", "id": sets[key], "pkg": pkg, "order": order})
        w({"type": "spawn", "run": n, "pid": 30000 + n, "start": 700000 + 10 * n})
        r = {"type": "run", "run": n, "pkg": pkg, "cpu": 1, "load": 1, "lane": n % 2,
             "ms": ms, "set": sets[key], "cores": [n % 2],
             "noise": round(noise_ms / ms, 3), "noise_ms": noise_ms}
        if began:
            r.update({"began": at, "ended": at + ms})
        if failed:
            r.update({"exit": 1, "fail": [failing],
                      "lines": {failing: "    meter_test.go:12: reading drifted\n"
                                         "--- FAIL: %s (%.2fs)\n" % (failing, ms / 1000)},
                      "log": "runs/%d.log" % n})
        w(r)
        at += ms + 40
    w({"type": "phase", "phase": "confirm", "at_ms": at})
    w({"type": "end", "status": "complete", "finished": "2026-12-03T09:30:00Z"})
    w({"type": "phase", "phase": "done", "at_ms": at + 10})
    out.close()


def rebuild(flakesweep, d):
    """flakesweep report --rebuild D; the tests of its results.json by id.
    Exit 1 (a test failed) is expected."""
    p = subprocess.run([flakesweep, "report", "--rebuild", d], capture_output=True, text=True)
    if p.returncode != 1:
        raise SystemExit("FAIL: report --rebuild %s: exit %d: %s" % (d, p.returncode, p.stderr))
    res = json.load(open(os.path.join(d, "results.json")))
    return {t["id"]: t for t in res["tests"]}


def check_noise(t, name, named, why):
    """The faults in test t's causes: noise must be named (named true,
    with a q-value below 0.01) or not, as why says."""
    print("%s: causes %s" % (name, t.get("causes")))
    found = [c for c in t.get("causes") or [] if c["cause"] == "noise"]
    if not named:
        return ["%s: noise named from %s: %s" % (name, why, found)] if found else []
    if not found:
        return ["%s: noise not named from %s: %s" % (name, why, t.get("causes"))]
    c = found[0]
    if c["p"] is None or c["q"] is None or not c["q"] < 0.01:
        return ["%s: noise with p %s, q %s" % (name, c["p"], c["q"])]
    return []
