/* SPDX-License-Identifier: MIT */
/*
 * test-parse-gtest.c: the GoogleTest parser against real googletest 1.12
 * output in tests/fixtures/gtest (gen-gtest-ctest.sh), each stream fed
 * whole and in 1- and 7-byte pieces: listing, shuffle seed, confirm, a hang
 * and a crash attributed to the running test, an empty selection.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "drivers/outcome.h"
#include "drivers/parse-gtest.h"
#include "base/util.h"

static const char *const status_words[] = {"PASS", "FAIL", "SKIP", "HANG"};

static char *
gtest_summary(const struct outcome *o)
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
	if (o->unreliable)
		buf_printf(&b, "unreliable: %s\n", o->unreliable_reason);
	if (o->selection_failed)
		buf_adds(&b, "selection failed\n");
	if (o->seed != NULL)
		buf_printf(&b, "seed %s\n", o->seed);
	return buf_steal(&b);
}

/* Reads tests/fixtures/gtest/NAME.txt and the exit from NAME.exit. */
static char *
gtest_fixture(const char *name, size_t *len, struct proc_exit *ex)
{
	char *path = xasprintf("%s/tests/fixtures/gtest/%s.txt", check_srcdir(), name), *data, *e;

	CHECK_INT(util_read_file(path, 1 << 20, &data, len), 0);
	free(path);
	path = xasprintf("%s/tests/fixtures/gtest/%s.exit", check_srcdir(), name);
	CHECK_INT(util_read_file(path, 64, &e, NULL), 0);
	free(path);
	memset(ex, 0, sizeof *ex);
	if (strncmp(e, "timeout", 7) == 0) {
		ex->status = -1;
		ex->signal = 15;
		ex->timed_out = true;
	} else {
		ex->status = atoi(e);
	}
	free(e);
	return data;
}

static void
gtest_parse(const char *data, size_t len, size_t chunk, const char *selected,
            const struct proc_exit *ex, struct outcome *out)
{
	struct parse_gtest *p = parse_gtest_new(selected);
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < len; i += chunk)
		parse_gtest_feed(p, data + i, len - i < chunk ? len - i : chunk);
	parse_gtest_finish(p, ex, out);
	parse_gtest_free(p);
}

/* Parses a fixture whole and in pieces; each must give want. Returns the
 * whole parse for more checks (caller frees). */
static void
gtest_check(const char *name, const char *selected, const char *want, struct outcome *whole)
{
	static const size_t chunks[] = {1, 7};
	struct proc_exit ex;
	size_t len, i;
	char *data = gtest_fixture(name, &len, &ex), *s;

	gtest_parse(data, len, len, selected, &ex, whole);
	s = gtest_summary(whole);
	if (strcmp(s, want) != 0)
		check_fail(__FILE__, __LINE__, "%s: got\n%s\nexpected\n%s", name, s, want);
	free(s);
	for (i = 0; i < UTIL_ARRAY_LEN(chunks); i++) {
		struct outcome o;

		gtest_parse(data, len, chunks[i], selected, &ex, &o);
		s = gtest_summary(&o);
		if (strcmp(s, want) != 0)
			check_fail(__FILE__, __LINE__, "%s in %zu-byte pieces: got\n%s", name,
			           chunks[i], s);
		free(s);
		outcome_free(&o);
	}
	free(data);
}

TEST(parse_gtest_list_real)
{
	char *path = xasprintf("%s/tests/fixtures/gtest/list.txt", check_srcdir()), *text, *err;
	char **tests, *joined;
	size_t n, i;
	struct buf b;

	CHECK_INT(util_read_file(path, 1 << 20, &text, NULL), 0);
	CHECK_INT(parse_gtest_list(text, &tests, &n, &err), 0);
	CHECK_INT(n, 9);
	buf_init(&b);
	for (i = 0; i < n; i++)
		buf_printf(&b, "%s\n", tests[i]);
	joined = buf_steal(&b);
	CHECK_STR(joined, "Math.Adds\nMath.Fails\nMath.Skips\nSlow.Hangs\nSlow.Crashes\n"
	                  "Ty/0.Size\nTy/1.Size\nNums/P.Even/0\nNums/P.Even/1\n");
	free(joined);
	util_strv_free(tests);
	free(text);
	free(path);
}

TEST(parse_gtest_list_bad_line)
{
	char **tests = NULL, *err = NULL;
	size_t n;

	CHECK_INT(parse_gtest_list("Running main() from x\nA.\n  b\noops here\n", &tests, &n, &err),
	          -1);
	CHECK_STR(err, "line 4: expected \"Suite.\" or \"  Name\", found \"oops here\"");
	CHECK(tests == NULL);
	free(err);
}

TEST(parse_gtest_shuffle_real)
{
	struct outcome o;

	gtest_check("run-shuffle", NULL,
	            "PASS Slow.Crashes\n"
	            "PASS Slow.Hangs\n"
	            "PASS Ty/1.Size\n"
	            "PASS Nums/P.Even/0\n"
	            "FAIL Nums/P.Even/1\n"
	            "SKIP Math.Skips\n"
	            "FAIL Math.Fails\n"
	            "PASS Math.Adds\n"
	            "PASS Ty/0.Size\n"
	            "seed 42\n",
	            &o);
	CHECK(strstr(outcome_find(&o, "Math.Fails")->lines, "off by one\n") != NULL);
	CHECK(strstr(outcome_find(&o, "Nums/P.Even/1")->lines, "Which is: 1\n") != NULL);
	outcome_free(&o);
}

TEST(parse_gtest_confirm_real)
{
	struct outcome o;

	gtest_check("run-confirm", "Nums/P.Even/1", "FAIL Nums/P.Even/1\n", &o);
	outcome_free(&o);
	gtest_check("run-none", "Nope.Nothing", "selection failed\n", &o);
	outcome_free(&o);
}

TEST(parse_gtest_hang_real)
{
	struct outcome o;

	gtest_check("run-hang", NULL,
	            "PASS Math.Adds\n"
	            "FAIL Math.Fails\n"
	            "SKIP Math.Skips\n"
	            "HANG Slow.Hangs (still running when the run was stopped at its time "
	            "limit)\n",
	            &o);
	CHECK_STR(outcome_find(&o, "Slow.Hangs")->lines, "waiting for the server\n");
	outcome_free(&o);
}

TEST(parse_gtest_crash_real)
{
	struct outcome o;

	gtest_check("run-crash", NULL,
	            "PASS Math.Adds\n"
	            "FAIL Slow.Crashes (process exited with status 134 while running)\n",
	            &o);
	outcome_free(&o);
}

TEST(parse_gtest_report_disagrees)
{
	static const char text[] =
	    "[ RUN      ] A.b\n[       OK ] A.b (0 ms)\n" PARSE_GTEST_JSON_MARK
	    "\n{\"testsuites\": [{\"testsuite\": [{\"name\": \"b\", "
	    "\"classname\": \"A\", \"status\": \"RUN\", \"failures\": "
	    "[{\"failure\": \"x\"}]}]}]}\n";
	struct proc_exit ex = {1, 0, false};
	struct outcome o;
	char *s;

	gtest_parse(text, sizeof text - 1, sizeof text - 1, NULL, &ex, &o);
	s = gtest_summary(&o);
	CHECK_STR(s, "FAIL A.b\nunreliable: the console and the JSON report disagree on A.b\n");
	free(s);
	outcome_free(&o);
}

TEST(parse_gtest_report_broken)
{
	static const char text[] =
	    "[ RUN      ] A.b\n[       OK ] A.b (0 ms)\n" PARSE_GTEST_JSON_MARK
	    "\n{\"testsuites\": [\n";
	struct proc_exit ex = {0, 0, false};
	struct outcome o;
	char *s;

	gtest_parse(text, sizeof text - 1, 5, NULL, &ex, &o);
	s = gtest_summary(&o);
	CHECK_STR(s, "PASS A.b\npackage failed: the gtest JSON report is not valid JSON\n");
	free(s);
	outcome_free(&o);
}
