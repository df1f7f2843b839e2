#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Tests that skip themselves (tests/fixtures/skips, tests/fixtures/tap/skips.sh,
# tests/fixtures/skips-py):
# one that skips in some runs and passes in the others is skip-flaky with
# its counts (passed and skipped runs), and makes the exit status 1; one
# that skips every run is skipped; one that never skips is passed. Skipped
# runs are counted, not dropped, in results.json and report.txt, and the
# journal alone rebuilds the same results.
set -eu
out=$CHECK_TMPDIR/out
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
# check NAME SOMETIMES ALWAYS PASSES: the verdicts and counts of the sweep
# NAME, live and rebuilt from its journal.
check() {
	local rc=0
	cp -r "$out/$1" "$out/$1-rebuilt"
	"$FLAKESWEEP" report --rebuild "$out/$1-rebuilt" >/dev/null || rc=$?
	[ "$rc" = 1 ] || fail "$1: report --rebuild: exit $rc, expected 1"
	python3 - "$out/$1" "$out/$1-rebuilt" "$2" "$3" "$4" <<'PY'
import json, os, sys
d, rebuilt, sometimes, always, passes = sys.argv[1:]
res = json.load(open(os.path.join(d, "results.json")))
text = open(os.path.join(d, "report.txt")).read()
def fail(msg):
    print("FAIL: %s: %s" % (d, msg)); sys.exit(1)
tests = {t["test"]: t for t in res["tests"]}
def counts(name):
    t = tests.get(name)
    if t is None:
        fail("%s is not in results.json: %s" % (name, sorted(tests)))
    runs = sum(c["runs"] for c in t["cells"])
    bad = sum(c["failures"] + c["hangs"] for c in t["cells"])
    skipped = sum(c.get("skipped", 0) for c in t["cells"])
    return t["verdict"], runs - bad, bad, skipped
v, passed, bad, skipped = counts(sometimes)
if v != "skip-flaky" or bad != 0 or skipped == 0 or passed == 0 or passed + skipped != 10:
    fail("%s: %s, %d passed, %d failed, %d skipped; expected skip-flaky, 10 in all"
         % (sometimes, v, passed, bad, skipped))
if counts(always) != ("skipped", 0, 0, 10):
    fail("%s: %s, expected skipped in 10 of 10" % (always, counts(always)))
if counts(passes) != ("passed", 10, 0, 0):
    fail("%s: %s, expected passed in 10 of 10" % (passes, counts(passes)))
if not [l for l in text.splitlines() if sometimes in l and "skip-flaky" in l] or ("skipped in %d of 10 runs" % skipped) not in text:
    fail("report.txt does not give %s as skip-flaky with its counts:\n%s" % (sometimes, text))
if not [l for l in text.splitlines() if always in l and "skipped" in l]:
    fail("report.txt does not give %s as skipped:\n%s" % (always, text))
again = json.load(open(os.path.join(rebuilt, "results.json")))
key = lambda t: t["id"]
for a, b in zip(sorted(res["tests"], key=key), sorted(again["tests"], key=key)):
    if (a["id"], a["verdict"], a["cells"]) != (b["id"], b["verdict"], b["cells"]):
        fail("report --rebuild differs: %s\nlive    %s" % (b, a))
if len(res["tests"]) != len(again["tests"]):
    fail("report --rebuild has %d tests, live %d" % (len(again["tests"]), len(res["tests"])))
PY
}
if command -v go >/dev/null; then
	cp -r "$CHECK_SRCDIR/tests/fixtures/skips" "$CHECK_TMPDIR/repo"
	rc=0
	(cd "$CHECK_TMPDIR/repo" && GOPROXY=off GOFLAGS=-mod=mod "$FLAKESWEEP" --count 10 --cpu 1 \
		--load 1 --confirm 0 --no-race --ui none -o "$out/go" >"$out/go.txt" 2>&1) || rc=$?
	[ "$rc" = 1 ] || { cat "$out/go.txt"; fail "go: exit $rc, expected 1"; }
	check go TestSometimes TestAlways TestPasses
else
	echo "# no go: the Go sweep is left out"
fi
rc=0
"$FLAKESWEEP" --driver tap --count 10 --cpu 1 --load 1 --confirm 0 --ui none -o "$out/tap" \
	-- sh "$CHECK_SRCDIR/tests/fixtures/tap/skips.sh" >"$out/tap.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$out/tap.txt"; fail "tap: exit $rc, expected 1"; }
check tap sometimes always passes
# The Python that tests/lib/pytest.sh finds, or none.
py=$(. "$CHECK_SRCDIR/tests/lib/pytest.sh" >/dev/null && echo "$py") || py=
if [ -n "$py" ]; then
	cp -r "$CHECK_SRCDIR/tests/fixtures/skips-py" "$CHECK_TMPDIR/py"
	rc=0
	(cd "$CHECK_TMPDIR/py" && unset PYTEST_ADDOPTS PYTHONPATH &&
		FLAKESWEEP_PYTHON=$py FLAKESWEEP_DATADIR=$CHECK_SRCDIR/data PYTHONDONTWRITEBYTECODE=1 \
		"$FLAKESWEEP" --driver pytest --count 10 --cpu 1 --load 1 --confirm 0 --ui none \
		-o "$out/py" >"$out/py.txt" 2>&1) || rc=$?
	[ "$rc" = 1 ] || { cat "$out/py.txt"; fail "pytest: exit $rc, expected 1"; }
	check py test_skips.py::test_sometimes test_skips.py::test_always test_skips.py::test_passes
else
	echo "# no python3 with pytest 7 or later: the pytest sweep is left out"
fi
echo ok
