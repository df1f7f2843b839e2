#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# A full disk never tears the journal (reliability #89, #90). The output
# directory is a 1 MiB tmpfs and run 3 of the fixture fills it. When the
# space comes back the paused sweep goes on and ends complete with every
# run journaled; when it does not, an interrupt stops it with the measured
# runs in the printed report, and the journal still rebuilds. A run log
# the full disk cuts short is reported with the write's own error.
set -eu
[ "$(id -u)" = 0 ] || { echo "SKIP needs root to mount a small tmpfs"; exit 77; }
if [ -z "${DISK_FULL_INNER:-}" ]; then
	DISK_FULL_INNER=1 exec unshare -m --propagation private "$0" "$@" ||
		{ echo "SKIP cannot make a mount namespace"; exit 77; }
fi
cd "$CHECK_TMPDIR"
mkdir small
mount -t tmpfs -o size=1m tmpfs small || { echo "SKIP cannot mount a tmpfs"; exit 77; }
fill=$CHECK_SRCDIR/tests/fixtures/tap/fill-disk.sh

check_journal() {
	python3 - "$1" "$2" <<'PY'
import json, sys
path, want = sys.argv[1], int(sys.argv[2])
text = open(path).read()
if not text.endswith("\n"):
    print("FAIL: the journal ends mid-line"); sys.exit(1)
runs = 0
for n, line in enumerate(text.splitlines(), 1):
    try:
        obj = json.loads(line)
    except ValueError as e:
        print("FAIL: %s:%d: %s: %r" % (path, n, e, line[:80])); sys.exit(1)
    runs += obj.get("type") == "run"
if runs != want:
    print("FAIL: %d run lines, expected %d" % (runs, want)); sys.exit(1)
PY
}

# 1. The disk fills up for 3 s and frees itself.
rc=0
"$FLAKESWEEP" --driver tap --cpu 1 --load 1,2 --count 40 --confirm 0 --timeout 20s --ui line \
	-o "$PWD/small/a" -- "$fill" >out 2>err || rc=$?
cat err
[ "$rc" = 0 ] || { echo "exit status $rc, expected 0"; exit 1; }
grep -q "cannot append to $PWD/small/a/journal.jsonl: No space left on device; the sweep is paused" err ||
	{ echo "FAIL: no pause message"; exit 1; }
grep -q "the journal is written again: the sweep goes on" err || { echo "FAIL: no resume message"; exit 1; }
grep -q "^80 runs, 2 tests" out || { echo "FAIL: the report does not count 80 runs"; exit 1; }
check_journal small/a/journal.jsonl 80
"$FLAKESWEEP" report --rebuild small/a >/dev/null
python3 -c 'import json,sys; sys.exit(json.load(open("small/a/results.json"))["summary"]["runs"] != 80)' || { echo "FAIL: rebuilt results lack runs"; exit 1; }

# 2. The disk stays full until the sweep is interrupted.
rc=0
HOG_FILE=$PWD/small/fill "$FLAKESWEEP" --driver tap --cpu 1 --load 1,2 --count 40 --confirm 0 \
	--timeout 20s --ui line -o "$PWD/small/b" -- "$fill" >out 2>err &
pid=$!
for _ in $(seq 100); do
	grep -q "the sweep is paused" err && break
	sleep 0.1
done
grep -q "the sweep is paused" err || { cat err; echo "FAIL: never paused"; kill $pid; exit 1; }
sleep 0.5
kill -INT $pid
wait $pid || rc=$?
cat err
[ "$rc" = 2 ] || { echo "exit status $rc, expected 2 (results.json could not be written)"; exit 1; }
measured=$(sed -n 's/^\([0-9]*\) runs, 2 tests.*/\1/p' out)
[ "${measured:-0}" -ge 2 ] || { echo "FAIL: the printed report lost the runs"; cat out; exit 1; }
journaled=$(grep -c '"type":"run"' small/b/journal.jsonl)
check_journal small/b/journal.jsonl "$journaled"
rm small/fill
"$FLAKESWEEP" report --rebuild small/b >/dev/null || rc=$?

# 3. A failed run's log is cut short by the disk: the message gives the
# write's own error (it gave a stale errno, "No such process").
printf '#!/bin/sh\necho 1..1\ni=0\nwhile [ $i -lt 4000 ]; do echo "# diagnostic line $i of a failure long enough to fill what is left of the disk"; i=$((i + 1)); done\necho "not ok 1 - big"\n' >big.sh
mkdir small/c
avail=$(df --output=avail -B 4096 small | tail -1)
dd if=/dev/zero of=small/hog bs=4k count=$((avail - 16)) 2>/dev/null
rc=0
"$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 1 --confirm 0 --timeout 20s --ui line \
	-o "$PWD/small/c" -- sh big.sh >out 2>err &
pid=$!
for _ in $(seq 300); do
	grep -q "runs/1.log" err || ! kill -0 $pid 2>/dev/null && break
	sleep 0.1
done
rm small/hog
wait $pid || rc=$?
cat err
# 1: the test failed; 2 when results.json found the disk still full.
[ "$rc" = 1 ] || [ "$rc" = 2 ] || { echo "FAIL: exit status $rc, expected 1 or 2"; exit 1; }
grep -qx "flakesweep: cannot write $PWD/small/c/runs/1.log: No space left on device" err ||
	{ echo "FAIL: the log's write error is not ENOSPC"; exit 1; }
echo "ok: $measured runs measured, $journaled journaled before the disk filled; a cut log says ENOSPC"
