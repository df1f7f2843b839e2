#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# The polluter search beyond Go: a pytest file (module state) and a
# GoogleTest binary (global state) whose first test breaks a later one,
# swept with --shuffle. In each the victim is flaky with cause order, its
# polluter named in results.json (with the seed and a reproduce line that
# runs the polluter, then the victim), in report.txt and in the order
# cause's evidence; the reproduce line, run as printed, fails the victim.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
export FLAKESWEEP_PYTHON=$py FLAKESWEEP_DATADIR=$CHECK_SRCDIR/data PYTHONDONTWRITEBYTECODE=1
unset PYTEST_ADDOPTS PYTHONPATH
. "$CHECK_SRCDIR/tests/lib/order.sh" order
check() { # OUT VICTIM POLLUTER NEEDLE: NEEDLE in the reproduce line's output
	python3 - "$CHECK_TMPDIR/$1" "$2" "$3" "$4" <<'PY'
import json, os, subprocess, sys
out, victim, polluter, needle = sys.argv[1:]
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
res = json.load(open(os.path.join(out, "results.json")))
tests = {t["test"]: t for t in res["tests"]}
v = tests[victim]
check(v["verdict"] == "flaky" and v["order_dependent"], "%s flaky, order-dependent: %s" % (victim, v))
p = v.get("polluter") or {}
seed = v["first_failure"]["seed"]
check(p.get("test") == polluter and p.get("seed") == seed, "polluter named: %s" % p)
check([c for c in v["causes"] if c["cause"] == "order" and polluter in c["evidence"]],
      "the order cause names it: %s" % v["causes"])
check(tests[polluter]["verdict"] == "passed", "the polluter passes")
text = open(os.path.join(out, "report.txt")).read()
check("%s fails after %s" % (victim, polluter) in text and p["reproduce"] in text,
      "report.txt names the polluter and its reproduce line")
check(polluter.split("::")[-1] in p["reproduce"], "the reproduce line selects the polluter")
got = subprocess.run(["bash", "-c", p["reproduce"]], capture_output=True, text=True)
check(needle in got.stdout + got.stderr, "the reproduce line fails the victim: %s\n%s" %
      (p["reproduce"], (got.stdout + got.stderr)[-2000:]))
print("%s: polluter %s under seed %s in %d runs; %s" % (out, polluter, seed, p["runs"], p["reproduce"]))
PY
}

sweep py --driver pytest test_pollute.py
check py test_pollute.py::test_reads_default test_pollute.py::test_switch_mode \
	"FAILED test_pollute.py::test_reads_default"

[ -f /usr/include/gtest/gtest.h ] || { echo "SKIP GoogleTest is not installed"; exit 77; }
g++ -o pollute_test pollute_test.cc -lgtest -lgtest_main -pthread
sweep gtest --driver gtest -- ./pollute_test
check gtest Mode.ReadsDefault Mode.SwitchesMode "[  FAILED  ] Mode.ReadsDefault"
