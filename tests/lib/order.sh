# SPDX-License-Identifier: MIT
# Sourced by the polluter tests: the fixture tests/fixtures/$1 is copied
# to $CHECK_TMPDIR/$1, the current directory after; and sweep OUT
# OPTIONS... sweeps it with --shuffle at cpu 1, load 1 into
# $CHECK_TMPDIR/OUT (its output in OUT.txt) and fails unless the sweep
# exits 1, as when a test is flaky.
work=$CHECK_TMPDIR/$1
cp -r "$CHECK_SRCDIR/tests/fixtures/$1" "$work"
chmod -R u+w "$work"
cd "$work"
sweep() { # OUT OPTIONS...
	local out=$1 rc=0
	shift
	"$FLAKESWEEP" --shuffle --cpu 1 --load 1 --count 16 --confirm 3 --timeout 30s --ui none \
		-o "$CHECK_TMPDIR/$out" "$@" >"$CHECK_TMPDIR/$out.txt" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/$out.txt"; echo "FAIL: $out: exit $rc, expected 1"; exit 1; }
}
