# SPDX-License-Identifier: MIT
# Sourced by the tests of --driver pytest: py is the absolute path of the
# first of $FLAKESWEEP_PYTHON, /usr/bin/python3 and python3 that has pytest
# 7 or later; without one, the test is a SKIP.
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
