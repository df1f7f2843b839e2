#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# A CPU hog starts halfway through a sweep: once half the sweep's runs
# have ended, two busy shell loops start on the machine and run to the end.
# TestCrunch busy-loops a fixed amount of work and fails when it takes more
# than 1.5 times the fastest of five runs measured first, so its failures
# follow the hog. Its cause is noise or episode (an episode with its
# window), never timing, in results.json and the report.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
command -v taskset >/dev/null || { echo "SKIP taskset is not installed"; exit 77; }
cores=$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(",".join(map(str, c[:2])) if len(c) >= 2 else "")')
[ -n "$cores" ] || { echo "SKIP needs two cores"; exit 77; }
hogs=
trap 'for p in $hogs; do kill "$p" 2>/dev/null; done' EXIT
mkdir -p "$CHECK_TMPDIR/m/crunch"
cd "$CHECK_TMPDIR/m"
printf 'module example.com/crunch\n\ngo 1.19\n' >go.mod
cat >crunch/crunch_test.go <<'GO'
package crunch

import (
	"os"
	"strconv"
	"testing"
	"time"
)

var sink uint64

func TestCrunch(t *testing.T) {
	start := time.Now()
	x := uint64(1)
	for i := 0; i < 120000000; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	sink = x
	took := time.Since(start)
	t.Logf("took %d ms", took.Milliseconds())
	limit, _ := strconv.Atoi(os.Getenv("VARIANT_LIMIT_MS"))
	if limit > 0 && took > time.Duration(limit)*time.Millisecond {
		t.Fatalf("took %v, over the deadline of %d ms", took, limit)
	}
}
GO
GOFLAGS=-mod=mod go test -c -o "$CHECK_TMPDIR/crunch.test" ./crunch >/dev/null
quiet=999999
for i in 1 2 3 4 5; do
	ms=$(taskset -c "${cores%%,*}" "$CHECK_TMPDIR/crunch.test" -test.v -test.count 1 | sed -n 's/.*took \([0-9]*\) ms.*/\1/p')
	[ "$ms" -lt "$quiet" ] && quiet=$ms
done
VARIANT_LIMIT_MS=$((quiet * 15 / 10 + 20))
export VARIANT_LIMIT_MS
echo "# quiet run: $quiet ms, deadline $VARIANT_LIMIT_MS ms"
count=30
taskset -c "$cores" "$FLAKESWEEP" --cpu 1,2 --load 1 --count $count --confirm 0 --no-race \
	--ui none -o "$CHECK_TMPDIR/out" ./... >"$CHECK_TMPDIR/stdout" 2>&1 &
sweep=$!
for i in $(seq 600); do
	n=$(grep -c '"type":"run"' "$CHECK_TMPDIR/out/journal.jsonl" 2>/dev/null) || n=0
	[ "$n" -ge $((count)) ] && break
	kill -0 $sweep 2>/dev/null || break
	sleep 0.1
done
echo "# hogs start after $n runs"
sh -c 'while :; do :; done' & hogs="$hogs $!"
sh -c 'while :; do :; done' & hogs="$hogs $!"
rc=0
wait $sweep || rc=$?
for p in $hogs; do kill "$p" 2>/dev/null; done
hogs=
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/stdout"; echo "FAIL: exit $rc, expected 1"; exit 1; }
python3 - "$CHECK_TMPDIR/out/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = {t["test"]: t for t in r["tests"]}["TestCrunch"]
causes = t.get("causes", [])
names = [c["cause"] for c in causes]
print("# causes %s" % json.dumps(causes))
if t["verdict"] != "flaky" or "timing" in names or not set(names) & {"noise", "episode"}:
    print("FAIL: TestCrunch: %s, causes %s" % (t["verdict"], names)); sys.exit(1)
for c in causes:
    if c["cause"] == "episode":
        w = c.get("window") or {}
        if not (w.get("start") and w.get("end") and w.get("failures")):
            print("FAIL: episode without its window: %s" % c); sys.exit(1)
PY
grep -E -q 'cause \((noise|episode)\)' "$CHECK_TMPDIR/out/report.txt" || { cat "$CHECK_TMPDIR/out/report.txt"; echo "FAIL: report"; exit 1; }
if grep -q 'cause (timing)' "$CHECK_TMPDIR/out/report.txt"; then echo "FAIL: timing"; exit 1; fi
echo ok
