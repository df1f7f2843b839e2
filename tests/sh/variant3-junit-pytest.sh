#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Issue 30 (e), variant: one pytest file holding a passed, a flaky (odd run
# ids fail), a failing (its assertion message holds a control character and
# a lone surrogate-escaped byte), a skipped and, last, a hung test (sleeps
# past --timeout), swept with the sweep's own --junit FILE (flakesweep(1):
# "At the end, write the results as JUnit XML to file, as junit does"), and
# converted again with flakesweep junit DIR to standard output. Both
# documents: every testsuite validates against the Surefire XSD; the flaky
# test has flakyFailure and no failure, the failing one failure, the hung
# one error type "hang", the skipped one skipped.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_pytest

mkdir -p shop/tests
cd shop
cat >tests/test_cart.py <<'PY'
import os
import sys
import time

import pytest


def test_total():
    assert 2 + 2 == 4


def test_discount():
    run = int(os.environ.get("FLAKESWEEP_RUN", "0"))
    assert run % 2 == 0, "discount applied twice on run %d" % run


def test_tax_rounding():
    sys.stdout.buffer.write(b"raw \x01\x1b[1mbold\x1b[0m \xff\xfe\n")
    sys.stdout.flush()
    assert "\x07bell" == "ok", "tax \x0b off by one \udcff"


@pytest.mark.skip(reason="needs the payment sandbox")
def test_checkout():
    pass


def test_z_webhook():
    time.sleep(120)
PY

rc=0
"$FLAKESWEEP" --driver pytest --cpu 1 --load 1 --count 3 --confirm 2 --canaries 0 \
	--timeout 6s --kill-grace 2s --ui none --junit "$work/sweep.xml" -o "$work/out" tests \
	>"$work/sweep.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$work/sweep.txt"; fail "sweep: exit $rc, want 1"; }
[ -s "$work/sweep.xml" ] || fail "--junit wrote no file"
rc=0
"$FLAKESWEEP" junit "$work/out" >"$work/stdout.xml" 2>"$work/junit.err" || rc=$?
[ "$rc" = 0 ] || { cat "$work/junit.err"; fail "flakesweep junit DIR: exit $rc, want 0"; }

for x in sweep.xml stdout.xml; do
	junit_check "$work/$x" >"$work/cases.txt"
	cat "$work/cases.txt"
	want() { # name regexp what
		local line
		line=$(grep "::$1|" "$work/cases.txt") || fail "$x: no testcase $1"
		[[ $line =~ $2 ]] || fail "$x: $3: $line"
		case $line in tests/test_cart.py\|*) ;; *) fail "$x: classname is not the package tests/test_cart.py: $line" ;; esac
	}
	want test_total '\|\|$' "the passed test has children"
	want test_discount '\|flakyFailure(,flakyFailure)*\|failure(,failure)*$' "the flaky test should have flakyFailure (type failure) only"
	want test_tax_rounding '\|failure\|failure$' "the failing test should have one failure"
	want test_z_webhook '\|error\|hang$' "the hung test should have one error of type hang"
	want test_checkout '\|skipped\|' "the skipped test should have skipped"
	echo "ok: $x validates; verdict elements as flakesweep(5) says"
done
