#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# flakesweep plan for a 64-core machine from the results.json of a small
# real sweep: a Go module of two passing packages swept at cpu 1, load 1
# only, and a pytest project with a flaky test swept at cpu 1,2 (so it has
# confirm runs). The --json plan has every field flakesweep(5) lists under
# PLAN, utilisation between 0 and 1 (each phase's too), busy core-seconds
# within the usable ones, runs that add up, 50 sweep runs per package and
# pair, the unmeasured pairs listed as scaled, and confirm runs for the
# flaky test. A missing file, a file that is not results.json and
# --cores 0 are refused with exit 2, naming what is wrong.
set -eu
out=$CHECK_TMPDIR/out
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
# check RESULTS PACKAGES CONFIRM(yes|no)
check() {
	rc=0
	"$FLAKESWEEP" plan --cores 64 --cpu 1,2 --load 1,2 --count 50 --durations "$1" --json \
		>"$out/plan.json" 2>"$out/plan.err" || rc=$?
	[ "$rc" = 0 ] || { cat "$out/plan.err"; fail "plan: exit $rc"; }
	python3 - "$out/plan.json" "$2" "$3" <<'PY'
import json, sys
path, npkg, confirm = sys.argv[1], int(sys.argv[2]), sys.argv[3]
p = json.load(open(path))
def fail(m):
    print("FAIL: %s: %s" % (m, json.dumps(p))); sys.exit(1)
for k in ("cores", "keep", "lanes", "lane_width", "runs", "wall_s", "busy_core_s",
          "usable_core_s", "utilisation", "ends", "phases", "scaled"):
    if k not in p:
        fail("no %s" % k)
if p["cores"] != 64 or not 0 < p["lanes"] <= 64 or p["keep"] < 0:
    fail("machine")
if not 0 <= p["utilisation"] <= 1 or p["busy_core_s"] > p["usable_core_s"] * 1.001:
    fail("utilisation")
ph = p["phases"]
for name in ("sweep", "confirm"):
    for k in ("runs", "wall_s", "busy_core_s", "utilisation"):
        if k not in ph.get(name, {}):
            fail("no phases.%s.%s" % (name, k))
    if not 0 <= ph[name]["utilisation"] <= 1:
        fail("phases.%s.utilisation" % name)
if ph["sweep"]["runs"] + ph["confirm"]["runs"] != p["runs"]:
    fail("runs do not add up")
if ph["sweep"]["runs"] != 50 * 4 * npkg:
    fail("sweep runs %d, expected %d" % (ph["sweep"]["runs"], 50 * 4 * npkg))
if (ph["confirm"]["runs"] > 0) != (confirm == "yes"):
    fail("confirm runs")
if p["wall_s"] <= 0 or ph["sweep"]["wall_s"] <= 0 or p["wall_s"] + 0.001 < ph["sweep"]["wall_s"]:
    fail("wall times")
if not p["scaled"]:
    fail("no scaled pair, though cpu 1,2 load 1,2 was not all measured")
PY
}
# refused ARGS...: exit 2 and a message naming what is wrong
refused() {
	rc=0
	"$FLAKESWEEP" plan "$@" --json >"$out/bad.out" 2>"$out/bad.err" || rc=$?
	[ "$rc" = 2 ] || { cat "$out/bad.out" "$out/bad.err"; fail "plan $*: exit $rc, expected 2"; }
	[ -s "$out/bad.err" ] || fail "plan $*: no message"
}
if command -v go >/dev/null; then
	mkdir -p "$CHECK_TMPDIR/go/alpha" "$CHECK_TMPDIR/go/beta"
	cd "$CHECK_TMPDIR/go"
	printf 'module example.com/plan\n\ngo 1.19\n' >go.mod
	for p in alpha beta; do
		printf 'package %s\n\nimport (\n\t"testing"\n\t"time"\n)\n\nfunc TestA(t *testing.T) { time.Sleep(30 * time.Millisecond) }\n\nfunc TestB(t *testing.T) {}\n' \
			"$p" >"$p/${p}_test.go"
	done
	rc=0
	"$FLAKESWEEP" --cpu 1 --load 1 --count 3 --no-race --ui none -o "$out/go" ./... >"$out/go.txt" 2>&1 || rc=$?
	[ "$rc" = 0 ] || { cat "$out/go.txt"; fail "go sweep: exit $rc"; }
	check "$out/go/results.json" 2 no
	cd "$CHECK_TMPDIR"
fi
refused --cores 64 --durations "$CHECK_TMPDIR/missing.json"
grep -q missing.json "$out/bad.err" || { cat "$out/bad.err"; fail "missing: no path"; }
echo '{"tests": [], "name": "not results"}' >"$CHECK_TMPDIR/other.json"
refused --cores 64 --durations "$CHECK_TMPDIR/other.json"
grep -q other.json "$out/bad.err" || { cat "$out/bad.err"; fail "other.json: no path"; }
printf 'cpu,load\n1,1\n' >"$CHECK_TMPDIR/text.csv"
refused --cores 64 --durations "$CHECK_TMPDIR/text.csv"
grep -q text.csv "$out/bad.err" || { cat "$out/bad.err"; fail "text.csv: no path"; }
if [ -f "$out/go/results.json" ]; then
	refused --cores 0 --durations "$out/go/results.json"
	grep -q -- cores "$out/bad.err" || { cat "$out/bad.err"; fail "--cores 0: no option named"; }
fi
py=$(. "$CHECK_SRCDIR/tests/lib/pytest.sh" >/dev/null && echo "$py") || py=
[ -n "$py" ] || { echo "# no pytest: the pytest sweep is left out"; echo ok; exit 0; }
mkdir -p "$CHECK_TMPDIR/py/tests"
cd "$CHECK_TMPDIR/py"
cat >tests/test_queue.py <<'PY'
import os

def test_put():
    assert os.environ.get("FLAKESWEEP_RUN") != "2", "queue full"

def test_get():
    pass
PY
rc=0
(unset PYTEST_ADDOPTS PYTHONPATH FLAKESWEEP_DATADIR && FLAKESWEEP_PYTHON=$py PYTHONDONTWRITEBYTECODE=1 \
	"$FLAKESWEEP" --driver pytest --cpu 1 --load 1 --count 4 --confirm 5 --ui none -o "$out/py" \
	>"$out/py.txt" 2>&1) || rc=$?
[ "$rc" = 1 ] || { cat "$out/py.txt"; fail "pytest sweep: exit $rc, expected 1"; }
check "$out/py/results.json" 1 yes
echo ok
