# SPDX-License-Identifier: MIT
# Used by the tests/sh/variant28b-journal-*.sh scripts:
#   watch JOURNAL PID STOPFILE FLIGHT: follows JOURNAL while a sweep writes it and
#     checks every line read whole (ending in a newline) is one JSON object
#     with a type, and that what was read stays as it was (the journal is
#     "never changed once written"); once 4 run lines are written while a
#     run is in flight (a spawn line without its run line), sends SIGKILL to
#     PID and, once it has died, writes the ids of the runs the journal
#     shows in flight to FLIGHT as JSON; goes on until STOPFILE exists.
#   check JOURNAL RESULTS RUNS FLIGHT: the finished journal: every line
#     JSON, each run line after a spawn line of its id, each run id in
#     exactly one run line, RUNS run lines, a resume line whose after_run is
#     the highest run id before it, every run after it with a higher id,
#     and the runs in flight at the kill (FLIGHT) without a run line: run
#     again under new ids (flakesweep(5), resume); results.json complete.
import json, os, signal, sys, time


def fail(what):
    print("FAIL:", what)
    sys.exit(1)


def parse(line, where):
    try:
        o = json.loads(line)
    except ValueError as e:
        fail("%s: not JSON (%s): %r" % (where, e, line[:300]))
    if not isinstance(o, dict) or "type" not in o:
        fail("%s: not an object with a type: %r" % (where, line[:300]))
    return o


def dead(pid):
    """Waits until process pid has died (gone, or a zombie)."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            if open("/proc/%d/stat" % pid).read().rsplit(")", 1)[1].split()[0] == "Z":
                return
        except (FileNotFoundError, ProcessLookupError):
            return
        time.sleep(0.001)
    fail("process %d still alive 10 s after SIGKILL" % pid)


def watch(path, pid, stop, flight_file):
    seen, killed, torn, deadline = b"", None, 0, time.monotonic() + 60
    while not os.path.exists(stop):
        if time.monotonic() > deadline:
            fail("no stop after 60 s")
        try:
            data = open(path, "rb").read()
        except FileNotFoundError:
            time.sleep(0.005)
            continue
        whole = data[: data.rfind(b"\n") + 1]
        if whole != data:
            torn += 1
        # After the kill, --resume may cut a torn last line: compare whole lines only.
        if not whole.startswith(seen):
            fail("the journal's lines changed once written: had %d bytes, now differs at byte %d"
                 % (len(seen), next(i for i, (a, b) in enumerate(zip(seen, whole + b"\0" * len(seen))) if a != b)))
        lines = whole[len(seen):].decode("utf-8", "surrogateescape").splitlines()
        base = seen.count(b"\n")
        for i, line in enumerate(lines):
            parse(line, "line %d, read while the sweep ran" % (base + i + 1))
        seen = whole
        if killed is None:
            objs = [json.loads(l) for l in whole.decode().splitlines()]
            runs = {o["run"] for o in objs if o["type"] == "run"}
            flight = {o["run"] for o in objs if o["type"] == "spawn"} - runs
            if objs and objs[-1]["type"] == "end":
                fail("the sweep ended before a run was in flight after 4 run lines")
            if len(runs) >= 4 and flight:
                os.kill(pid, signal.SIGKILL)
                # Runs may end between this read and the kill: those in
                # flight are those the journal shows once the sweep is dead.
                dead(pid)
                objs = [json.loads(l) for l in open(path, "rb").read().decode().splitlines(True)
                        if l.endswith("\n")]
                runs = {o["run"] for o in objs if o["type"] == "run"}
                flight = {o["run"] for o in objs if o["type"] == "spawn"} - runs
                killed = (len(runs), sorted(flight))
                json.dump(sorted(flight), open(flight_file, "w"))
        time.sleep(0.003)
    if killed is None:
        fail("the sweep was never killed")
    print("killed after %d run lines, runs %s in flight; %d reads ended in a partial line"
          % (killed[0], killed[1], torn))


def check(path, results, want, flight_file):
    objs = [parse(l, "line %d" % (i + 1)) for i, l in enumerate(open(path, encoding="utf-8", errors="surrogateescape"))]
    flight = set(json.load(open(flight_file)))
    spawned, runs, after = set(), [], None
    for i, o in enumerate(objs):
        if o["type"] == "spawn":
            spawned.add(o["run"])
        elif o["type"] == "resume":
            if after is not None:
                fail("line %d: a second resume line" % (i + 1))
            after = o["after_run"]
            top = max([x["run"] for x in objs[:i] if x["type"] in ("spawn", "run")])
            if after != top:
                fail("line %d: after_run %s, but the highest run id before it is %d" % (i + 1, after, top))
        elif o["type"] == "run":
            if o["run"] not in spawned:
                fail("line %d: run %d's run line before any spawn line of it" % (i + 1, o["run"]))
            if after is not None and o["run"] <= after:
                fail("line %d: run %d after the resume line, not above after_run %d" % (i + 1, o["run"], after))
            runs.append(o["run"])
    if after is None:
        fail("no resume line")
    dup = sorted({r for r in runs if runs.count(r) > 1})
    if dup:
        fail("runs with more than one run line: %s" % dup)
    if len(runs) != want:
        fail("%d run lines, expected %d" % (len(runs), want))
    lost = spawned - set(runs)
    if not flight or flight != lost or max(lost) > after:
        fail("runs in flight at the kill %s; spawned without a run line %s (after_run %d)"
             % (sorted(flight), sorted(lost), after))
    d = json.load(open(results))
    if d["status"] != "complete" or d["summary"]["runs"] != want:
        fail("results.json: status %s, %s runs" % (d["status"], d["summary"]["runs"]))
    print("journal: %d lines, %d run lines, each id once and after its spawn line; %s in flight at the kill,"
          " run again after resume's after_run %d" % (len(objs), len(runs), sorted(lost), after))


if sys.argv[1] == "watch":
    watch(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5])
else:
    check(sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5])
