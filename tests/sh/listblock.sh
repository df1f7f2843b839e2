#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# A package whose TestMain blocks while its tests are listed
# (tests/fixtures/listblock: ./block sleeps before m.Run) costs no other
# package: its listing ends at the listing's time limit and is reported
# with the package's name and that limit, while ./quick's runs each get
# their whole time limit, counted from their own start, and pass.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
work=$CHECK_TMPDIR/listblock
cp -r "$CHECK_SRCDIR/tests/fixtures/listblock" "$work"
cd "$work"
export GOPROXY=off GOFLAGS=-mod=mod
out=$CHECK_TMPDIR/out
fail() { { echo "FAIL: $*"; cat "$out.txt"; } >&2; pkill -9 -f "listblock.*test.list" || true; exit 1; }
# quick OPTIONS...: sweeps ./block and ./quick; TestQuick must pass its
# three runs and ./block must be named with its listing's limit.
quick() {
	local start rc=0 took
	rm -rf "$out"
	start=$(date +%s)
	timeout 120 "$FLAKESWEEP" --cpu 1 --load 1 --count 3 --confirm 0 --no-race --ui none \
		-o "$out" "$@" ./block ./quick >"$out.txt" 2>&1 || rc=$?
	took=$(($(date +%s) - start))
	[ "$rc" != 124 ] || fail "$*: the sweep hung"
	[ "$rc" = 1 ] || fail "$*: exit $rc, expected 1 (./block failed to list)"
	python3 - "$out/results.json" <<'PY' || fail "$*: TestQuick"
import json, sys
r = json.load(open(sys.argv[1]))
t = [t for t in r["tests"] if t["test"] == "TestQuick"]
runs = sum(c["runs"] for c in t[0]["cells"]) if t else 0
if not t or t[0]["verdict"] != "passed" or runs != 3:
    print("FAIL: TestQuick is not passed in 3 runs: %s" % t, file=sys.stderr)
    sys.exit(1)
p = [p for p in r["packages"] if p["package"] == "example.com/listblock/quick"]
if p[0]["failures_outside_tests"] != 0:
    print("FAIL: quick failed outside its tests: %s" % p[0], file=sys.stderr)
    sys.exit(1)
PY
	grep -q "example.com/listblock/block" "$out.txt" || fail "$*: ./block is not named"
	echo "$took"
}
# The listing's limit is the run's, --timeout plus --kill-grace: 4 s, longer
# than a run's limit, so a timer that counted the listing's time would stop
# every run of ./quick at once.
took=$(quick --timeout 3s --kill-grace 1s)
grep -q 'test.list passed its time limit of 4000 ms' "$out/journal.jsonl" ||
	fail "no listing limit in the build record"
[ "$(pgrep -fc "listblock.*test.list")" = 0 ] || fail "the listing survived its limit"
echo "ok: ./block stopped at its listing's limit, ./quick passed 3 runs (${took} s)"
