#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# Two more shapes of tests that skip themselves: a Go package whose probe
# skips in the runs with an odd FLAKESWEEP_RUN, with a t.SkipNow() in every
# run and a table whose one subtest always skips; and a pytest file with
# the same probe, a @pytest.mark.skip test, and a test that skips in odd
# runs and fails in some even ones (a failure wins over a skip). The
# probes are skip-flaky with their counts (exit 1), the others skipped,
# the subtest that never skips passed, the one that fails flaky.
set -eu
out=$CHECK_TMPDIR/out
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
# verdicts NAME: "test verdict runs skipped" of each test of the sweep NAME.
verdicts() {
	python3 - "$out/$1/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for t in sorted(r["tests"], key=lambda t: t["id"]):
    print(t["test"], t["verdict"], sum(c["runs"] for c in t["cells"]),
          sum(c.get("skipped", 0) for c in t["cells"]))
PY
}
if command -v go >/dev/null; then
	mkdir -p "$CHECK_TMPDIR/go/probe"
	cd "$CHECK_TMPDIR/go"
	printf 'module example.com/sk\n\ngo 1.19\n' >go.mod
	cat >probe/probe_test.go <<'GO'
package probe

import (
	"os"
	"strconv"
	"testing"
)

func TestNeedsCache(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("FLAKESWEEP_RUN"))
	if n%2 == 1 {
		t.Skipf("cache not reachable (run %d)", n)
	}
}

func TestNeedsGPU(t *testing.T) {
	t.SkipNow()
}

func TestTable(t *testing.T) {
	for _, c := range []string{"a", "b"} {
		t.Run(c, func(t *testing.T) {
			if c == "b" {
				t.Skip("b is not supported")
			}
		})
	}
}
GO
	rc=0
	GOPROXY=off GOFLAGS=-mod=mod "$FLAKESWEEP" --cpu 1,2 --load 1 --count 6 --confirm 0 --no-race \
		--ui none -o "$out/go" >"$out/go.txt" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$out/go.txt"; fail "go: exit $rc, expected 1"; }
	want="TestNeedsCache skip-flaky 6 6
TestNeedsGPU skipped 0 12
TestTable passed 12 0
TestTable/a passed 12 0
TestTable/b skipped 0 12"
	[ "$(verdicts go)" = "$want" ] || { verdicts go; fail "go verdicts"; }
	grep -q 'probe::TestNeedsCache  \[skip-flaky\]  skipped in 6 of 12 runs, passed in 6' "$out/go.txt" ||
		{ cat "$out/go.txt"; fail "go: the report does not give the counts"; }
	grep -q 'probe::TestNeedsGPU  \[skipped\]  skipped in 12 of 12 runs' "$out/go.txt" ||
		{ cat "$out/go.txt"; fail "go: TestNeedsGPU is not skipped in the report"; }
else
	echo "# no go: the Go sweep is left out"
fi
py=$(. "$CHECK_SRCDIR/tests/lib/pytest.sh" >/dev/null && echo "$py") || py=
[ -n "$py" ] || { echo "# no pytest: the pytest sweep is left out"; echo ok; exit 0; }
mkdir -p "$CHECK_TMPDIR/py"
cd "$CHECK_TMPDIR/py"
cat >test_service.py <<'PY'
import os
import pytest

RUN = int(os.environ.get("FLAKESWEEP_RUN", "0"))

def test_sometimes_skipped():
    if RUN % 2 == 1:
        pytest.skip("service not up yet")

@pytest.mark.skip(reason="needs a GPU")
def test_always_skipped():
    pass

def test_skip_or_fail():
    if RUN % 2 == 1:
        pytest.skip("service not up yet")
    assert RUN % 4 != 0, "run %d" % RUN

def test_plain():
    pass
PY
rc=0
(unset PYTEST_ADDOPTS PYTHONPATH FLAKESWEEP_DATADIR && FLAKESWEEP_PYTHON=$py PYTHONDONTWRITEBYTECODE=1 \
	"$FLAKESWEEP" --driver pytest --cpu 1 --load 1,2 --count 6 --confirm 0 --ui none -o "$out/py" \
	>"$out/py.txt" 2>&1) || rc=$?
[ "$rc" = 1 ] || { cat "$out/py.txt"; fail "pytest: exit $rc, expected 1"; }
want="test_service.py::test_always_skipped skipped 0 12
test_service.py::test_plain passed 12 0
test_service.py::test_skip_or_fail flaky 6 6
test_service.py::test_sometimes_skipped skip-flaky 6 6"
[ "$(verdicts py)" = "$want" ] || { verdicts py; fail "pytest verdicts"; }
echo ok
