#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 600
# --driver pytest on data/demo-py: the verdict of every test, the hang named
# with its stack, the ambient channels, reproduce lines that reproduce from
# the root in a bare environment, and the order-dependent victim found with
# --shuffle in a by-file sweep, its seed replaying the failure.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
export FLAKESWEEP_PYTHON=$py FLAKESWEEP_DATADIR=$CHECK_SRCDIR/data PYTHONDONTWRITEBYTECODE=1
unset PYTEST_ADDOPTS PYTHONPATH
demo=$CHECK_TMPDIR/demo-py
cp -r "$CHECK_SRCDIR/data/demo-py" "$demo"
chmod -R u+w "$demo"
cd "$demo"

# The whole directory as one package: every test in each run.
rc=0
"$FLAKESWEEP" --driver pytest --pytest-unit dir --cpu 1,2 --load 1 --count 8 --confirm 4 \
	--shuffle --timeout 15s --kill-grace 1s --ui none -o "$CHECK_TMPDIR/out" \
	>"$CHECK_TMPDIR/report" 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/stderr"; echo "exit status $rc, expected 1"; exit 1; }
# The journal alone rebuilds the same results (channels and seeds included).
cp -r "$CHECK_TMPDIR/out" "$CHECK_TMPDIR/rebuilt"
rc=0
"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/rebuilt" >/dev/null 2>&1 || rc=$?
[ "$rc" = 1 ] || { echo "report --rebuild: exit status $rc, expected 1"; exit 1; }
# The order-dependent pair alone, one package per file (the default).
rc=0
"$FLAKESWEEP" --driver pytest --cpu 1 --load 1 --count 10 --confirm 2 --shuffle \
	--timeout 15s --ui none -o "$CHECK_TMPDIR/order" test_order.py \
	>/dev/null 2>"$CHECK_TMPDIR/stderr" || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/stderr"; echo "order: exit status $rc, expected 1"; exit 1; }

"$py" - "$CHECK_TMPDIR/out" "$CHECK_TMPDIR/order" "$CHECK_TMPDIR/report" <<'PY'
import json, os, subprocess, sys
out, order, report = sys.argv[1:]
bad = []
def check(cond, what):
    if not cond:
        bad.append(what)
def run(cmd):
    # From the root, in a bare environment: the line must carry all it needs.
    env = {"PATH": "/usr/bin:/bin", "HOME": os.environ.get("HOME", "/")}
    p = subprocess.run(["bash", "-c", cmd], env=env, capture_output=True, text=True)
    return p.stdout + p.stderr
def reproduces(cmd, needle, tries):
    for _ in range(tries):
        if needle in run(cmd):
            return True
    return False

d = json.load(open(os.path.join(out, "results.json")))
check([p["package"] for p in d["packages"]] == ["."], "dir: one package '.'")
tests = {t["test"]: t for t in d["tests"]}
want = {
    "test_flaky.py::test_coin_flip": "flaky",
    "test_failing.py::test_always_fails": "failing",
    "test_cpu.py::test_needs_two_cores": "failing",
    "test_cpu.py::test_reads_the_clock": "passed",
    "test_hang.py::test_sometimes_hangs": "flaky",
}
check(len(tests) == 7, "7 tests listed, got %d" % len(tests))
# The coin draws from the system's randomness, one tails in four: in about
# one sweep of 100 (its 15 or so runs all heads) it never failed, and then
# passed is its right verdict; it then has no failure to reproduce.
coin = "test_flaky.py::test_coin_flip"
tails = sum(c["failures"] for c in tests.get(coin, {}).get("cells", []))
if tails == 0:
    runs = sum(c["runs"] for c in tests[coin]["cells"])
    check(runs >= 12, "coin_flip never failed in only %d runs" % runs)
    want[coin] = "passed"
for name, verdict in want.items():
    got = tests.get(name, {}).get("verdict")
    check(got == verdict, "%s: %s, expected %s" % (name, got, verdict))
def cells(name, **kw):
    return [c for c in tests[name]["cells"] if all(c[k] == v for k, v in kw.items())]
def total(name, key, **kw):
    return sum(c[key] for c in cells(name, **kw))
cpu = "test_cpu.py::test_needs_two_cores"
check(total(cpu, "runs", cpu=1) > 0 and total(cpu, "failures", cpu=1) == total(cpu, "runs", cpu=1),
      "needs_two_cores fails every run at cpu 1")
check(total(cpu, "runs", cpu=2) > 0 and total(cpu, "failures", cpu=2) == 0,
      "needs_two_cores passes every run at cpu 2")
fail = "test_failing.py::test_always_fails"
check(total(fail, "failures") == total(fail, "runs") > 0, "always_fails fails every run")
check(tails == 0 or 0 < total(coin, "failures") < total(coin, "runs"), "coin_flip fails some runs")
check(tests[coin].get("channels") == ["rng"], "coin_flip reads rng: %s" % tests[coin].get("channels"))
check(tests["test_cpu.py::test_reads_the_clock"].get("channels") == ["clock"],
      "reads_the_clock reads the clock")
hang = "test_hang.py::test_sometimes_hangs"
check(total(hang, "hangs") == 1 and total(hang, "failures") == 0, "sometimes_hangs hangs once")
ff = tests[hang]["first_failure"]
check(ff["reason"] == "still running when the run hit its time limit", "hang reason: %s" % ff["reason"])
check(any("in test_sometimes_hangs" in l for l in ff["lines"]), "the hang's stack names the test")
check(any("Current thread" in l for l in ff["lines"]), "the hang's stack is faulthandler's")
# The stack comes on the report descriptor; the run's log holds it too.
log = open(os.path.join(out, ff.get("log") or "missing")).read() if ff.get("log") else ""
check("in test_sometimes_hangs" in log and "Current thread" in log,
      "the hung run's log %s holds its stack: %r" % (ff.get("log"), log[-300:]))
r = json.load(open(os.path.join(out, "..", "rebuilt", "results.json")))
def kept(doc):
    # The journal lists a run's passed tests apart from its failed ones, so
    # a rebuild may list tests in another order.
    return {t["test"]: (t.get("channels"), (t["first_failure"] or {}).get("seed"))
            for t in doc["tests"]}
check(kept(r) == kept(d), "report --rebuild gives the same channels and seeds: %s, live %s"
      % (kept(r), kept(d)))
text = open(report).read()
check("ambient channels read: rng" in text, "report.txt shows the channels")
check(text.count("\n  directly:  ") == (5 if tails else 4), "a reproduce line for each test that failed")

# Each reproduce line, run as printed, shows its failure.
check(reproduces(tests[fail]["reproduce"]["direct"], "1 failed", 1), "always_fails reproduces")
rep = tests[cpu]["reproduce"]["direct"]
# One core: the one it failed on most (either, at cpu 1 on two lanes).
check(rep.split("taskset -c ")[-1].split(" ")[0].isdigit(),
      "needs_two_cores reproduces on one core: " + rep)
check(reproduces(rep, "needs two cores, has 1", 1), "needs_two_cores reproduces")
check(tails == 0 or reproduces(tests[coin]["reproduce"]["direct"], "the coin came up tails", 6),
      "coin_flip reproduces")
# One run per try: each hang costs the whole time limit.
rep = (tests[hang].get("reproduce") or {}).get("direct")
check(rep is not None, "sometimes_hangs has no reproduce line: %r" % tests[hang])
if rep is not None:
    check("$(seq 4)" in rep, "four runs: " + rep)
    # By hand it hangs in one run in two: 16 tries miss it once in 65536.
    check(reproduces(rep.replace("$(seq 4)", "$(seq 1)"), "in test_sometimes_hangs", 16),
          "sometimes_hangs reproduces with its stack")

# By file: the victim is order-dependent, with the seed that replays it.
o = json.load(open(os.path.join(order, "results.json")))
check([p["package"] for p in o["packages"]] == ["test_order.py"], "by file: test_order.py")
ot = {t["test"]: t for t in o["tests"]}
victim = ot.get("test_order.py::test_output_quiet_by_default", {})
check(victim.get("verdict") == "flaky", "victim flaky: %s" % victim.get("verdict"))
check(victim.get("order_dependent") is True, "victim order-dependent")
check(ot.get("test_order.py::test_set_verbose", {}).get("verdict") == "passed", "polluter passed")
seed = (victim.get("first_failure") or {}).get("seed")
check(seed is not None and seed.isdigit(), "victim's seed kept: %s" % seed)
check(all(c["failures"] == 0 for c in victim.get("cells", []) if c["phase"] == "confirm"),
      "victim passes alone")
rep = (victim.get("reproduce") or {}).get("direct", "")
check("--flakesweep-seed=%s" % seed in rep and "::" not in rep, "replay runs the file with the seed: " + rep)
got = run(rep)
check(got.count("1 failed, 1 passed") == 2, "the seed replays the failure in both runs: " + got[-300:])
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
