#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# A TestMain that never returns: listing its tests is time-limited, a
# signal during the listing stops the sweep (exit 130) and kills the
# listing, and so does kill -9 of flakesweep.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
work=$CHECK_TMPDIR/listhang
cp -r "$CHECK_SRCDIR/tests/fixtures/listhang" "$work"
cd "$work"
# Only ever run in the background: exec, so $! is flakesweep.
fs() { exec "$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --timeout 2s --kill-grace 1s \
	--ui none "$@"; }
listing() { pgrep -f "listhang.*test.list" | wc -l; }
wait_listing() {
	for _ in $(seq 1200); do
		[ "$(listing)" -ge 1 ] && return 0
		sleep 0.05
	done
	echo "FAIL: no listing started"; exit 1
}
fail() { echo "FAIL: $*"; pkill -9 -f "listhang.*test.list" || true; exit 1; }

for sig in TERM INT HUP; do
	fs -o "$CHECK_TMPDIR/sig$sig" ./... >"$CHECK_TMPDIR/stdout" 2>&1 &
	pid=$!
	wait_listing
	kill -$sig $pid
	rc=0; timeout 10 tail --pid=$pid -f /dev/null || fail "SIG$sig did not stop the sweep"
	wait $pid || rc=$?
	[ "$rc" = 130 ] || fail "SIG$sig: exit $rc, expected 130"
	[ "$(listing)" = 0 ] || fail "SIG$sig: the listing survived"
done

fs -o "$CHECK_TMPDIR/k9" ./... >"$CHECK_TMPDIR/stdout" 2>&1 &
pid=$!
wait_listing
kill -9 $pid
wait $pid 2>/dev/null || true
sleep 0.5
[ "$(listing)" = 0 ] || fail "the listing outlived kill -9 of flakesweep"

# Unattended, the listing's time limit ends it; the sweep does not hang.
start=$(date +%s)
rc=0; timeout 60 "$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --timeout 2s \
	--kill-grace 1s --ui none -o "$CHECK_TMPDIR/limit" ./... >"$CHECK_TMPDIR/stdout" 2>&1 || rc=$?
[ "$rc" != 124 ] || fail "the sweep hung on the listing"
grep -q 'time limit' "$CHECK_TMPDIR/limit/journal.jsonl" || fail "no time limit in the build record"
[ "$(listing)" = 0 ] || fail "the listing survived its time limit"
echo "ok: listing stopped by TERM, INT, HUP, kill -9 and its limit ($(($(date +%s) - start)) s)"
