#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 240
# pytest quarantine entries, as man 5 spells them (the node id
# tests/test_x.py::test_y) or as the dashboard writes them (the result's
# id, its package then the node id): either matches the sweep's test, is
# judged from its runs (active, not unproven), is marked quarantined in
# results.json, and exports as a --deselect that pytest takes.
set -eu
fail() { echo "FAIL: $*"; exit 1; }
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
export FLAKESWEEP_PYTHON="$py" FLAKESWEEP_DATADIR=$CHECK_SRCDIR/data PYTHONDONTWRITEBYTECODE=1
cd "$CHECK_TMPDIR"
mkdir -p proj/tests
cd proj
cat >tests/test_broker.py <<'PY'
import os


def test_reconnect():
    assert int(os.environ.get("FLAKESWEEP_RUN", "0")) % 2 == 0, "lost the broker"


class TestQueue:
    def test_drain(self):
        assert int(os.environ.get("FLAKESWEEP_RUN", "0")) % 3 != 1, "queue not drained"

    def test_ok(self):
        pass
PY
sweep() {
	rc=0
	"$FLAKESWEEP" --driver pytest --cpu 1 --load 1 --count 6 --confirm 0 --ui none \
		-o "$1" >"$1.out" 2>&1 || rc=$?
	[ "$rc" = 1 ] || { cat "$1.out"; fail "sweep $1: exit $rc, expected 1 (flaky)"; }
}
sweep ../a
reconnect=$(python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
print([t["id"] for t in r["tests"] if t["id"].endswith("::test_reconnect")][0])' ../a/results.json)
case $reconnect in *::tests/test_broker.py::test_reconnect) ;; *) fail "result id $reconnect" ;; esac
q() { "$FLAKESWEEP" quarantine "$@"; }
q add tests/test_broker.py::test_reconnect any --owner ann --issue '#1' --expires 2099-01-01 \
	--reason "node id" >/dev/null
q add "${reconnect%%::tests/*}::tests/test_broker.py::TestQueue::test_drain" any --owner ann \
	--issue '#2' --expires 2099-01-01 --reason "result id" >/dev/null
# A result id and the node id of one test are one test: a second entry is
# refused as a duplicate.
rc=0
q add "$reconnect" any --owner bob --issue '#3' --expires 2099-01-01 >dup.out 2>&1 || rc=$?
[ "$rc" != 0 ] || { cat dup.out; fail "the same test under its result id was added twice"; }
q list --results ../a/results.json >check.out 2>&1
cat check.out
for t in test_reconnect test_drain; do
	grep "$t" check.out | grep -q active || fail "$t is not judged active from its runs"
done
sweep ../b
python3 - ../b/results.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for t in r["tests"]:
    want = not t["id"].endswith("::test_ok")
    assert bool(t.get("quarantined")) == want, (t["id"], t.get("quarantined"))
PY
q export --format pytest-deselect >deselect.txt
cat deselect.txt
grep -qx -- '--deselect tests/test_broker.py::test_reconnect' deselect.txt || fail "node id entry"
grep -qx -- '--deselect tests/test_broker.py::TestQueue::test_drain' deselect.txt ||
	fail "result id entry"
# pytest takes them: both deselected, the other test runs, and passes in
# the run where both would fail.
# shellcheck disable=SC2046
FLAKESWEEP_RUN=1 "$py" -m pytest -q -p no:cacheprovider $(cat deselect.txt) >py.out 2>&1 ||
	{ cat py.out; fail "pytest with the deselects failed"; }
grep -q "1 passed, 2 deselected" py.out || { cat py.out; fail "not 2 deselected"; }
echo ok
