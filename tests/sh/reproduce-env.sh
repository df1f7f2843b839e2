#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Every reproduce line reproduces in a fresh login shell: each printed line
# runs under env -i with only HOME and PATH (the documented variables), in
# a login shell whose PATH has flakesweep and go, and must fail the same way
# the sweep saw. The Go package builds only in GOPATH
# mode and fails only with --isolate-net; the TAP runner selects its test
# through FLAKESWEEP_TEST (--tap-select env); the pytest test imports a
# module found only through the sweep's PYTHONPATH, with the Python and the
# plugin's directory the sweep's FLAKESWEEP_PYTHON and FLAKESWEEP_DATADIR.
set -eu
[ "$(id -u)" = 0 ] || { echo "SKIP needs root for network namespaces"; exit 77; }
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
cd "$CHECK_TMPDIR"
cp -r "$CHECK_SRCDIR/tests/fixtures/reproduce" fx
bindir=$(dirname "$FLAKESWEEP")
installed=$bindir:$(dirname "$(command -v go)")
fresh() {
	env -i HOME="$HOME" PATH=/usr/sbin:/usr/bin:/sbin:/bin \
		bash -lc "export PATH=$installed:\$PATH; $1"
}
cd fx/gopath/src/example.com/isolated
rc=0
GO111MODULE=off GOPATH=$CHECK_TMPDIR/fx/gopath GOFLAGS=-trimpath "$FLAKESWEEP" --cpu 1 --load 1 \
	--count 2 --confirm 2 --timeout 30s --isolate-net --no-race --ui none -o "$CHECK_TMPDIR/go" . \
	>/dev/null 2>"$CHECK_TMPDIR/err" || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/err"; echo "go sweep: exit status $rc, expected 1"; exit 1; }
cd "$CHECK_TMPDIR"
"$FLAKESWEEP" --driver tap --tap-select env --cpu 1 --load 1 --count 2 --confirm 2 --timeout 30s \
	--ui none \
	-o tap -- "$CHECK_TMPDIR/fx/select.sh" >/dev/null 2>err || rc=$?
[ "$rc" = 1 ] || { cat err; echo "tap sweep: exit status $rc, expected 1"; exit 1; }
# Without a python3 that has pytest, the pytest lines are not checked.
py=$( (. "$CHECK_SRCDIR/tests/lib/pytest.sh" >/dev/null && echo "$py") || true)
if [ -n "$py" ]; then
	mkdir plugin
	cp "$CHECK_SRCDIR/data/flakesweep_ledger.py" plugin/
	cd fx/py
	rc=0
	PYTHONPATH=$CHECK_TMPDIR/fx/py/lib FLAKESWEEP_PYTHON=$py FLAKESWEEP_DATADIR=$CHECK_TMPDIR/plugin \
		"$FLAKESWEEP" --driver pytest --cpu 1 --load 1 --count 2 --confirm 2 --timeout 30s \
		--ui none -o "$CHECK_TMPDIR/py" tests/test_helper.py >/dev/null 2>"$CHECK_TMPDIR/err" || rc=$?
	[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/err"; echo "pytest sweep: exit status $rc, expected 1"; exit 1; }
	cd "$CHECK_TMPDIR"
fi
line() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
t = [t for t in d["tests"] if t["test"] == sys.argv[2]][0]
print(t["reproduce"][sys.argv[3]])' "$1" "$2" "$3"
}
bad=0
for kind in direct flakesweep; do
	l=$(line go/results.json TestSeesOnlyLoopback $kind)
	echo "go $kind: $l"
	rc=0
	fresh "$l" >out 2>&1 || rc=$?
	if [ "$rc" = 0 ] || ! grep -q "isolated: only lo is up" out; then
		cat out; echo "FAIL: the go $kind line did not reproduce (exit $rc)"; bad=1
	fi
	l=$(line tap/results.json beta $kind)
	echo "tap $kind: $l"
	rc=0
	fresh "$l" >out 2>&1 || rc=$?
	case $kind in
	direct) grep -q "selected beta alone" out && ! grep -q alpha out ;;
	flakesweep) [ "$rc" = 1 ] && grep -q -- "--tap-select env" <<<"$l" ;;
	esac || { cat out; echo "FAIL: the tap $kind line did not reproduce (exit $rc)"; bad=1; }
	[ -n "$py" ] || continue
	l=$(line py/results.json tests/test_helper.py::test_helper_agrees $kind)
	echo "pytest $kind: $l"
	rc=0
	fresh "$l" >out 2>&1 || rc=$?
	if [ "$rc" = 0 ] || ! grep -q "the helper says 41" out; then
		cat out; echo "FAIL: the pytest $kind line did not reproduce (exit $rc)"; bad=1
	fi
done
exit $bad
