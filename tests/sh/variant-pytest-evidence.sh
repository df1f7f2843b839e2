#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# The evidence of a pytest sweep, in two more shapes: a file whose long test
# fails an assert at its end and whose other test hangs in Event.wait(); and
# a directory package (--pytest-unit dir, --shuffle) whose test fails with
# a KeyError raised in a helper module and whose other test hangs in a
# conftest fixture. The first failure's lines lead with the E lines; a hung
# run's log holds the hung test's stack; both reproduce commands of the
# failing test run it in a fresh login shell with only HOME and PATH set.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
unset PYTEST_ADDOPTS PYTHONPATH FLAKESWEEP_DATADIR
export PYTHONDONTWRITEBYTECODE=1 FLAKESWEEP_PYTHON=$py
out=$CHECK_TMPDIR/out
mkdir -p "$out"
fail() { echo "FAIL: $*"; exit 1; }
sweep() { # NAME OPTIONS AND PATHS...
	local name=$1 rc=0
	shift
	"$FLAKESWEEP" --driver pytest --cpu 1 --load 1 --count 10 --confirm 0 --timeout 10s \
		--kill-grace 1s --ui none -o "$out/$name" "$@" >"$out/$name.txt" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$out/$name.txt"; fail "$name: exit $rc, expected 1"; }
}
# evidence NAME FAILING E-LINE HUNG WHERE: FAILING's excerpt leads with
# E-LINE; HUNG's log names WHERE in its stack; FAILING's reproduce
# commands, each in a fresh shell, run it and print "ran".
evidence() {
	python3 - "$out/$1" "$2" "$3" "$4" "$5" <<'PY' || fail "$1: evidence"
import json, os, sys
d, failing, eline, hung, where = sys.argv[1:]
r = json.load(open(os.path.join(d, "results.json")))
tests = {t["test"]: t for t in r["tests"]}
lines = tests[failing]["first_failure"]["lines"]
first_e = next((i for i, l in enumerate(lines) if l.startswith("E ")), None)
if first_e is None or first_e > 2 or eline not in lines[first_e]:
    print("FAIL: %s: the excerpt does not lead with %r: %s" % (failing, eline, lines[:6])); sys.exit(1)
log = open(os.path.join(d, tests[hung]["first_failure"]["log"])).read()
if "still running at the time limit" not in log or where not in log:
    print("FAIL: %s: the log has no stack with %r:\n%s" % (hung, where, log)); sys.exit(1)
for kind in ("flakesweep", "direct"):
    open(os.path.join(d, kind + ".sh"), "w").write(tests[failing]["reproduce"][kind])
PY
	local bin
	bin=$(dirname "$FLAKESWEEP")
	env -i HOME="$HOME" PATH="$bin:/usr/bin:/bin" bash -lc "$(cat "$out/$1/flakesweep.sh") --ui none" \
		>"$out/$1.fs" 2>&1 || true
	grep -q '^10 runs, 1 test: 0 passed, 1 flaky' "$out/$1.fs" || { cat "$out/$1.fs"; fail "$1: flakesweep reproduce"; }
	env -i HOME="$HOME" PATH=/usr/bin:/bin bash -lc "$(cat "$out/$1/direct.sh")" >"$out/$1.direct" 2>&1 || true
	[ "$(grep -c -E '=+ 1 (passed|failed) in ' "$out/$1.direct")" = 10 ] ||
		{ cat "$out/$1.direct"; fail "$1: direct reproduce"; }
}

mkdir -p "$CHECK_TMPDIR/a/tests"
cd "$CHECK_TMPDIR/a"
cat >tests/test_orders.py <<'PY'
import os
import threading

RUN = int(os.environ.get("FLAKESWEEP_RUN", "0"))


def build_order(n):
    return {"id": n, "items": [{"sku": "sku-%d" % i, "qty": i % 3 + 1} for i in range(n)]}


def test_order_total():
    order = build_order(12)
    # A long test body, as real ones are: each step checked on its own.
    assert order["id"] == 12
    assert len(order["items"]) == 12
    skus = [it["sku"] for it in order["items"]]
    assert skus[0] == "sku-0"
    assert skus[-1] == "sku-11"
    qty = [it["qty"] for it in order["items"]]
    assert min(qty) == 1
    assert max(qty) == 3
    total = 0
    for it in order["items"]:
        total += it["qty"]
    expected = 24
    if RUN in (1, 4, 9):
        expected = 25  # a stale price cache
    note = "the total counts every item's quantity"
    assert note
    assert total == expected, "total %d, expected %d" % (total, expected)


def test_worker_hangs():
    if RUN in (2, 5):
        threading.Event().wait()
PY
sweep a
evidence a tests/test_orders.py::test_order_total "E       AssertionError: total 24, expected 25" \
	tests/test_orders.py::test_worker_hangs "test_orders.py\", line 35 in test_worker_hangs"

mkdir -p "$CHECK_TMPDIR/b/tests/unit"
cd "$CHECK_TMPDIR/b"
cat >tests/unit/helpers.py <<'PY'
import os

PRICES = {"apple": 3, "pear": 4}


def price_of(name):
    table = dict(PRICES)
    if os.environ.get("FLAKESWEEP_RUN") in ("1", "4", "9"):
        table.pop("pear")  # an eviction from the price cache
    return table[name]
PY
cat >tests/unit/conftest.py <<'PY'
import os
import time

import pytest


@pytest.fixture
def broker():
    if os.environ.get("FLAKESWEEP_RUN") in ("2", "5"):
        while True:
            time.sleep(0.05)  # waits for a broker that never starts
    yield "broker"
PY
cat >tests/unit/test_cart.py <<'PY'
from helpers import price_of


def test_cart_total():
    cart = ["apple", "pear", "apple"]
    seen = set()
    for item in cart:
        seen.add(item)
    assert len(seen) == 2
    assert "apple" in seen
    assert "pear" in seen
    subtotal = 0
    for item in cart:
        subtotal += price_of(item)
    assert subtotal == 10


def test_broker_ping(broker):
    assert broker == "broker"
PY
sweep b --pytest-unit dir --shuffle tests
evidence b tests/unit/test_cart.py::test_cart_total "E       KeyError: 'pear'" \
	tests/unit/test_cart.py::test_broker_ping "conftest.py\", line 11 in broker"
echo ok
