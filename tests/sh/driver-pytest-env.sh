#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 600
# --driver pytest finds its plugin beside the binary, in the build tree and
# in an install (make install DESTDIR=...), with FLAKESWEEP_DATADIR unset;
# and a sweep that cannot reach the tests stops with exit status 2 and the
# fix, never "No test failed or hung.": the plugin unimportable, a python3
# first on PATH without pytest, every test file failing to collect in the
# runs.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
unset FLAKESWEEP_DATADIR PYTEST_ADDOPTS PYTHONPATH
export FLAKESWEEP_PYTHON=$py PYTHONDONTWRITEBYTECODE=1
proj=$CHECK_TMPDIR/proj
mkdir -p "$proj"
printf 'def test_fails():\n    assert 2 + 2 == 5\n' >"$proj/test_one.py"
printf 'def test_passes():\n    pass\n' >"$proj/test_two.py"
cd "$proj"
bad=0
fail() {
	echo "FAIL: $*"
	bad=1
}
sweep() { # NAME BINARY: sweeps proj; status in $rc, output under $CHECK_TMPDIR/NAME*
	rc=0
	"$2" --driver pytest --cpu 1 --load 1 --count 2 --confirm 0 --timeout 30s --ui none \
		-o "$CHECK_TMPDIR/$1" >"$CHECK_TMPDIR/$1.report" 2>"$CHECK_TMPDIR/$1.err" || rc=$?
}
# Runs that reached the tests: test_one.py fails, test_two.py passes.
reached() { # NAME
	[ "$rc" = 1 ] || fail "$1: exit status $rc, expected 1: $(cat "$CHECK_TMPDIR/$1.err")"
	grep -q '^4 runs, 2 tests: 1 passed, 0 flaky, 1 failing' "$CHECK_TMPDIR/$1.report" ||
		fail "$1: $(head -3 "$CHECK_TMPDIR/$1.report")"
}
# Stopped before the sweep's end, with exit status 2 and message.
stopped() { # NAME MESSAGE
	[ "$rc" = 2 ] || fail "$1: exit status $rc, expected 2"
	grep -qF "$2" "$CHECK_TMPDIR/$1.err" || fail "$1: no '$2' in: $(cat "$CHECK_TMPDIR/$1.err")"
	! grep -q "No test failed or hung" "$CHECK_TMPDIR/$1.report" "$CHECK_TMPDIR/$1.err" ||
		fail "$1: says no test failed"
}

# From the build tree: the plugin is the source tree's data/.
sweep build "$FLAKESWEEP"
reached build
grep -qF "PYTHONPATH=$(cd "$CHECK_SRCDIR/data" && pwd -P) " "$CHECK_TMPDIR/build.report" ||
	fail "build: the reproduce line names the source tree's data/: $(grep directly: "$CHECK_TMPDIR/build.report")"

# Installed: the plugin is the install's, found from the binary's place.
inst=$(cd "$CHECK_TMPDIR" && pwd -P)/inst
make -s -C "$CHECK_BUILDDIR" install DESTDIR="$inst" >"$CHECK_TMPDIR/install.log" 2>&1 ||
	{ cat "$CHECK_TMPDIR/install.log"; echo "make install failed"; exit 1; }
prefix=$(sed -n 's/^prefix = //p' "$CHECK_BUILDDIR/Makefile")
installed=$inst$prefix/bin/flakesweep
[ -x "$installed" ] || { echo "no $installed after make install"; exit 1; }
sweep install "$installed"
reached install
grep -qF "PYTHONPATH=$inst$prefix/share/flakesweep " "$CHECK_TMPDIR/install.report" ||
	fail "install: the reproduce line names the install's data: $(grep directly: "$CHECK_TMPDIR/install.report")"

# The plugin unimportable: stopped before the first run.
FLAKESWEEP_DATADIR=$CHECK_TMPDIR/nowhere sweep noplugin "$FLAKESWEEP"
stopped noplugin "cannot import the flakesweep_ledger plugin from $CHECK_TMPDIR/nowhere"
stopped noplugin "set FLAKESWEEP_DATADIR"
[ ! -e "$CHECK_TMPDIR/noplugin/runs" ] || [ -z "$(ls "$CHECK_TMPDIR/noplugin/runs")" ] ||
	fail "noplugin: runs were started"

# The first python3 on PATH has no pytest (nor its site packages); the
# plugin is where FLAKESWEEP_DATADIR says.
export FLAKESWEEP_DATADIR=$CHECK_SRCDIR/data
mkdir -p "$CHECK_TMPDIR/bare"
printf '#!/bin/sh\nexec %s -S "$@"\n' "$py" >"$CHECK_TMPDIR/bare/python3"
chmod +x "$CHECK_TMPDIR/bare/python3"
PATH=$CHECK_TMPDIR/bare:$PATH FLAKESWEEP_PYTHON= sweep nopytest "$FLAKESWEEP"
stopped nopytest "python3 at "
stopped nopytest "has no pytest: install python3-pytest or set FLAKESWEEP_PYTHON"

# A python3 with pytest found on PATH is recorded as its own path: the
# reproduce line starts the same one in a shell with another PATH.
mkdir -p "$CHECK_TMPDIR/withpy"
ln -s "$py" "$CHECK_TMPDIR/withpy/python3"
PATH=$CHECK_TMPDIR/withpy:$PATH FLAKESWEEP_PYTHON= sweep onpath "$FLAKESWEEP"
reached onpath
grep -q " $CHECK_TMPDIR/withpy/python3 -m pytest " "$CHECK_TMPDIR/onpath.report" ||
	fail "onpath: the reproduce line names the python3 on PATH: $(grep directly: "$CHECK_TMPDIR/onpath.report")"

# Every test file fails to collect in the runs (an import only the runs'
# environment breaks; discovery collects them): stopped, with the error.
for f in test_one.py test_two.py; do
	printf 'import os\nif "FLAKESWEEP_REPORT_FD" in os.environ:\n    import no_such_module\n' \
		>"$proj/x" && cat "$proj/$f" >>"$proj/x" && mv "$proj/x" "$proj/$f"
done
sweep nocollect "$FLAKESWEEP"
stopped nocollect "no run reached a test: pytest collected no test, only collection errors"
stopped nocollect "No module named 'no_such_module'"
exit $bad
