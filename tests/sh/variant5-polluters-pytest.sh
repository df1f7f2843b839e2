#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 300
# Several polluters of one pytest victim, with --shuffle and the test file
# in tests/: test_empty_registry passes alone but fails after
# test_register_plugin (which fills a module-level dict) or after
# test_freeze (which sets an environment variable of the process); each
# alone breaks it, and three more tests touch nothing. The victim is
# flaky with the order cause, which names both; results.json's
# polluters[] names both, each with a reproduce command that, run as
# printed from another directory, fails the victim; report.txt says the
# victim "fails after" each of them, with the command.
set -eu
. "$CHECK_SRCDIR/tests/lib/pytest.sh"
PY=$py
export FLAKESWEEP_PYTHON="$PY"
fail() { echo "FAIL: $*"; exit 1; }
T="$CHECK_TMPDIR/v5pp"
mkdir -p "$T/proj/tests"
cd "$T/proj"
unset REGISTRY_FROZEN || true
cat > tests/test_registry.py <<'P'
import os

REGISTRY = {}


def test_register_plugin():
    REGISTRY["csv"] = object()


def test_freeze():
    os.environ["REGISTRY_FROZEN"] = "1"


def test_lookup_missing():
    assert "nope" not in {"a": 1}


def test_names():
    assert sorted(["b", "a"]) == ["a", "b"]


def test_sizes():
    assert len("abc") == 3


def test_empty_registry():
    assert not REGISTRY, "registry not empty: entries left behind"
    assert "REGISTRY_FROZEN" not in os.environ, "registry not empty: frozen"
P

set +e
"$FLAKESWEEP" --driver pytest --shuffle --count 16 --confirm 12 --cpu 1 --load 1 -o "$T/out" tests >"$T/sweep.out" 2>&1
rc=$?
set -e
[ "$rc" = 1 ] || { tail -20 "$T/sweep.out"; fail "sweep exited $rc, not 1"; }
R="$T/out/results.json"
V='.tests[] | select(.id | test("test_empty_registry$"))'
jq -e "[$V | .verdict] == [\"flaky\"]" "$R" >/dev/null || fail "victim not flaky: $(jq -c '[.tests[] | {id, verdict}]' "$R")"
names=$(jq -r "$V | .polluters[]?.test" "$R" | sort | tr '\n' ' ')
echo "polluters: $names"
case "$names" in *test_freeze*test_register_plugin*) ;; *)
	jq -c "$V | {polluter, polluters, causes}" "$R"
	fail "polluters[] does not name both test_register_plugin and test_freeze: '$names'" ;;
esac
case "$names" in *test_lookup_missing* | *test_names* | *test_sizes*) fail "an innocent test named a polluter: $names" ;; esac
order=$(grep -E "cause \(order\)" "$T/out/report.txt" || true)
echo "$order" | grep -q "test_register_plugin" && echo "$order" | grep -q "test_freeze" ||
	{ grep -n "cause" "$T/out/report.txt"; fail "the order cause does not name both polluters"; }
for p in test_register_plugin test_freeze; do
	grep -E "test_empty_registry.* fails after .*$p" "$T/out/report.txt" >/dev/null ||
		{ grep -n "fails after\|polluter" "$T/out/report.txt"; fail "report.txt has no 'test_empty_registry fails after $p' line"; }
	cmd=$(jq -r --arg p "$p" "$V | .polluters[] | select(.test | test(\$p)) | .reproduce" "$R")
	[ -n "$cmd" ] && [ "$cmd" != null ] || fail "no reproduce for $p"
	grep -qF -- "$cmd" "$T/out/report.txt" || fail "report.txt lacks the reproduce command for $p: $cmd"
	set +e
	(cd "$T" && bash -c "$cmd") >"$T/repro-$p.out" 2>&1
	rrc=$?
	set -e
	[ "$rrc" != 0 ] || { cat "$T/repro-$p.out"; fail "reproduce for $p exited 0: $cmd"; }
	grep -q "registry not empty" "$T/repro-$p.out" || { cat "$T/repro-$p.out"; fail "reproduce for $p did not fail the victim: $cmd"; }
done
echo "PASS"
