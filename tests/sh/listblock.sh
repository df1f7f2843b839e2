#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# A package whose TestMain blocks while its tests are listed
# (tests/fixtures/listblock: ./block sleeps before m.Run) costs no other
# package: its listing ends at the listing's time limit and is reported
# with the package's name and that limit, while ./quick's runs each get
# their whole time limit, counted from their own start, and pass. While
# the listing blocks, the sweep's loop still serves its control socket.
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

# While ./block's listing blocks (its limit 21 s here), the loop goes on: a
# view attaching to the control socket gets its hello at once.
rm -rf "$out"
"$FLAKESWEEP" --cpu 1 --load 1 --count 1 --confirm 0 --no-race --ui none --timeout 20s \
	--kill-grace 1s -o "$out" ./block ./quick >"$out.txt" 2>&1 &
pid=$!
for _ in $(seq 1200); do
	pgrep -f "listblock.*test.list" >/dev/null && break
	sleep 0.05
done
pgrep -f "listblock.*test.list" >/dev/null || fail "no listing started"
python3 - "$out/control.sock" <<'PY' || { kill -9 $pid; fail "the loop stood still during the listing"; }
import json, socket, sys
c = socket.socket(socket.AF_UNIX)
c.settimeout(5)
c.connect(sys.argv[1])
line = c.makefile().readline()
if json.loads(line).get("type") != "hello":
    print("FAIL: not a hello: %r" % line, file=sys.stderr)
    sys.exit(1)
PY
kill -TERM $pid
rc=0; wait $pid || rc=$?
[ "$rc" = 130 ] || fail "SIGTERM during the listing: exit $rc, expected 130"
[ "$(pgrep -fc "listblock.*test.list")" = 0 ] || fail "the listing survived SIGTERM"
echo "ok: the control socket answered during the listing"
