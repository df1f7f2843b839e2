#!/bin/bash
# SPDX-License-Identifier: MIT
# The shipped pytest plugin (data/flakesweep_ledger.py) records the ambient
# channels of a small suite in a base and a head tree
# (tests/fixtures/gate/pytest); `flakesweep gate` on its ledgers, with a
# control run in which one test changes what it reads, must give the
# verdicts in expected/pytest.txt exactly.
# timeout: 300
set -u
fix="$CHECK_SRCDIR/tests/fixtures/gate"
work="$CHECK_TMPDIR/pytest"
py=

for cand in "${PYTHON:-}" python3 /usr/bin/python3; do
	[ -n "$cand" ] || continue
	if "$cand" -c 'import sys, pytest; sys.exit(int(pytest.__version__.split(".")[0]) < 7)' \
		2>/dev/null; then
		py=$cand
		break
	fi
done
[ -n "$py" ] || { echo "SKIP no python3 with pytest 7 or later"; exit 77; }

cp -r "$fix/pytest" "$work" || exit 1
chmod -R u+w "$work" || exit 1
unset FLAKESWEEP_LEDGER PYTEST_ADDOPTS
export PYTHONPATH="$CHECK_SRCDIR/data" PYTHONDONTWRITEBYTECODE=1

# ledger TREE FILE: runs the tree's suite once, appending to FILE.
ledger() {
	(cd "$work/$1" && "$py" -m pytest -q -p flakesweep_ledger --flakesweep-ledger="$2") \
		>"$work/$1.log" 2>&1
	# test_clock_fails fails in head on purpose; anything else is an error.
	if [ $? -gt 1 ]; then
		cat "$work/$1.log"
		exit 1
	fi
}

ledger base "$work/base.jsonl"
ledger head "$work/head.jsonl"
touch "$work/head/flip"
ledger head "$work/head2.jsonl"

cd "$work" || exit 1
got=$(
	"$FLAKESWEEP" gate base.jsonl head.jsonl --control head2.jsonl 2>gate.err
	rc=$?
	echo "--- stderr"
	cat gate.err
	echo "--- exit $rc"
)
if [ "${FLAKESWEEP_UPDATE_GOLDEN:-}" = 1 ]; then
	printf '%s\n' "$got" >"$fix/expected/pytest.txt"
	exit 0
fi
if ! diff -u "$fix/expected/pytest.txt" <(printf '%s\n' "$got"); then
	echo "base ledger:"
	cat base.jsonl
	echo "head ledger:"
	cat head.jsonl
	echo "control ledger:"
	cat head2.jsonl
	exit 1
fi
