#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# One failure in many runs is no evidence of a cause: a Go test that fails
# only in run 7 of a 40-run sweep at four pairs, and a pytest test that
# fails only in run 13 of 40 sweep runs and 20 confirm runs, are flaky
# with the one cause "unexplained" (never "timing"), whose evidence gives
# the counts and the runs that would decide, in results.json and the report.
set -eu
out=$CHECK_TMPDIR/out
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
# unexplained NAME TEST FAILED RUNS
unexplained() {
	python3 - "$out/$1/results.json" "$2" "$3" "$4" <<'PY'
import json, sys
path, name, failed, runs = sys.argv[1:]
r = json.load(open(path))
t = [t for t in r["tests"] if t["test"] == name]
if not t:
    print("FAIL: %s is not in %s" % (name, path)); sys.exit(1)
t = t[0]
causes = [c["cause"] for c in t.get("causes", [])]
got = (sum(c["failures"] for c in t["cells"]), sum(c["runs"] for c in t["cells"]))
if t["verdict"] != "flaky" or causes != ["unexplained"] or got != (int(failed), int(runs)):
    print("FAIL: %s: %s, causes %s, %d of %d runs failed" % (name, t["verdict"], t.get("causes"), *got))
    sys.exit(1)
if not t["causes"][0]["evidence"].startswith("%s of %s runs failed" % (failed, runs)):
    print("FAIL: evidence %r" % t["causes"][0]["evidence"]); sys.exit(1)
PY
	grep -q "cause (unexplained): $3 of $4 runs failed" "$out/$1.txt" || { cat "$out/$1.txt"; fail "$1: report"; }
	if grep -q 'cause (timing)' "$out/$1.txt"; then cat "$out/$1.txt"; fail "$1: timing"; fi
}
if command -v go >/dev/null; then
	mkdir -p "$CHECK_TMPDIR/go/raft"
	cd "$CHECK_TMPDIR/go"
	printf 'module example.com/one\n\ngo 1.19\n' >go.mod
	cat >raft/raft_test.go <<'GO'
package raft

import (
	"os"
	"testing"
)

func TestElection(t *testing.T) {
	if os.Getenv("FLAKESWEEP_RUN") == "7" {
		t.Fatal("two leaders elected in term 3")
	}
}

func TestLog(t *testing.T) {}
GO
	rc=0
	GOPROXY=off GOFLAGS=-mod=mod "$FLAKESWEEP" --cpu 1,2 --load 1,2 --count 10 --confirm 0 --no-race \
		--ui none -o "$out/go" >"$out/go.txt" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$out/go.txt"; fail "go: exit $rc, expected 1"; }
	unexplained go TestElection 1 40
else
	echo "# no go: the Go sweep is left out"
fi
py=$(. "$CHECK_SRCDIR/tests/lib/pytest.sh" >/dev/null && echo "$py") || py=
[ -n "$py" ] || { echo "# no pytest: the pytest sweep is left out"; echo ok; exit 0; }
mkdir -p "$CHECK_TMPDIR/py/tests"
cd "$CHECK_TMPDIR/py"
cat >tests/test_broker.py <<'PY'
import os

RUN = os.environ.get("FLAKESWEEP_RUN")

def test_reconnect():
    assert RUN != "13", "broker dropped the message"

def test_publish():
    pass
PY
rc=0
(unset PYTEST_ADDOPTS PYTHONPATH FLAKESWEEP_DATADIR && FLAKESWEEP_PYTHON=$py PYTHONDONTWRITEBYTECODE=1 \
	"$FLAKESWEEP" --driver pytest --cpu 1 --load 1,2 --count 20 --confirm 5 --ui none -o "$out/py" \
	>"$out/py.txt" 2>&1) || rc=$?
[ "$rc" = 1 ] || { cat "$out/py.txt"; fail "pytest: exit $rc, expected 1"; }
unexplained py tests/test_broker.py::test_reconnect 1 60
echo ok
