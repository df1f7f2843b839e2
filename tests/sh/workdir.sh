#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 120
# Working directories: a test that creates a file in its working directory
# and fails when it is already there. Runs sharing the package's directory
# fail after the first, results.json names the file as debris left by run
# 1 with the 4 runs that started with it present, and the report suggests
# --private-workdir; with it, each run works in its own copy of the
# directory (input.txt is there), all 5 pass and the package's directory
# stays as it was.
set -eu
core=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
fixture=$CHECK_SRCDIR/tests/fixtures/tap/leaves-file.sh
for mode in shared private; do
	mkdir -p "$CHECK_TMPDIR/$mode"
	echo "read me" >"$CHECK_TMPDIR/$mode/input.txt"
done
cd "$CHECK_TMPDIR/shared"
rc=0
taskset -c "$core" "$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 5 --confirm 0 \
	--timeout 20s --ui none -o "$CHECK_TMPDIR/out-shared" -- sh "$fixture" >/dev/null || rc=$?
[ "$rc" = 1 ]
cp "$CHECK_TMPDIR/out-shared/results.json" "$CHECK_TMPDIR/live.json"
"$FLAKESWEEP" report --rebuild "$CHECK_TMPDIR/out-shared" >/dev/null || [ $? = 1 ]
cd "$CHECK_TMPDIR/private"
taskset -c "$core" "$FLAKESWEEP" --driver tap --cpu 1 --load 1 --count 5 --confirm 0 \
	--timeout 20s --ui none --private-workdir -o "$CHECK_TMPDIR/out-private" \
	-- sh "$fixture" >/dev/null
python3 - "$CHECK_TMPDIR" <<'PY'
import json, os, sys
w = sys.argv[1]
def load(*p):
    return json.load(open(os.path.join(w, *p)))
shared, live = load("out-shared", "results.json"), load("live.json")
assert shared["packages"] == live["packages"], "the journal rebuilds other packages"
[pkg] = shared["packages"]
assert pkg["debris"] == [{"path": "made-by-test", "run": 1}], pkg
assert pkg["runs_after_debris"] == 4, pkg
[t] = shared["tests"]
assert [(c["runs"], c["failures"]) for c in t["cells"]] == [(5, 4)], t["cells"]
text = open(os.path.join(w, "out-shared", "report.txt")).read()
want = ("4 of 5 runs started with debris earlier runs left in the package's "
        "directory: made-by-test (first after run 1); try --private-workdir")
assert want in text, text
assert sorted(os.listdir(os.path.join(w, "shared"))) == ["input.txt", "made-by-test"]

private = load("out-private", "results.json")
[pkg] = private["packages"]
assert "debris" not in pkg and "runs_after_debris" not in pkg, pkg
assert private["config"]["private_workdir"] is True, private["config"]
[t] = private["tests"]
assert [(c["runs"], c["failures"]) for c in t["cells"]] == [(5, 0)], t["cells"]
assert os.listdir(os.path.join(w, "private")) == ["input.txt"]
assert os.listdir(os.path.join(w, "out-private", "tmp")) == []
text = open(os.path.join(w, "out-private", "report.txt")).read()
assert "debris" not in text, text
print("workdir: shared 4 of 5 failed with debris from run 1; private 0 of 5")
PY
