#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# --driver pytest run from the build tree, on a src-layout project whose
# conftest.py puts src on sys.path: it finds its plugin by itself, with
# each file or each directory a package. With the plugin unimportable
# (FLAKESWEEP_DATADIR naming a plugin that raises ImportError, or a
# directory without one), and with a virtual environment without pytest
# first on PATH or named by FLAKESWEEP_PYTHON, the sweep stops with exit 2
# before any run, says what to set, and leaves no output directory.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
work=$CHECK_TMPDIR/repo
mkdir -p "$work/src/inv" "$work/tests"
cd "$work"
unset PYTEST_ADDOPTS PYTHONPATH FLAKESWEEP_DATADIR FLAKESWEEP_PYTHON
export PYTHONDONTWRITEBYTECODE=1
cat >src/inv/__init__.py <<'PY'
def total(items):
    return sum(items)
PY
cat >tests/conftest.py <<'PY'
import os, sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
PY
cat >tests/test_total.py <<'PY'
from inv import total

def test_empty():
    assert total([]) == 0

def test_some():
    assert total([1, 2, 3]) == 6
PY
printf '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n' >pyproject.toml
out=$CHECK_TMPDIR/out
fail() { echo "FAIL: $*"; cat "$out.txt"; exit 1; }
sweep() { # NAME WANT_RC [OPTIONS AND PATHS...]
	local name=$1 want=$2 rc=0
	shift 2
	"$FLAKESWEEP" --driver pytest --cpu 1 --load 1 --count 2 --confirm 0 --ui none \
		-o "$out-$name" "$@" >"$out.txt" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || fail "$name: exit $rc, expected $want"
}
FLAKESWEEP_PYTHON=$py sweep file 0
grep -q '^2 runs, 2 tests: 2 passed' "$out.txt" || fail "file: not 2 tests passed"
FLAKESWEEP_PYTHON=$py sweep dir 0 --pytest-unit dir tests
grep -q '^2 runs, 2 tests: 2 passed' "$out.txt" || fail "dir: not 2 tests passed"
mkdir "$CHECK_TMPDIR/broken" "$CHECK_TMPDIR/empty"
echo 'raise ImportError("the ledger needs libfoo")' >"$CHECK_TMPDIR/broken/flakesweep_ledger.py"
for dd in broken empty; do
	FLAKESWEEP_PYTHON=$py FLAKESWEEP_DATADIR=$CHECK_TMPDIR/$dd sweep "$dd" 2
	grep -q "cannot import the flakesweep_ledger plugin from $CHECK_TMPDIR/$dd .*set FLAKESWEEP_DATADIR" \
		"$out.txt" || fail "$dd: the fix is not named"
	[ ! -e "$out-$dd" ] || fail "$dd: left $out-$dd"
done
"$py" -m venv --without-pip "$CHECK_TMPDIR/venv" || { echo "SKIP no venv"; exit 77; }
venv=$CHECK_TMPDIR/venv/bin
PATH=$venv:$PATH sweep path 2
grep -q "python3 at $venv/python3 has no pytest: install python3-pytest or set FLAKESWEEP_PYTHON" \
	"$out.txt" || fail "path: the python3 is not named"
FLAKESWEEP_PYTHON=$venv/python3 sweep env 2 --pytest-unit dir tests
grep -q "$venv/python3 has no pytest" "$out.txt" || fail "env: the python3 is not named"
[ ! -e "$out-path" ] && [ ! -e "$out-env" ] && [ ! -e flakesweep-out ] || fail "an output directory was left"
echo ok
