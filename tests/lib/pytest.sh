# SPDX-License-Identifier: MIT
# Sourced by the tests that sweep with --driver pytest: finds a python3 with
# pytest 7 or later (FLAKESWEEP_PYTHON first), or SKIPs the test; exports it
# as FLAKESWEEP_PYTHON with the source tree's data directory (the ledger
# plugin), and clears what would change how pytest runs.
py=
for cand in "${FLAKESWEEP_PYTHON:-}" /usr/bin/python3 python3; do
	[ -n "$cand" ] || continue
	if "$cand" -c 'import sys, pytest; sys.exit(int(pytest.__version__.split(".")[0]) < 7)' \
		2>/dev/null; then
		py=$(command -v "$cand")
		break
	fi
done
[ -n "$py" ] || { echo "SKIP no python3 with pytest 7 or later"; exit 77; }
export FLAKESWEEP_PYTHON=$py FLAKESWEEP_DATADIR=$CHECK_SRCDIR/data PYTHONDONTWRITEBYTECODE=1
unset PYTEST_ADDOPTS PYTHONPATH
