#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 600
# Every flaky test gets a class, and quarantine add --results takes only
# what the class allows. On one core, a test that fails one run in three
# whatever the load is a test-flake, and its quarantine is taken on any
# channel; a test that holds a fixed directory in its package's directory
# fails only when runs of its package overlap, is a harness-bug, and its
# quarantine is refused (exit 2, naming the class and what to do) unless
# --force comes with --reason, and then the entry says forced and the
# class. A sweep whose canaries misbehave makes every flaky test
# isolation-broken.
set -eu
. "$CHECK_SRCDIR/tests/lib/isolation.sh"
core=$(python3 -c 'import os; print(min(os.sched_getaffinity(0)))')
out=$CHECK_TMPDIR/out
rc=0
taskset -c "$core" "$FLAKESWEEP" --cpu 1 --load 1,2 --count 30 --confirm 15 --canaries 0 \
	--timeout 30s --ui none -o "$out" ./third ./interfere >"$CHECK_TMPDIR/sweep.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$CHECK_TMPDIR/sweep.out"; fail "sweep: exit $rc, want 1"; }
python3 - "$out" <<'PY'
import json, os, sys
out = sys.argv[1]
res = json.load(open(os.path.join(out, "results.json")))
tests = {t["test"]: t for t in res["tests"]}
third, held = tests["TestOneInThree"], tests["TestHoldsDir"]
assert third["verdict"] == "flaky" and third["class"] == "test-flake", third
assert third["class_channel"] == "any", third
assert held["verdict"] == "flaky" and held["class"] == "harness-bug", held
assert held["class_channel"] is None, held
text = open(os.path.join(out, "report.txt")).read()
assert "example.com/isolation/third::TestOneInThree  [flaky, test-flake]" in text, text
assert "example.com/isolation/interfere::TestHoldsDir  [flaky, harness-bug]" in text, text
print("classes: TestOneInThree %s, TestHoldsDir %s" % (third["class"], held["class"]))
PY

q=$CHECK_TMPDIR/q.json
add() {
	"$FLAKESWEEP" quarantine add "$@" --owner o --issue '#1' --expires 2099-01-01 --file "$q"
}
held=example.com/isolation/interfere::TestHoldsDir
third=example.com/isolation/third::TestOneInThree
# A harness-bug is refused, named with its class and what to do instead.
rc=0
add "$held" any --results "$out/results.json" >"$CHECK_TMPDIR/add.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/add.out"; fail "harness-bug taken: exit $rc"; }
grep -qF "flakesweep: quarantine add: $held is harness-bug: the environment makes it fail" \
	"$CHECK_TMPDIR/add.out" || { cat "$CHECK_TMPDIR/add.out"; fail "no refusal"; }
grep -qF -- "--force --reason TEXT adds it all the same" "$CHECK_TMPDIR/add.out" ||
	fail "the refusal does not say how to override it"
[ ! -e "$q" ] || fail "a refused add wrote the file"
# --force without --reason is a usage error.
rc=0
add "$held" any --results "$out/results.json" --force >"$CHECK_TMPDIR/add.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--force without --reason: exit $rc"
[ ! -e "$q" ] || fail "--force without --reason wrote the file"
# --force --reason adds it, marked forced, with its class.
add "$held" any --results "$out/results.json" --force --reason "shared dir, fixing" \
	>"$CHECK_TMPDIR/add.out" || fail "forced add failed"
grep -qxF "forced: $held is harness-bug" "$CHECK_TMPDIR/add.out" || cat "$CHECK_TMPDIR/add.out"
# A test-flake is taken on any channel, with its class.
add "$third" any --results "$out/results.json" >/dev/null || fail "test-flake refused"
# Without --results nothing is known: add works as before.
add "$held" cpu=1 >/dev/null || fail "add without --results refused"
python3 - "$q" "$held" "$third" <<'PY'
import json, sys
q, held, third = sys.argv[1:]
e = json.load(open(q))
assert e[0]["test"] == held and e[0]["forced"] is True and e[0]["class"] == "harness-bug", e
assert e[0]["reason"] == "shared dir, fixing", e
assert e[1]["test"] == third and e[1]["class"] == "test-flake" and "forced" not in e[1], e
assert e[2]["test"] == held and "class" not in e[2] and "forced" not in e[2], e
PY
"$FLAKESWEEP" quarantine check --file "$q" >/dev/null || fail "the file does not check"
# A test the results do not hold is refused: they allow nothing of it.
rc=0
add example.com/isolation/third::TestNoSuch any --results "$out/results.json" \
	>"$CHECK_TMPDIR/add.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/add.out"; fail "a test not in the results: exit $rc"; }
grep -qF "TestNoSuch is no test of these results" "$CHECK_TMPDIR/add.out" ||
	{ cat "$CHECK_TMPDIR/add.out"; fail "no refusal naming the unknown test"; }
# A pytest test named by its bare node id (man 5: it names the same test)
# is judged by its class as by its full id.
python3 - "$out/results.json" "$CHECK_TMPDIR/py.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for t in r["tests"]:
    if t["test"] == "TestHoldsDir":
        t["id"] = "tests/test_held.py::tests/test_held.py::test_holds_dir"
        t["package"] = "tests/test_held.py"
        t["test"] = "tests/test_held.py::test_holds_dir"
r["tests"] = [t for t in r["tests"] if t["test"] == "tests/test_held.py::test_holds_dir"]
json.dump(r, open(sys.argv[2], "w"))
PY
rc=0
add tests/test_held.py::test_holds_dir any --results "$CHECK_TMPDIR/py.json" \
	>"$CHECK_TMPDIR/add.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/add.out"; fail "a bare node id skipped the class: exit $rc"; }
grep -qF "tests/test_held.py::test_holds_dir is harness-bug" "$CHECK_TMPDIR/add.out" ||
	{ cat "$CHECK_TMPDIR/add.out"; fail "the node id's refusal does not name its class"; }

# Misbehaving canaries: every flaky test is isolation-broken.
rc=0
FLAKESWEEP_CANARY_FAULT=red taskset -c "$core" "$FLAKESWEEP" --cpu 1 --load 1 --count 12 \
	--confirm 0 --canaries 50 --ui none -o "$CHECK_TMPDIR/broken" ./third \
	>"$CHECK_TMPDIR/broken.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || { cat "$CHECK_TMPDIR/broken.out"; fail "canary sweep: exit $rc, want 2"; }
python3 - "$CHECK_TMPDIR/broken/results.json" <<'PY'
import json, sys
[t] = [t for t in json.load(open(sys.argv[1]))["tests"] if t["verdict"] == "flaky"]
assert t["class"] == "isolation-broken", t
PY
rc=0
add "$third" cpu=1 --results "$CHECK_TMPDIR/broken/results.json" >"$CHECK_TMPDIR/add.out" 2>&1 ||
	rc=$?
[ "$rc" = 2 ] && grep -qF "$third is isolation-broken: a canary misbehaved" "$CHECK_TMPDIR/add.out" ||
	{ cat "$CHECK_TMPDIR/add.out"; fail "isolation-broken taken: exit $rc"; }
echo "classes: ok"
