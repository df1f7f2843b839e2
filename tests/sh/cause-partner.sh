#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 180
# Interference across packages (tests/fixtures/crosspkg): package writer
# holds a file at a fixed path while its test runs; package reader fails
# whenever that file is there, so it fails only while a run of writer is
# alive. On two cores at cpu 1 every sweep run of reader overlaps a run of
# writer, and its confirm runs (reader's one test by itself, like its
# whole-package runs: the package has no other test) overlap none. The
# cause is interference with writer as its partner, never timing, in
# results.json, the report and a rebuilt report; every run line has its
# start and end on the wall clock. The same journal without them (as
# written before runs had them) claims no overlap: the cause is
# unexplained, not timing and not interference.
set -eu
command -v go >/dev/null || { echo "SKIP go is not installed"; exit 77; }
cores=$(python3 -c 'import os; c = sorted(os.sched_getaffinity(0)); print(",".join(map(str, c[:2])) if len(c) >= 2 else "")')
[ -n "$cores" ] || { echo "SKIP needs two cores"; exit 77; }
cp -r "$CHECK_SRCDIR/tests/fixtures/crosspkg" "$CHECK_TMPDIR/crosspkg"
CROSSPKG_FILE=$CHECK_TMPDIR/shared-file
export CROSSPKG_FILE
cd "$CHECK_TMPDIR/crosspkg"
rc=0
taskset -c "$cores" "$FLAKESWEEP" --cpu 1 --load 1,2 --count 20 --confirm 10 --no-race \
	--ui none -o "$CHECK_TMPDIR/out" ./... >"$CHECK_TMPDIR/stdout" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/stdout"; exit 1; }
cp "$CHECK_TMPDIR/out/results.json" "$CHECK_TMPDIR/live.json"
"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/out" >/dev/null || [ $? = 1 ]
mkdir "$CHECK_TMPDIR/old"
cp -r "$CHECK_TMPDIR/out/bin" "$CHECK_TMPDIR/old/" 2>/dev/null || true
python3 - "$CHECK_TMPDIR/out/journal.jsonl" >"$CHECK_TMPDIR/old/journal.jsonl" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    o = json.loads(l)
    o.pop("began", None)
    o.pop("ended", None)
    print(json.dumps(o, separators=(",", ":")))
PY
"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/old" >/dev/null 2>&1 || [ $? = 1 ]
python3 - "$CHECK_TMPDIR" <<'PY'
import json, os, sys
d = sys.argv[1]
runs = [json.loads(l) for l in open(os.path.join(d, "out", "journal.jsonl"))]
runs = [r for r in runs if r["type"] == "run"]
assert runs and all(1e12 < r["began"] <= r["ended"] for r in runs), runs[:3]
for name in ("live.json", "out/results.json"):
    res = json.load(open(os.path.join(d, name)))
    tests = {t["test"]: t for t in res["tests"]}
    c = tests["TestRead"]["causes"]
    kinds = [x["cause"] for x in c]
    assert "timing" not in kinds and "interference" in kinds, (name, c)
    i = [x for x in c if x["cause"] == "interference"][0]
    assert i["partner"] == "example.com/m/writer" and i["q"] < 0.01, i
    assert i["evidence"].startswith("fails while example.com/m/writer runs: "), i
    assert "causes" not in tests["TestWrite"] or tests["TestWrite"]["causes"] is None, tests["TestWrite"]
text = open(os.path.join(d, "out", "report.txt")).read()
assert "  cause (interference): fails while example.com/m/writer runs: " in text, text
old = json.load(open(os.path.join(d, "old", "results.json")))
[o] = [t for t in old["tests"] if t["test"] == "TestRead"]
assert [x["cause"] for x in o["causes"]] == ["unexplained"], o["causes"]
assert "no start and end" in o["causes"][0]["evidence"], o["causes"]
print("reader: %s; without times: %s" % (i["evidence"], o["causes"][0]["evidence"]))
PY
