/* SPDX-License-Identifier: MIT */
/*
 * test-bandaid.c: whose a band-aid or a synchronisation primitive found in
 * a change is (bandaid-reach.c): a test's own function, code the package's
 * tests share, or another test's function; and which shared primitives a
 * test's names reach.
 */
#include "config.h"

#include <stdlib.h>

#include "check.h"
#include "drivers/bandaid-reach.h"

TEST(bandaid_test_func_drops_subtests_classes_and_parameters)
{
	char *f = bandaid_test_func(true, "TestToss/heads");

	CHECK_STR(f, "TestToss");
	free(f);
	f = bandaid_test_func(false, "tests/test_x.py::TestK::test_m[1-a::b]");
	CHECK_STR(f, "test_m");
	free(f);
}

TEST(bandaid_reach_go_own_function_sibling_tests_and_package_code)
{
	/* One package: TestToss's retry is its own, TestSpin's skip is not
	 * TestToss's, coins.go and the helpers of its test files are shared. */
	CHECK_INT(bandaid_reach(true, "coins/toss_test.go", true, "TestToss", "TestToss/sub"),
	          BANDAID_OWN);
	CHECK_INT(bandaid_reach(true, "coins/spin_test.go", false, "TestSpin", "TestToss"),
	          BANDAID_OTHER);
	CHECK_INT(bandaid_reach(true, "coins/toss_test.go", true, "TestTossLater", "TestToss"),
	          BANDAID_OTHER);
	CHECK_INT(bandaid_reach(true, "coins/toss_test.go", true, "BenchmarkToss", "TestToss"),
	          BANDAID_OTHER);
	CHECK_INT(bandaid_reach(true, "coins/coins.go", false, "Tally.Add", "TestToss"),
	          BANDAID_SHARED);
	CHECK_INT(bandaid_reach(true, "coins/coins.go", false, "TestLike", "TestToss"),
	          BANDAID_SHARED);
	CHECK_INT(bandaid_reach(true, "coins/helper_test.go", false, "Tally.mu", "TestToss"),
	          BANDAID_SHARED);
	CHECK_INT(bandaid_reach(true, "coins/helper_test.go", false, "waitFor", "TestToss"),
	          BANDAID_SHARED);
	CHECK_INT(bandaid_reach(true, "coins/helper_test.go", false, "", "TestToss"),
	          BANDAID_SHARED);
	CHECK_INT(bandaid_reach(true, "coins/main_test.go", false, "TestMain", "TestToss"),
	          BANDAID_SHARED);
}

TEST(bandaid_reach_pytest_files_classes_conftest_and_helpers)
{
	const char *poll = "tests/test_poll.py::test_poll_job_done";
	const char *method = "tests/test_k.py::TestK::test_m[2]";

	CHECK_INT(bandaid_reach(false, "tests/test_poll.py", true, "test_poll_job_done", poll),
	          BANDAID_OWN);
	/* Another file's test, module level and helper are out of reach. */
	CHECK_INT(bandaid_reach(false, "tests/test_signal.py", false, "test_signal_seen", poll),
	          BANDAID_OTHER);
	CHECK_INT(bandaid_reach(false, "tests/test_signal.py", false, "", poll), BANDAID_OTHER);
	CHECK_INT(bandaid_reach(false, "tests/test_signal.py", false, "wait_for", poll),
	          BANDAID_OTHER);
	CHECK_INT(bandaid_reach(false, "tests/signal_test.py", false, "wait_for", poll),
	          BANDAID_OTHER);
	/* The test's own file: its module level and helpers are shared, its
	 * other tests are not. */
	CHECK_INT(bandaid_reach(false, "tests/test_poll.py", true, "", poll), BANDAID_SHARED);
	CHECK_INT(bandaid_reach(false, "tests/test_poll.py", true, "wait_for", poll),
	          BANDAID_SHARED);
	CHECK_INT(bandaid_reach(false, "tests/test_poll.py", true, "test_poll_other", poll),
	          BANDAID_OTHER);
	/* A file named otherwise that declares the test is a test file. */
	CHECK_INT(bandaid_reach(false, "tests/checks.py", true, "test_other", poll), BANDAID_OTHER);
	/* conftest.py and other modules are shared. */
	CHECK_INT(bandaid_reach(false, "tests/conftest.py", false, "server", poll), BANDAID_SHARED);
	CHECK_INT(bandaid_reach(false, "tests/util.py", false, "test_like", poll), BANDAID_SHARED);
	/* A method's class is the test's own; another class is not. */
	CHECK_INT(bandaid_reach(false, "tests/test_k.py", true, "TestK", method), BANDAID_OWN);
	CHECK_INT(bandaid_reach(false, "tests/test_k.py", true, "test_m", method), BANDAID_OWN);
	CHECK_INT(bandaid_reach(false, "tests/test_k.py", true, "TestJ", method), BANDAID_OTHER);
	CHECK_INT(bandaid_reach(false, "tests/test_k.py", true, "test_b",
	                        "tests/test_k.py::test_m[a::test_b]"),
	          BANDAID_OTHER);
	CHECK_INT(bandaid_reach(false, "tests/test_k.py", true, "test_k", method), BANDAID_OTHER);
}

TEST(bandaid_reach_uses_names_the_declaration_or_its_type)
{
	const char *tally = "TestTally t testing T tl Tally wg sync WaitGroup Add N Fatalf";
	const char *toss = "TestToss t testing T attempt Heads Fatal";

	CHECK(bandaid_reach_uses(tally, "Tally"));
	CHECK(bandaid_reach_uses(tally, "Tally.Add"));
	CHECK(bandaid_reach_uses(tally, "Counter.Add"));
	CHECK(!bandaid_reach_uses(toss, "Tally"));
	CHECK(!bandaid_reach_uses(toss, "Tally.Add"));
	CHECK(!bandaid_reach_uses(toss, "Head"));
	CHECK(bandaid_reach_uses(toss, "Heads"));
	CHECK(bandaid_reach_uses(toss, ""));
	CHECK(bandaid_reach_uses("", ""));
	CHECK(!bandaid_reach_uses("", "server"));
	CHECK(bandaid_reach_uses("server  client", "client"));
}
