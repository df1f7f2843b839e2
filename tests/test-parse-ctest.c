/* SPDX-License-Identifier: MIT */
/*
 * test-parse-ctest.c: the CTest parser against real CMake 3.25 output in
 * tests/fixtures/ctest (gen-gtest-ctest.sh): the json-v1 listing, one run
 * of each kind of test, ctest's own timeout as a hang, a run stopped by
 * flakesweep, a report that is not XML.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "drivers/outcome.h"
#include "drivers/parse-ctest.h"
#include "base/util.h"

static const char *const status_words[] = {"PASS", "FAIL", "SKIP", "HANG"};

static char *
ctest_summary(const struct outcome *o)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_add(&b, "", 0);
	for (i = 0; i < o->ntests; i++) {
		buf_printf(&b, "%s %s", status_words[o->tests[i].status], o->tests[i].name);
		if (o->tests[i].reason != NULL)
			buf_printf(&b, " (%s)", o->tests[i].reason);
		buf_addc(&b, '\n');
	}
	if (o->package_failed)
		buf_printf(&b, "package failed: %s\n", o->package_reason);
	if (o->selection_failed)
		buf_adds(&b, "selection failed\n");
	return buf_steal(&b);
}

static char *
ctest_parse_text(const char *test, const char *data, size_t len, size_t chunk,
                 const struct proc_exit *ex, struct outcome *o)
{
	struct parse_ctest *p = parse_ctest_new(test);
	size_t i;

	memset(o, 0, sizeof *o);
	for (i = 0; i < len; i += chunk)
		parse_ctest_feed(p, data + i, len - i < chunk ? len - i : chunk);
	parse_ctest_finish(p, ex, o);
	parse_ctest_free(p);
	return ctest_summary(o);
}

/* Parses tests/fixtures/ctest/run-NAME.txt whole and in 3-byte pieces. */
static void
ctest_check(const char *name, const char *test, const char *want, struct outcome *whole)
{
	char *path = xasprintf("%s/tests/fixtures/ctest/run-%s.txt", check_srcdir(), name);
	char *data, *e, *s;
	struct proc_exit ex;
	struct outcome o;
	size_t len;

	CHECK_INT(util_read_file(path, 1 << 20, &data, &len), 0);
	free(path);
	path = xasprintf("%s/tests/fixtures/ctest/run-%s.exit", check_srcdir(), name);
	CHECK_INT(util_read_file(path, 64, &e, NULL), 0);
	free(path);
	memset(&ex, 0, sizeof ex);
	ex.status = atoi(e);
	free(e);
	s = ctest_parse_text(test, data, len, len, &ex, whole);
	if (strcmp(s, want) != 0)
		check_fail(__FILE__, __LINE__, "%s: got\n%s\nexpected\n%s", name, s, want);
	free(s);
	s = ctest_parse_text(test, data, len, 3, &ex, &o);
	if (strcmp(s, want) != 0)
		check_fail(__FILE__, __LINE__, "%s in pieces: got\n%s", name, s);
	free(s);
	outcome_free(&o);
	free(data);
}

TEST(parse_ctest_list_real)
{
	char *path = xasprintf("%s/tests/fixtures/ctest/show.json", check_srcdir()), *text, *err;
	char **tests;
	size_t n;

	CHECK_INT(util_read_file(path, 1 << 20, &text, NULL), 0);
	CHECK_INT(parse_ctest_list(text, &tests, &n, &err), 0);
	/* Eight tests, "off" disabled. */
	CHECK_INT(n, 7);
	CHECK_STR(tests[0], "passes");
	CHECK_STR(tests[2], "name with [regex] chars+");
	CHECK_STR(tests[5], "skip_rc");
	CHECK_STR(tests[6], "env_wd");
	CHECK(tests[7] == NULL);
	util_strv_free(tests);
	free(text);
	free(path);
}

TEST(parse_ctest_list_bad)
{
	char **tests = NULL, *err = NULL;
	size_t n;

	CHECK_INT(parse_ctest_list("{\"kind\": \"ctestInfo\"}", &tests, &n, &err), -1);
	CHECK_STR(err, "no \"tests\" array: expected ctest's json-v1 listing");
	free(err);
	err = NULL;
	CHECK_INT(parse_ctest_list("{\"tests\": [", &tests, &n, &err), -1);
	CHECK_STR(err, "not JSON (at byte 11)");
	free(err);
	err = NULL;
	CHECK_INT(parse_ctest_list("{\"tests\": [{\"name\": \"a\", \"properties\": [{\"name\": "
	                           "\"DISABLED\", \"value\": true}]}, {\"command\": []}]}",
	                           &tests, &n, &err),
	          -1);
	CHECK_STR(err, "test 2 has no \"name\" string");
	free(err);
}

TEST(parse_ctest_runs_real)
{
	struct outcome o;

	ctest_check("passes", "passes", "PASS passes\n", &o);
	outcome_free(&o);
	ctest_check("fails", "fails", "FAIL fails\n", &o);
	CHECK_STR(o.tests[0].lines, "expected 3, got 2\n");
	outcome_free(&o);
	ctest_check("skips", "skips", "SKIP skips\n", &o);
	outcome_free(&o);
	ctest_check("skip_rc", "skip_rc", "SKIP skip_rc\n", &o);
	outcome_free(&o);
	ctest_check("sleeps", "sleeps", "HANG sleeps (ctest stopped it at its TIMEOUT property)\n",
	            &o);
	outcome_free(&o);
	ctest_check("none", "nothing",
	            "package failed: exit status 8 with no test failing\n"
	            "selection failed\n",
	            &o);
	outcome_free(&o);
}

TEST(parse_ctest_stopped)
{
	static const char text[] = "Test project /b\n    Start 1: slow\n";
	struct proc_exit ex = {-1, 15, true};
	struct outcome o;
	char *s = ctest_parse_text("slow", text, sizeof text - 1, 4, &ex, &o);

	CHECK_STR(s, "HANG slow (still running when the run was stopped at its time limit)\n");
	CHECK_STR(o.tests[0].lines, "Test project /b\n    Start 1: slow\n");
	free(s);
	outcome_free(&o);
}

TEST(parse_ctest_not_xml)
{
	static const char text[] = PARSE_CTEST_JUNIT_MARK "\n<testsuite>\n<testcase name=\"a\"\n";
	struct proc_exit ex = {0, 0, false};
	struct outcome o;
	char *s = ctest_parse_text("a", text, sizeof text - 1, sizeof text - 1, &ex, &o);

	CHECK(strncmp(s, "package failed: ctest's JUnit report is not XML: line 3: ", 56) == 0);
	CHECK(strstr(s, "selection failed\n") != NULL);
	free(s);
	outcome_free(&o);
}
