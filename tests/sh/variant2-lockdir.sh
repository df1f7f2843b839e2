#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# Interference across packages through a lock file at a fixed path under
# /tmp: package migrate holds it while its test runs; package store has
# two tests, one of which fails while the lock is there, and one that
# shares nothing; four more packages share nothing either. Swept at cpu 1,
# load 2 only, on two cores, TestSave is flaky with the cause interference
# and migrate as its partner (in results.json causes[].partner and the
# report), never timing.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
command -v taskset >/dev/null || { echo "SKIP taskset is not installed"; exit 77; }
cores=$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(",".join(map(str, c[:2])) if len(c) >= 2 else "")')
[ -n "$cores" ] || { echo "SKIP needs two cores"; exit 77; }
VARIANT_LOCK=/tmp/variant2-lock.$$
export VARIANT_LOCK
trap 'rm -f "$VARIANT_LOCK"' EXIT
mkdir -p "$CHECK_TMPDIR/m/migrate" "$CHECK_TMPDIR/m/store"
cd "$CHECK_TMPDIR/m"
printf 'module example.com/lockdir\n\ngo 1.19\n' >go.mod
cat >migrate/migrate_test.go <<'GO'
package migrate

import (
	"os"
	"testing"
	"time"
)

func TestMigrate(t *testing.T) {
	if err := os.WriteFile(os.Getenv("VARIANT_LOCK"), []byte("migrate"), 0o600); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(os.Getenv("VARIANT_LOCK"))
	time.Sleep(200 * time.Millisecond)
}
GO
cat >store/store_test.go <<'GO'
package store

import (
	"os"
	"testing"
	"time"
)

func TestSave(t *testing.T) {
	for i := 0; i < 10; i++ {
		if _, err := os.Stat(os.Getenv("VARIANT_LOCK")); err == nil {
			t.Fatalf("database locked by %s", os.Getenv("VARIANT_LOCK"))
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestKey(t *testing.T) {}
GO
for p in cli api auth mail; do
	mkdir -p "$p"
	printf 'package %s\n\nimport (\n\t"testing"\n\t"time"\n)\n\nfunc TestIdle(t *testing.T) { time.Sleep(200 * time.Millisecond) }\n' "$p" >"$p/${p}_test.go"
done
rc=0
taskset -c "$cores" "$FLAKESWEEP" --cpu 1 --load 2 --count 24 --confirm 10 --no-race \
	--ui none -o "$CHECK_TMPDIR/out" ./... >"$CHECK_TMPDIR/stdout" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/stdout"; echo "FAIL: exit $rc, expected 1"; exit 1; }
python3 - "$CHECK_TMPDIR/out/results.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = {t["test"]: t for t in r["tests"]}["TestSave"]
causes = t.get("causes", [])
names = [c["cause"] for c in causes]
if t["verdict"] != "flaky" or "interference" not in names or "timing" in names:
    print("FAIL: TestSave: %s, causes %s" % (t["verdict"], causes)); sys.exit(1)
c = [c for c in causes if c["cause"] == "interference"][0]
if c.get("partner") != "example.com/lockdir/migrate":
    print("FAIL: partner %r: %s" % (c.get("partner"), c)); sys.exit(1)
PY
grep -q 'cause (interference)' "$CHECK_TMPDIR/out/report.txt" || { cat "$CHECK_TMPDIR/out/report.txt"; echo "FAIL: report"; exit 1; }
grep -q 'example.com/lockdir/migrate' "$CHECK_TMPDIR/out/report.txt" || { cat "$CHECK_TMPDIR/out/report.txt"; echo "FAIL: partner in report"; exit 1; }
if grep -q 'cause (timing)' "$CHECK_TMPDIR/out/report.txt"; then echo "FAIL: timing"; exit 1; fi
echo ok
