#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# Several polluters of one victim (tests/fixtures/polluters): in a Go
# module and in a pytest file, two tests each leave state behind that
# breaks a third, and either one alone is enough. Swept with --shuffle, the
# victim is order with both polluters named: results.json's polluters
# (the first also as polluter), each with its seed and a reproduce line
# that runs that polluter, then the victim, and fails it; report.txt and
# the order cause's evidence (the dashboard's detail) name both. A
# polluter that ran after the victim under the failing seed is found under
# new seeds; it is missed only when it ran after the victim in every one
# of them (one sweep in about two thousand).
set -eu
. "$CHECK_SRCDIR/tests/lib/order.sh" polluters
check() { # OUT VICTIM NEEDLE POLLUTER...: NEEDLE in each reproduce line's output
	python3 - "$CHECK_TMPDIR/$1" "$2" "$3" "${@:4}" <<'PY'
import json, os, subprocess, sys
out, victim, needle = sys.argv[1:4]
want = sorted(sys.argv[4:])
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
res = json.load(open(os.path.join(out, "results.json")))
tests = {t["test"]: t for t in res["tests"]}
v = tests[victim]
check(v["verdict"] == "flaky" and v["order_dependent"], "%s flaky, order-dependent: %s" % (victim, v))
first = v.get("polluter") or {}
found = v.get("polluters") or []
check(sorted(p["test"] for p in found) == want, "both polluters named: %s" % found)
check(found[0]["test"] == first.get("test") and found[0]["seed"] == first.get("seed") and
      found[0]["reproduce"] == first.get("reproduce"), "the first is polluter: %s %s" % (first, found))
check(first["search_runs"] >= first["runs"] + 2, "the search's runs: %s" % first)
evidence = [c["evidence"] for c in v["causes"] if c["cause"] == "order"]
text = open(os.path.join(out, "report.txt")).read()
for p in found:
    name = p["test"]
    check(tests[name]["verdict"] == "passed", "%s passes" % name)
    check(evidence and name in evidence[0], "the order cause names %s: %s" % (name, evidence))
    check("%s fails after %s: under seed %s" % (victim, name, p["seed"]) in text and
          p["reproduce"] in text, "report.txt names %s and its reproduce line" % name)
    check(name.split("::")[-1] in p["reproduce"], "the reproduce line selects %s" % name)
    other = [q["test"].split("::")[-1] for q in found if q is not p]
    check(not [o for o in other if o in p["reproduce"]], "only %s: %s" % (name, p["reproduce"]))
    got = subprocess.run(["bash", "-c", p["reproduce"]], capture_output=True, text=True)
    check(needle in got.stdout + got.stderr, "the reproduce line fails the victim: %s\n%s" %
          (p["reproduce"], (got.stdout + got.stderr)[-2000:]))
    print("%s: %s under seed %s: %s" % (out, name, p["seed"], p["reproduce"]))
print("%s: %d runs to the first, %d in all" % (out, first["runs"], first["search_runs"]))
PY
}

if command -v go >/dev/null; then
	sweep go --no-race ./...
	check go TestOutputPlainByDefault "--- FAIL: TestOutputPlainByDefault" \
		TestSetColor TestSetVerbose
	# The journal alone gives the same polluters.
	cp "$CHECK_TMPDIR/go/results.json" "$CHECK_TMPDIR/go.json"
	"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/go" >/dev/null || [ $? = 1 ]
	python3 - "$CHECK_TMPDIR/go.json" "$CHECK_TMPDIR/go/results.json" <<'PY'
import json, sys
live, again = (json.load(open(f)) for f in sys.argv[1:])
pick = lambda d: [(t.get("polluter"), t.get("polluters")) for t in d["tests"]
                  if t["test"] == "TestOutputPlainByDefault"]
assert pick(live) == pick(again), (pick(live), pick(again))
PY
fi

. "$CHECK_SRCDIR/tests/lib/pytest.sh"
export FLAKESWEEP_PYTHON=$py FLAKESWEEP_DATADIR=$CHECK_SRCDIR/data PYTHONDONTWRITEBYTECODE=1
unset PYTEST_ADDOPTS PYTHONPATH
sweep py --driver pytest test_polluters.py
check py test_polluters.py::test_output_plain_by_default \
	"FAILED test_polluters.py::test_output_plain_by_default" \
	test_polluters.py::test_set_color test_polluters.py::test_set_verbose
