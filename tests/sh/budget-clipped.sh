#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# A budget shorter than --timeout clips every run's time limit to the time
# it has left, and the report says so: report.txt says how many runs had
# their limit clipped, results.json's config.clipped_limits has the count,
# the journal's clipped line keeps it, and a rebuilt report says it again.
set -eu
. "$CHECK_SRCDIR/tests/lib/budget-mod.sh"
fail() { echo "FAIL: $*"; exit 1; }
rc=0
"$FLAKESWEEP" --for 20s --timeout 10m --cpu 1 --load 1 --no-race --ui none \
	-o "$CHECK_TMPDIR/out" ./p01 >"$CHECK_TMPDIR/out.txt" 2>&1 || rc=$?
[ "$rc" = 0 ] || { cat "$CHECK_TMPDIR/out.txt"; fail "--for 20s: exit $rc, expected 0"; }
check() { # DIR: the count in results.json, the journal and report.txt agree
	python3 - "$1" <<'PY'
import json, os, re, sys
out = sys.argv[1]
def check(cond, what):
    if not cond:
        print("FAIL:", what); sys.exit(1)
n = json.load(open(os.path.join(out, "results.json")))["config"].get("clipped_limits")
check(isinstance(n, int) and n >= 1, "config.clipped_limits: %s" % n)
lines = [json.loads(l) for l in open(os.path.join(out, "journal.jsonl"))]
clipped = [l for l in lines if l["type"] == "clipped"]
check(clipped and clipped[-1]["limits"] == n, "the journal's clipped line: %s" % clipped)
runs = len([l for l in lines if l["type"] == "run"])
text = open(os.path.join(out, "report.txt")).read()
said = "%d run%s had %s time limit clipped to the time the budget had left\n" % (
    n, "" if n == 1 else "s", "its" if n == 1 else "their")
check(said in text, "report.txt says %r:\n%s" % (said, text[:600]))
print("%s: %d runs clipped, %d ended" % (out, n, runs))
PY
}
check "$CHECK_TMPDIR/out"
grep -q "had their time limit clipped\|had its time limit clipped" "$CHECK_TMPDIR/out.txt" ||
	fail "stderr does not say so"
cp -r "$CHECK_TMPDIR/out" "$CHECK_TMPDIR/rebuilt"
rm "$CHECK_TMPDIR/rebuilt/results.json" "$CHECK_TMPDIR/rebuilt/report.txt"
"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/rebuilt" >/dev/null
check "$CHECK_TMPDIR/rebuilt"
