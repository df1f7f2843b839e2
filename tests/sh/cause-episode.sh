#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 60
# Host load as evidence (a journal written as a sweep writes it, rebuilt):
# a test swept at four pairs, its runs one after another, passes its
# first 134 runs (host noise about 0.75%) and fails 20 of its last 26,
# during a foreign load that leaves every run's noise below the 20%
# threshold (3.6% to 13%). The failures cluster in time: its causes are
# episode, with the window and the noise in it, and noise, from the
# failing runs' noise ranked against the passing runs', never timing. One
# failure in 40 runs is unexplained. The same journal without the runs'
# start and end still names noise; without times no episode is claimed.
# A test that fails on every run pinned to core 1 and passes on core 0,
# whose cpu-1 runs took core 1 in a streak (as a lane's first free core
# can) and three times apart, has failures that cluster in time within its pair, but the core
# explains them: no episode. An episode that strikes runs on both cores
# alike is still one when the runs alternate cores.
set -eu
cd "$CHECK_TMPDIR"
python3 - "$CHECK_TMPDIR" <<'PY'
import json, os, sys
d = sys.argv[1]
def journal(name, runs, fail, noise_of, times=True, cores_of=lambda i, cpu: [0, 1][:cpu]):
    os.makedirs(os.path.join(d, name))
    out = open(os.path.join(d, name, "journal.jsonl"), "w")
    def w(o):
        out.write(json.dumps(o, separators=(",", ":")) + "\n")
    w({"type": "header", "schema": "flakesweep/journal/v1", "started": "2026-12-01T10:00:00Z",
       "config": {"cpu": [1, 2], "load": [1, 2], "count": runs // 4, "confirm": 0,
                  "timeout_ms": 120000, "kill_grace_ms": 30000, "shuffle": False, "run": None,
                  "skip": None, "levels": ["unit"], "tags": None, "race": False,
                  "isolate_net": False, "tap_select": "arg", "env": {}, "quarantine": None,
                  "build_tags": None, "driver": "go", "packages": ["./..."], "command": []},
       "machine": {"host": "vm", "cores": 2, "keep": 0, "lanes": [[0, 1]]},
       "project": {"driver": "go", "root": d, "commit": None, "toolchain": "go1.19.8",
                   "origin": None}})
    w({"type": "build", "pkg": 0, "package": "example.com/client", "level": "unit",
       "dir": d, "binary": os.path.join(d, "client.test"), "ok": True,
       "toolchain": "go1.19.8", "tests": ["TestBudget"]})
    w({"type": "set", "id": 1, "pkg": 0, "order": []})
    w({"type": "set", "id": 2, "pkg": 0, "order": ["PTestBudget"]})
    t0 = 1796119200000
    for i in range(1, runs + 1):
        cpu, load = [(1, 1), (2, 1), (1, 2), (2, 2)][i % 4]
        r = {"type": "run", "run": i, "pkg": 0, "cpu": cpu, "load": load, "lane": 0,
             "ms": 900, "set": 1 if i in fail else 2, "cores": cores_of(i, cpu),
             "noise": noise_of(i), "noise_ms": round(noise_of(i) * 900 * cpu, 1)}
        if times:
            r["began"] = t0 + i * 1000
            r["ended"] = t0 + i * 1000 + 900
        if i in fail:
            r["exit"] = 1
            r["fail"] = ["TestBudget"]
            r["lines"] = {"TestBudget": "    client_test.go:9: took too long\n"}
        w(r)
    w({"type": "end", "status": "complete", "finished": "2026-12-01T10:03:00Z"})
episode = [135, 136, 137, 139, 140, 141, 143, 144, 145, 146, 148, 149, 150, 152, 153, 154,
           156, 157, 158, 160]
def noise(i):
    if i in episode:
        return round(0.036 + (episode.index(i) % 10) * 0.0105, 3)
    return 0.03 if i >= 135 else round(0.005 + (i % 6) * 0.001, 3)
journal("episode", 160, episode, noise)
journal("untimed", 160, episode, noise, times=False)
journal("once", 40, [17], lambda i: round(0.005 + (i % 6) * 0.001, 3))
quiet = lambda i: round(0.005 + (i % 6) * 0.001, 3)
# cpu-1 runs (i % 4 in 0, 2) on core 1 in a streak of seven runs at each
# pair, and three more apart.
streak = lambda i, cpu: ([1] if cpu == 1 and (60 <= i < 88 or i in (12, 18, 120, 126, 148, 154))
                         else [0, 1][:cpu])
journal("core", 160, [i for i in range(1, 161) if i % 4 in (0, 2) and streak(i, 1) == [1]],
        quiet, cores_of=streak)
journal("spread", 160, episode, noise, cores_of=lambda i, cpu: [(i // 4) % 2] if cpu == 1 else [0, 1])
PY
for x in episode untimed once core spread; do
	"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/$x" >/dev/null 2>&1 || [ $? = 1 ]
done
python3 - "$CHECK_TMPDIR" <<'PY'
import json, os, sys
d = sys.argv[1]
def causes(name):
    res = json.load(open(os.path.join(d, name, "results.json")))
    [t] = res["tests"]
    return t["causes"], open(os.path.join(d, name, "report.txt")).read()
c, text = causes("episode")
kinds = [x["cause"] for x in c]
print("episode: %s" % [(x["cause"], x["evidence"]) for x in c])
assert "timing" not in kinds and "unexplained" not in kinds, c
assert "episode" in kinds and "noise" in kinds, c
e = [x for x in c if x["cause"] == "episode"][0]
# The window is one pair's, from its first failure to its last (runs 135
# to 160 hold the episode; each pair has every fourth run).
w = e["window"]
assert "2026-12-01T10:02:15Z" <= w["start"] <= "2026-12-01T10:02:19Z", e
assert w["end"] == "2026-12-01T10:02:40Z" and e["q"] < 0.01, e
assert 18 <= w["failures"] <= 20 and 23 <= w["runs"] <= 26 and w["noise"] > 0.03, e
assert e["evidence"].startswith("failures cluster in time: %d of its %d runs from %s to %s failed, %d of the %d others; median host noise "
                                % (w["failures"], w["runs"], w["start"], w["end"], 20 - w["failures"], 160 - w["runs"])), e
n = [x for x in c if x["cause"] == "noise"][0]
assert n["evidence"].startswith("fails with more host noise: its failing runs' median noise "), n
assert "  cause (episode): failures cluster in time: %d of its %d runs" % (w["failures"], w["runs"]) in text, text
c, text = causes("untimed")
kinds = [x["cause"] for x in c]
print("untimed: %s" % kinds)
assert "noise" in kinds and "episode" not in kinds and "timing" not in kinds, c
c, text = causes("once")
print("once: %s" % [(x["cause"], x["evidence"]) for x in c])
assert [x["cause"] for x in c] == ["unexplained"], c
c, text = causes("core")
print("core: %s" % [(x["cause"], x["evidence"]) for x in c])
assert "episode" not in [x["cause"] for x in c], c
t = json.load(open(os.path.join(d, "core", "results.json")))["tests"][0]
assert t["core_concentration"]["core"] == 1, t["core_concentration"]
c, text = causes("spread")
print("spread: %s" % [(x["cause"], x["evidence"]) for x in c])
assert "episode" in [x["cause"] for x in c], c
PY
