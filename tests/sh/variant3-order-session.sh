#!/bin/bash
# SPDX-License-Identifier: MIT
# timeout: 400
# Issue 31 (h), variant: state that leaks through a scope wider than the
# test. pytest: a session-scoped fixture in conftest.py hands every test one
# settings dict; test_switch_to_euros changes its currency, which
# test_price_in_dollars (passes alone) expects unchanged. GoogleTest: a
# function-local static event log (a singleton) that Audit.RecordsLogin
# appends to and the victim, in a TEST_F fixture, expects empty. With
# --shuffle each victim is flaky, cause order, its polluter named in
# results.json and the report (flakesweep(1), Results; flakesweep(5),
# polluter).
set -eu
. "$CHECK_SRCDIR/tests/lib/variant3.sh"
need_pytest
need_gtest
bad=

mkdir -p store/tests
cd store
cat >tests/conftest.py <<'PY'
import pytest


@pytest.fixture(scope="session")
def settings():
    return {"currency": "USD", "locale": "en"}
PY
cat >tests/test_pricing.py <<'PY'
def test_switch_to_euros(settings):
    settings["currency"] = "EUR"
    assert settings["currency"] == "EUR"


def test_locale_default(settings):
    assert settings["locale"] == "en"


def test_rounding():
    assert round(2.675, 1) == 2.7


def test_tax_rate():
    assert 0.2 * 100 == 20


def test_price_in_dollars(settings):
    assert settings["currency"] == "USD", "price shown in " + settings["currency"]
PY
rc=0
"$FLAKESWEEP" --driver pytest --shuffle --cpu 1 --load 1 --count 16 --confirm 6 --canaries 0 \
	--ui none -o "$work/py" tests/test_pricing.py >"$work/py.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$work/py.txt"; fail "pytest sweep: exit $rc, want 1"; }
(order_check "$work/py/results.json" ::test_price_in_dollars ::test_switch_to_euros) || bad="$bad pytest"

cat >audit_test.cc <<'CC'
#include <gtest/gtest.h>
#include <string>
#include <vector>

static std::vector<std::string> &events() {
	static std::vector<std::string> log;
	return log;
}

TEST(Audit, RecordsLogin) {
	events().push_back("login");
	EXPECT_EQ(events().back(), "login");
}

class FreshAudit : public ::testing::Test {};
TEST_F(FreshAudit, StartsEmpty) { EXPECT_TRUE(events().empty()) << events().size() << " events left"; }
TEST(Clock, Tick) { EXPECT_LT(1, 2); }
TEST(Clock, Tock) { EXPECT_GT(2, 1); }
TEST(Names, Upper) { EXPECT_EQ(std::string("A"), "A"); }
TEST(Names, Lower) { EXPECT_EQ(std::string("a"), "a"); }
CC
g++ -std=c++17 -O0 audit_test.cc -o audit_test -lgtest -lgtest_main -pthread || fail "cannot build the gtest binary"
rc=0
"$FLAKESWEEP" --driver gtest --shuffle --cpu 1 --load 1 --count 18 --confirm 6 --canaries 0 \
	--ui none -o "$work/gt" -- ./audit_test >"$work/gt.txt" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$work/gt.txt"; fail "gtest sweep: exit $rc, want 1"; }
(order_check "$work/gt/results.json" FreshAudit.StartsEmpty Audit.RecordsLogin) || bad="$bad gtest"
[ -z "$bad" ] || fail "the polluter was not named for:$bad"
