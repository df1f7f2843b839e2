#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# pytest through the TAP driver (flakesweep_ledger --flakesweep-tap): the
# plugin names each test before it runs, so a run killed at --timeout while
# test_hang sleeps charges the hang to test_hang (with the stacks the plugin
# dumps on SIGTERM), not to the package; test_fail's assertion follows its
# "not ok" and is its first failure's text.
set -u
py=""
for cand in "${PYTHON:-}" python3 /usr/bin/python3; do
	[ -n "$cand" ] && "$cand" -c 'import pytest' 2>/dev/null && { py=$cand; break; }
done
[ -n "$py" ] || { echo "SKIP no python3 with pytest"; exit 77; }
w=$CHECK_TMPDIR
cat >"$w/test_h.py" <<'PY'
import time


def test_fail():
    assert "left" == "right", "the values differ"


def test_hang():
    time.sleep(600)


def test_after():
    pass
PY
cd "$w"
rc=0
PYTHONPATH=$CHECK_SRCDIR/data PYTHONDONTWRITEBYTECODE=1 "$FLAKESWEEP" --driver tap --cpu 1 \
	--load 1 --count 1 --confirm 0 --timeout 40s --kill-grace 5s --ui none -o "$w/out" \
	-- "$py" -m pytest -p flakesweep_ledger -p no:terminal -p no:cacheprovider \
	--flakesweep-tap test_h.py >"$w/sweep.log" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$w/sweep.log"; echo "FAIL: exit $rc, expected 1"; exit 1; }
python3 - "$w/out" <<'PY'
import json, os, sys
res = json.load(open(os.path.join(sys.argv[1], "results.json")))
def fail(m):
    print("FAIL:", m, json.dumps(res, indent=1)); sys.exit(1)
[pkg] = res["packages"]
if pkg["runs"] != 1 or pkg["failures_outside_tests"] != 0:
    fail("the run is charged to a test, not the package")
tests = {t["test"]: t for t in res["tests"]}
if sorted(tests) != ["test_h.py::test_fail", "test_h.py::test_hang"]:
    fail("tests %s" % sorted(tests))
hang = tests["test_h.py::test_hang"]
cells = [(c["runs"], c["failures"], c["hangs"]) for c in hang["cells"]]
if cells != [(1, 0, 1)]:
    fail("test_hang cells %s" % cells)
lines = "\n".join(hang["first_failure"]["lines"])
if not lines.startswith("Current thread ") or "line 9 in test_hang" not in lines:
    fail("test_hang's lines: %r" % lines)
bad = tests["test_h.py::test_fail"]
if [(c["runs"], c["failures"], c["hangs"]) for c in bad["cells"]] != [(1, 1, 0)]:
    fail("test_fail cells")
text = "\n".join(bad["first_failure"]["lines"])
if "AssertionError: the values differ" not in text:
    fail("test_fail's lines: %r" % text)
print("pytest-tap: hang charged to test_hang, failure text kept for test_fail")
PY
