#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes a journal.jsonl of RUNS finished runs of one package of TESTS
# tests, as a sweep at --cpu 1,2 --load 1,2 on 16 cores writes it: a
# spawn line and a run line per run, one set line for the passing runs,
# and one run in FAILEVERY failing one test (a second set). With
# --shuffle, every run has its own test order and its seed (below 10^12,
# as the writer draws it), as journals written before shuffled runs shared
# sets had them (a set line per run); --shuffle=seed writes the seed and
# the set of the same tests. --compact leaves out a sweep run's phase and
# an exit status 0, as the writer does since it first did. Runs overlap as
# in a real one-package sweep on two lanes (67 of 68 passing runs of
# tests/fixtures/gomod did): all but one in 20. --defaults leaves out an
# overlapped at the default, which a defaults line turns as the writer
# does (journal.c: once 16 runs more than not differ from it).
# Usage: genjournal.py OUT RUNS [TESTS [FAILEVERY]] [--shuffle|--shuffle=seed] [--compact]
#                      [--defaults]
import json, random, sys

args = [a for a in sys.argv[1:] if not a.startswith("--")]
flags = [a for a in sys.argv[1:] if a.startswith("--")]
out, runs = args[0], int(args[1])
ntests = int(args[2]) if len(args) > 2 else 100
failevery = int(args[3]) if len(args) > 3 else 1000
shuffle = "--shuffle" in flags
seeded = "--shuffle=seed" in flags
compact = "--compact" in flags
defaults = "--defaults" in flags
default, against = False, 0
tests = ["TestName%03d" % i for i in range(ntests)]
lanes = [[2 * i, 2 * i + 1] for i in range(8)]
header = {"type": "header", "schema": "flakesweep/journal/v1", "started": "2026-11-30T03:05:03Z",
          "config": {"cpu": [1, 2], "load": [1, 2], "count": (runs + 3) // 4, "confirm": 0,
                     "timeout_ms": 600000, "kill_grace_ms": 30000,
                     "shuffle": shuffle or seeded, "run": None, "skip": None,
                     "levels": ["unit"], "tags": None, "race": False, "isolate_net": False,
                     "driver": "go", "packages": [], "command": []},
          "machine": {"cores": 16, "keep": 0, "lanes": lanes},
          "project": {"driver": "go", "root": "/nonexistent/bench", "commit": "0" * 40,
                      "toolchain": "go1.19.8", "origin": None}}
dump = lambda o: json.dumps(o, separators=(",", ":"))
rnd = random.Random(1)
with open(out, "w") as f:
    w = f.write
    w(dump(header) + "\n")
    w(dump({"type": "phase", "phase": "build", "at_ms": 1796007903623}) + "\n")
    w(dump({"type": "build", "pkg": 0, "package": "example.com/bench", "level": "unit",
            "dir": "/nonexistent/bench", "binary": "/nonexistent/bench.test", "ok": True,
            "toolchain": "go1.19.8", "tests": tests}) + "\n")
    w(dump({"type": "phase", "phase": "sweep", "at_ms": 1796007907388}) + "\n")
    order = ["P" + t for t in tests]
    # A set line comes with the first run that names it.
    nset = 0
    if not shuffle:
        w(dump({"type": "set", "id": 1, "pkg": 0, "order": order}) + "\n")
        w(dump({"type": "set", "id": 2, "pkg": 0, "order": order[:7] + order[8:]}) + "\n")
        nset = 2
    pairs = [(1, 1), (1, 2), (2, 1), (2, 2)]
    for run in range(1, runs + 1):
        cpu, load = pairs[run % 4]
        lane = run % 8
        cores = [lanes[lane][0]] if cpu == 1 else lanes[lane]
        w('{"type":"spawn","run":%d,"pid":%d,"start":%d}\n' % (run, 1000 + run % 30000, 297881 + run))
        line = {"type": "run", "run": run, "pkg": 0, "phase": "sweep", "cpu": cpu, "load": load,
                "lane": lane, "ms": 40 + rnd.randrange(30), "exit": 0, "set": 1}
        if compact:
            del line["phase"], line["exit"]
        fail = run % failevery == 0
        if shuffle:
            rnd.shuffle(order)
            nset += 1
            w(dump({"type": "set", "id": nset, "pkg": 0,
                    "order": [o for o in order if not (fail and o == "PTestName007")]}) + "\n")
            line["set"] = nset
        elif fail:
            line["set"] = 2
        line["cores"] = cores
        overlapped = run % 20 != 0
        if defaults and overlapped != default:
            against += 1
            if against == 16:
                default, against = overlapped, 0
                w(dump({"type": "defaults", "overlapped": default}) + "\n")
        elif defaults and against > 0:
            against -= 1
        if overlapped != default or not defaults:
            if overlapped or defaults:
                line["overlapped"] = overlapped
        line["noise"] = round(rnd.random() * 0.05, 3)
        line["noise_ms"] = round(rnd.random() * 5, 1)
        if fail:
            line["exit"] = 1
            line["fail"] = ["TestName007"]
            line["lines"] = {"TestName007": "    bench_test.go:7: failed on purpose\n"}
        if shuffle or seeded:
            line["seed"] = str(rnd.randrange(10 ** 12))
        if fail:
            line["log"] = "runs/%d.log" % run
        w(dump(line) + "\n")
    w(dump({"type": "end", "status": "complete", "finished": "2026-11-30T04:05:03Z"}) + "\n")
