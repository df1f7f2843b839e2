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

sweep py --driver pytest test_pollute.py
check py test_pollute.py::test_reads_default "FAILED test_pollute.py::test_reads_default" \
	test_pollute.py::test_switch_mode

[ -f /usr/include/gtest/gtest.h ] || { echo "SKIP GoogleTest is not installed"; exit 77; }
g++ -o pollute_test pollute_test.cc -lgtest -lgtest_main -pthread
sweep gtest --driver gtest -- ./pollute_test
check gtest Mode.ReadsDefault "[  FAILED  ] Mode.ReadsDefault" Mode.SwitchesMode
