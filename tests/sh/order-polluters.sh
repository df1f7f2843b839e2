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
