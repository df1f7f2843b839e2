#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# A test whose failures are independent of what else runs: TestPick fails
# when a random draw is below 0.3, in a Go module of two packages; the
# pytest test_draw does the same. Swept at two pairs with enough runs,
# neither is ever given the cause interference (nor a partner): timing,
# another supported cause, or unexplained are all honest answers.
set -eu
out=$CHECK_TMPDIR/out
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
# nointerference NAME TEST
nointerference() {
	python3 - "$out/$1/results.json" "$2" <<'PY'
import json, sys
path, name = sys.argv[1:]
r = json.load(open(path))
t = [t for t in r["tests"] if t["test"] == name]
if not t:
    print("FAIL: %s is not in %s" % (name, path)); sys.exit(1)
t = t[0]
causes = t.get("causes", [])
if t["verdict"] != "flaky" or not causes:
    print("FAIL: %s: %s, causes %s" % (name, t["verdict"], causes)); sys.exit(1)
if any(c["cause"] == "interference" or "partner" in c for c in causes):
    print("FAIL: %s: causes %s" % (name, causes)); sys.exit(1)
PY
	if grep -q 'cause (interference)' "$out/$1.txt"; then cat "$out/$1.txt"; fail "$1: interference"; fi
}
if command -v go >/dev/null; then
	mkdir -p "$CHECK_TMPDIR/go/pick" "$CHECK_TMPDIR/go/other"
	cd "$CHECK_TMPDIR/go"
	printf 'module example.com/dice\n\ngo 1.19\n' >go.mod
	cat >pick/pick_test.go <<'GO'
package pick

import (
	"math/rand"
	"testing"
	"time"
)

func TestPick(t *testing.T) {
	rand.Seed(time.Now().UnixNano())
	time.Sleep(50 * time.Millisecond)
	if v := rand.Float64(); v < 0.3 {
		t.Fatalf("drew %.3f", v)
	}
}
GO
	cat >other/other_test.go <<'GO'
package other

import (
	"testing"
	"time"
)

func TestOther(t *testing.T) { time.Sleep(50 * time.Millisecond) }
GO
	rc=0
	"$FLAKESWEEP" --cpu 1,2 --load 1,2 --count 15 --confirm 10 --no-race \
		--ui none -o "$out/go" ./... >"$out/go.txt" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$out/go.txt"; fail "go: exit $rc, expected 1"; }
	nointerference go TestPick
else
	echo "# no go: the Go sweep is left out"
fi
py=$(. "$CHECK_SRCDIR/tests/lib/pytest.sh" >/dev/null && echo "$py") || py=
[ -n "$py" ] || { echo "# no pytest: the pytest sweep is left out"; echo ok; exit 0; }
mkdir -p "$CHECK_TMPDIR/py/tests"
cd "$CHECK_TMPDIR/py"
cat >tests/test_dice.py <<'PY'
import random
import time

def test_draw():
    time.sleep(0.05)
    assert random.random() >= 0.3, "bad draw"

def test_steady():
    time.sleep(0.05)
PY
rc=0
(unset PYTEST_ADDOPTS PYTHONPATH FLAKESWEEP_DATADIR && FLAKESWEEP_PYTHON=$py PYTHONDONTWRITEBYTECODE=1 \
	"$FLAKESWEEP" --driver pytest --cpu 1,2 --load 1,2 --count 12 --confirm 10 --ui none -o "$out/py" \
	>"$out/py.txt" 2>&1) || rc=$?
[ "$rc" = 1 ] || { cat "$out/py.txt"; fail "pytest: exit $rc, expected 1"; }
nointerference py tests/test_dice.py::test_draw
echo ok
