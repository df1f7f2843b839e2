#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 600
# An order-dependent victim is order, with its polluter, never
# interference: shuffled at loads 1 and 2 on one core, its whole-package
# runs at load 2 overlap one another and those at load 1 do not, while its
# confirm runs (the victim by itself: no polluter ever runs before it)
# pass. Interference compares like with like (whole-package runs with
# whole-package runs, the victim by itself with the same, pair by pair),
# so the confirm runs' passes are no evidence that overlap hurts. In Go
# (tests/fixtures/case06) and in pytest (data/demo-py/test_order.py), each
# with its polluter.
set -eu
core=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
check() { # DIR TEST POLLUTER (- when the driver has no polluter search)
	python3 - "$@" <<'PY'
import json, os, sys
out, test, polluter = sys.argv[1:]
res = json.load(open(os.path.join(out, "results.json")))
[t] = [t for t in res["tests"] if t["test"].split("::")[-1] == test]
kinds = [c["cause"] for c in t["causes"]]
print("%s: %s" % (test, [(c["cause"], c["evidence"]) for c in t["causes"]]))
assert "interference" not in kinds and "timing" not in kinds, t["causes"]
assert "order" in kinds, t["causes"]
assert polluter == "-" or t["polluter"]["test"].split("::")[-1] == polluter, t.get("polluter")
PY
}
if command -v go >/dev/null; then
	cp -r "$CHECK_SRCDIR/tests/fixtures/case06" "$CHECK_TMPDIR/case06"
	(cd "$CHECK_TMPDIR/case06" && taskset -c "$core" "$FLAKESWEEP" --shuffle --cpu 1 --load 1,2 \
		--count 20 --confirm 10 --no-race --ui none -o "$CHECK_TMPDIR/go" ./... \
		>"$CHECK_TMPDIR/go.out" 2>&1) || [ $? = 1 ]
	check "$CHECK_TMPDIR/go" TestOutputQuietByDefault TestSetVerbose
fi
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
export FLAKESWEEP_PYTHON=$py FLAKESWEEP_DATADIR=$CHECK_SRCDIR/data PYTHONDONTWRITEBYTECODE=1
unset PYTEST_ADDOPTS PYTHONPATH
cp -r "$CHECK_SRCDIR/data/demo-py" "$CHECK_TMPDIR/demo-py"
chmod -R u+w "$CHECK_TMPDIR/demo-py"
(cd "$CHECK_TMPDIR/demo-py" && taskset -c "$core" "$FLAKESWEEP" --driver pytest --shuffle --cpu 1 \
	--load 1,2 --count 20 --confirm 10 --timeout 15s --ui none -o "$CHECK_TMPDIR/py" \
	test_order.py >"$CHECK_TMPDIR/py.out" 2>&1) || [ $? = 1 ]
check "$CHECK_TMPDIR/py" test_output_quiet_by_default test_set_verbose
