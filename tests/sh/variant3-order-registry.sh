#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# Issue 31 (h), variant: polluters that leave module state behind.
# pytest: test_register_plugin adds to a module-level dict that
# test_registry_starts_empty expects empty (it passes alone); a GoogleTest
# binary: Config.OverrideRetries sets a global that Config.DefaultRetries
# expects at its default. Swept with --shuffle (flakesweep(1), Results: "A
# test that failed only in shuffled runs of its whole package and never on
# its own is marked order-dependent ... With the go, pytest and gtest
# drivers the confirm phase then searches for its polluter"; "The report
# says 'victim fails after polluter'"): each victim is flaky with cause
# order and results.json's polluter names the polluter.
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_pytest
need_gtest
bad=

mkdir -p plug/tests
cd plug
cat >tests/test_registry.py <<'PY'
REGISTRY = {}


def test_register_plugin():
    REGISTRY["csv"] = object()
    assert "csv" in REGISTRY


def test_name_is_lower():
    assert "CSV".lower() == "csv"


def test_sum():
    assert sum([1, 2, 3]) == 6


def test_split():
    assert "a,b".split(",") == ["a", "b"]


def test_registry_starts_empty():
    assert REGISTRY == {}, "registry already holds %r" % sorted(REGISTRY)
PY
rc=0
"$FLAKESWEEP" --driver pytest --shuffle --cpu 1 --load 1 --count 16 --confirm 6 --canaries 0 \
	--ui none -o "$work/py" tests >"$work/py.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$work/py.txt"; fail "pytest sweep: exit $rc, want 1"; }
(order_check "$work/py/results.json" ::test_registry_starts_empty ::test_register_plugin) || bad="$bad pytest"

cat >config_test.cc <<'CC'
#include <gtest/gtest.h>
#include <string>

static int g_retries = 3;

TEST(Config, OverrideRetries) {
	g_retries = 0;
	EXPECT_EQ(g_retries, 0);
}
TEST(Config, DefaultRetries) { EXPECT_EQ(g_retries, 3) << "retries were overridden"; }
TEST(Math, Add) { EXPECT_EQ(2 + 2, 4); }
TEST(Math, Mul) { EXPECT_EQ(3 * 3, 9); }
TEST(Text, Length) { EXPECT_EQ(std::string("abc").size(), 3u); }
CC
g++ -std=c++17 -O0 config_test.cc -o config_test -lgtest -lgtest_main -pthread || fail "cannot build the gtest binary"
rc=0
"$FLAKESWEEP" --driver gtest --shuffle --cpu 1 --load 1 --count 16 --confirm 6 --canaries 0 \
	--ui none -o "$work/gt" -- ./config_test >"$work/gt.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$work/gt.txt"; fail "gtest sweep: exit $rc, want 1"; }
(order_check "$work/gt/results.json" Config.DefaultRetries Config.OverrideRetries) || bad="$bad gtest"
[ -z "$bad" ] || fail "the polluter was not named for:$bad"
