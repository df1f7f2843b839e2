/* SPDX-License-Identifier: MIT */
/*
 * test-parse-tap.c: the TAP parser against the real Node and Perl samples
 * and the TAP 14 examples in tests/fixtures/reference, each fed whole and in 1- and 7-byte
 * pieces, plus plans, bail outs, hangs and crashes inside subtests.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "drivers/outcome.h"
#include "drivers/parse-tap.h"
#include "base/util.h"

static const char *const status_words[] = {"PASS", "FAIL", "SKIP", "HANG"};

static char *
summary(const struct outcome *o)
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
full_dump(const struct outcome *o)
{
	char *s = summary(o);
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_adds(&b, s);
	free(s);
	for (i = 0; i < o->ntests; i++)
		buf_printf(&b, "[%s]\n%s\n", o->tests[i].name,
		           o->tests[i].lines != NULL ? o->tests[i].lines : "(null)");
	buf_printf(&b, "[package]\n%s\n", o->package_lines != NULL ? o->package_lines : "(null)");
	return buf_steal(&b);
}

static void
parse(const char *data, size_t len, const char *selected, const struct proc_exit *ex, size_t chunk,
      struct outcome *out)
{
	struct parse_tap *p = parse_tap_new(selected);
	size_t i;

	memset(out, 0, sizeof *out);
	for (i = 0; i < len; i += chunk)
		parse_tap_feed(p, data + i, len - i < chunk ? len - i : chunk);
	parse_tap_finish(p, ex, out);
	parse_tap_free(p);
}

/* Parses whole and in 1- and 7-byte pieces; the three must agree and the
 * summary must be the expected one. */
static void
check_run(const char *label, const char *data, size_t len, const char *selected,
          const struct proc_exit *ex, const char *want)
{
	static const size_t chunks[] = {1, 7};
	struct outcome whole;
	char *s, *dump;
	size_t i;

	parse(data, len, selected, ex, len > 0 ? len : 1, &whole);
	s = summary(&whole);
	if (strcmp(s, want) != 0)
		check_fail(__FILE__, __LINE__, "%s: got\n%s\nexpected\n%s", label, s, want);
	free(s);
	for (i = 0; i < whole.ntests; i++) {
		const struct outcome_test *t = &whole.tests[i];
		bool bad = t->status == OUTCOME_FAIL || t->status == OUTCOME_HANG;

		if (bad != (t->lines != NULL) ||
		    (t->lines != NULL && strlen(t->lines) > OUTCOME_LINES_CAP))
			check_fail(__FILE__, __LINE__, "%s: bad lines for %s", label, t->name);
	}
	dump = full_dump(&whole);
	for (i = 0; i < UTIL_ARRAY_LEN(chunks); i++) {
		struct outcome o;
		char *d;

		parse(data, len, selected, ex, chunks[i], &o);
		d = full_dump(&o);
		if (strcmp(d, dump) != 0)
			check_fail(__FILE__, __LINE__,
			           "%s: %zu-byte chunks give\n%s\nwhole gives\n%s", label,
			           chunks[i], d, dump);
		free(d);
		outcome_free(&o);
	}
	free(dump);
	outcome_free(&whole);
}

#define CHECK_TAP(label, text, ex, want) check_run(label, text, sizeof text - 1, NULL, ex, want)

/* A sample from tests/fixtures/reference/tap and its exit status, read
 * from the "exit=N" file beside it when there is one. */
static char *
read_sample(const char *rel, const char *exitrel, size_t *len, int *status)
{
	const char *src = check_srcdir();
	char *path, *data;

	path = xasprintf("%s/tests/fixtures/reference/tap/%s", src, rel);
	CHECK_INT(util_read_file(path, 1 << 20, &data, len), 0);
	free(path);
	*status = 0;
	if (exitrel != NULL) {
		char *e;

		path = xasprintf("%s/tests/fixtures/reference/tap/%s", src, exitrel);
		CHECK_INT(util_read_file(path, 4096, &e, NULL), 0);
		CHECK(strncmp(e, "exit=", 5) == 0);
		*status = atoi(e + 5);
		free(e);
		free(path);
	}
	return data;
}

static const struct outcome_test *
need_test(const struct outcome *o, const char *name)
{
	const struct outcome_test *t = outcome_find(o, name);

	if (t == NULL)
		check_fail(__FILE__, __LINE__, "no test %s in the outcome", name);
	return t;
}

TEST(parse_tap_node20_sample)
{
	struct proc_exit ex = {0, 0, false};
	struct outcome o;
	size_t len;
	char *data = read_sample("node/node20_tap.tap", "node/node20_tap.exit", &len, &ex.status);
	const char *lines;

	CHECK_INT(ex.status, 1);
	check_run("node", data, len, NULL, &ex,
	          "PASS passes\n"
	          "FAIL fails\n"
	          "SKIP skipped\n"
	          "SKIP todo item\n"
	          "FAIL suite\n"
	          "PASS suite/nested pass\n"
	          "FAIL suite/nested fail\n"
	          "PASS suite/inner\n"
	          "PASS suite/inner/deep\n"
	          "PASS parent with subtests\n"
	          "PASS parent with subtests/child ok\n"
	          "SKIP parent with subtests/child skip\n");
	parse(data, len, NULL, &ex, len, &o);
	lines = need_test(&o, "fails")->lines;
	CHECK(strncmp(lines, "duration_ms: 11.721639\n", 23) == 0);
	CHECK(strstr(lines, "error: |-\n  Expected values to be strictly deep-equal:\n") != NULL);
	CHECK(strstr(need_test(&o, "suite/nested fail")->lines, "error: 'boom <&> \"quoted\"'\n") !=
	      NULL);
	outcome_free(&o);
	free(data);
}

TEST(parse_tap_perl_samples)
{
	struct proc_exit ex = {0, 0, false};
	struct outcome o;
	size_t len;
	char *data = read_sample("perl/sample.merged.tap", "perl/sample.exit", &len, &ex.status);
	static const char want[] = "PASS passes\n"
	                           "FAIL fails with diagnostics\n"
	                           "SKIP test 3\n"
	                           "SKIP todo failing\n"
	                           "SKIP todo passing (bonus)\n"
	                           "FAIL a subtest\n"
	                           "PASS a subtest/inner ok\n"
	                           "FAIL a subtest/inner fail\n";

	CHECK_INT(ex.status, 2);
	check_run("perl merged", data, len, NULL, &ex, want);
	parse(data, len, NULL, &ex, len, &o);
	CHECK_STR(need_test(&o, "fails with diagnostics")->lines,
	          "#   Failed test 'fails with diagnostics'\n"
	          "#   at sample.t line 6.\n"
	          "#          got: '2'\n"
	          "#     expected: '3'\n");
	CHECK(strstr(need_test(&o, "a subtest/inner fail")->lines, "Failed test 'inner fail'") !=
	      NULL);
	outcome_free(&o);
	free(data);
	data = read_sample("perl/sample.stdout.tap", "perl/sample.exit", &len, &ex.status);
	check_run("perl stdout", data, len, NULL, &ex, want);
	free(data);
	data = read_sample("perl/bailout.tap", "perl/bailout.exit", &len, &ex.status);
	CHECK_INT(ex.status, 255);
	check_run("perl bailout", data, len, NULL, &ex,
	          "PASS first\npackage failed: Bail out!  database unavailable\n");
	free(data);
	data = read_sample("perl/skipall.tap", "perl/skipall.exit", &len, &ex.status);
	CHECK_INT(ex.status, 0);
	check_run("perl skipall", data, len, NULL, &ex, "");
	free(data);
}

TEST(parse_tap_tap14_spec_examples)
{
	struct proc_exit ex = {0, 0, false};
	struct outcome o;
	size_t len;
	char *data = read_sample("tap14_spec_examples.tap", NULL, &len, &ex.status);

	check_run("tap14", data, len, NULL, &ex,
	          "PASS plain pass\n"
	          "PASS description without dash\n"
	          "SKIP has hash # in description\n"
	          "SKIP skipped\n"
	          "FAIL failing with diagnostics\n"
	          "FAIL group one\n"
	          "PASS group one/inner pass\n"
	          "FAIL group one/inner fail\n"
	          "PASS test 7\n"
	          "PASS test 7/nested parent\n"
	          "PASS test 7/nested parent/nested twice\n"
	          "PASS fatal group/before bail\n"
	          "package failed: Bail out! database unavailable\n");
	parse(data, len, NULL, &ex, len, &o);
	CHECK_STR(need_test(&o, "failing with diagnostics")->lines,
	          "message: 'expected 2, got 3'\nseverity: fail\ndata:\n  got: 3\n  expect: 2\n");
	CHECK_STR(need_test(&o, "group one/inner fail")->lines, "message: inner failure\n");
	outcome_free(&o);
	free(data);
}

TEST(parse_tap_plans)
{
	struct proc_exit ok = {0, 0, false};

	CHECK_TAP("plan first", "TAP version 14\n1..2\nok 1 - a\nok 2 - b\n", &ok,
	          "PASS a\nPASS b\n");
	CHECK_TAP("plan last", "ok\nok\n1..2\n", &ok, "PASS test 1\nPASS test 2\n");
	CHECK_TAP("no plan", "ok 1 - a\n", &ok,
	          "PASS a\npackage failed: no plan: the stream ended after 1 test points\n");
	CHECK_TAP("short", "1..3\nok 1 - a\nok 2 - b\n", &ok,
	          "PASS a\nPASS b\npackage failed: planned 3 tests but ran 2\n");
	CHECK_TAP("two plans", "1..1\nok 1 - a\n1..1\n", &ok,
	          "PASS a\npackage failed: 2 plans in one stream\n");
	CHECK_TAP("plan between", "ok 1 - a\n1..2\nok 2 - b\n", &ok,
	          "PASS a\nPASS b\npackage failed: the plan came between test points\n");
	CHECK_TAP("sequence", "1..2\nok 1 - a\nok 3 - b\n", &ok,
	          "PASS a\nPASS b\npackage failed: test point numbered 3 where 2 was expected\n");
	CHECK_TAP("skip all", "1..0 # skip no GPU\n", &ok, "");
	CHECK_TAP("nothing", "", &ok,
	          "package failed: no plan: the stream ended after 0 test points\n");
}

TEST(parse_tap_points_and_directives)
{
	struct proc_exit ok = {0, 0, false}, one = {1, 0, false};

	CHECK_TAP("directives",
	          "1..6\n"
	          "ok 1 - skipped # SKIP no network\n"
	          "not ok 2 - skipped failure # skip\n"
	          "not ok 3 - todo # TODO later\n"
	          "ok 4 - bonus # todo\n"
	          "not ok 5 - escaped \\# hash and \\\\ slash # Skipper is not a directive\n"
	          "ok 6 - okay #\n",
	          &one,
	          "SKIP skipped\n"
	          "SKIP skipped failure\n"
	          "SKIP todo\n"
	          "SKIP bonus\n"
	          "FAIL escaped # hash and \\ slash\n"
	          "PASS okay\n");
	CHECK_TAP("not points", "1..1\nokay 1\nnot okay\nok 1 -\n", &ok, "PASS test 1\n");
	CHECK_TAP("duplicates", "1..3\nok 1 - same\nnot ok 2 - same\nok 3 - same\n", &one,
	          "PASS same\nFAIL same#01\nPASS same#02\n");
	CHECK_TAP("crlf", "1..1\r\nnot ok 1 - win\r\n  ---\r\n  a: 1\r\n  ...\r\n", &one,
	          "FAIL win\n");
	CHECK_TAP("exit without failure", "1..1\nok 1 - a\n", &one,
	          "PASS a\npackage failed: exit status 1\n");
}

TEST(parse_tap_yaml_and_comments_go_to_the_failure)
{
	static const char text[] = "1..2\n"
	                           "not ok 1 - bad\n"
	                           "  ---\n"
	                           "  message: nope\n"
	                           "\n"
	                           "  data:\n"
	                           "    got: \0x\n"
	                           "  ...\n"
	                           "# diag for bad\n"
	                           "ok 2 - good\n"
	                           "  ---\n"
	                           "  message: fine\n"
	                           "  ...\n"
	                           "# after good\n";
	struct proc_exit one = {1, 0, false};
	struct outcome o;

	parse(text, sizeof text - 1, NULL, &one, 3, &o);
	CHECK_STR(need_test(&o, "bad")->lines,
	          "message: nope\n\ndata:\n  got: \\x00x\n# diag for bad\n");
	CHECK(need_test(&o, "good")->lines == NULL);
	CHECK(!o.package_failed);
	outcome_free(&o);
}

TEST(parse_tap_bare_failure_keeps_its_point_line)
{
	static const char text[] = "1..3\n"
	                           "ok 1 - a\n"
	                           "ok 2 - b\n"
	                           "not ok 3 - always\n";
	struct proc_exit one = {1, 0, false};
	struct outcome o;

	parse(text, sizeof text - 1, NULL, &one, 5, &o);
	CHECK_STR(need_test(&o, "always")->lines, "not ok 3 - always\n");
	outcome_free(&o);
}

TEST(parse_tap_stream_ends_inside_a_subtest)
{
	static const char text[] = "TAP version 14\n"
	                           "# Subtest: outer\n"
	                           "    ok 1 - first\n"
	                           "    # Subtest: inner\n"
	                           "        ok 1 - deep\n"
	                           "        # working on it\n";
	struct proc_exit killed = {-1, 9, true}, crashed = {1, 0, false};

	CHECK_TAP("killed in a subtest", text, &killed,
	          "HANG outer (still running when the run was stopped at its time limit)\n"
	          "PASS outer/first\n"
	          "HANG outer/inner (still running when the run was stopped at its time limit)\n"
	          "PASS outer/inner/deep\n");
	CHECK_TAP("crashed in a subtest", text, &crashed,
	          "FAIL outer (process exited with status 1 while running)\n"
	          "PASS outer/first\n"
	          "FAIL outer/inner (process exited with status 1 while running)\n"
	          "PASS outer/inner/deep\n");
	CHECK_TAP("announced, then killed", "1..2\n# Subtest: a\nok 1 - a\n# Subtest: b\n", &killed,
	          "PASS a\nHANG b (still running when the run was stopped at its time limit)\n");
	CHECK_TAP("killed between points", "1..3\nok 1 - a\nnot ok 2 - b\n", &killed,
	          "PASS a\nFAIL b\n"
	          "package failed: stopped at its time limit after test point 2 (b)\n");
}

TEST(parse_tap_subtest_closed_late)
{
	/* A child stream that a lower-level point does not close. */
	static const char text[] = "1..2\n"
	                           "# Subtest: a\n"
	                           "        ok 1 - two levels down\n"
	                           "ok 1 - a\n"
	                           "# Subtest: b\n"
	                           "    ok 1 - inside b\n"
	                           "1..1\n";
	struct proc_exit ok = {0, 0, false};

	CHECK_TAP("late close", text, &ok,
	          "PASS a\n"
	          "FAIL a/subtest (subtest ended without its result)\n"
	          "PASS a/subtest/two levels down\n"
	          "FAIL b (subtest ended without its result)\n"
	          "PASS b/inside b\n"
	          "package failed: 2 plans in one stream\n");
}

TEST(parse_tap_selection)
{
	static const char text[] = "1..1\n# Subtest: grp\n    1..1\n    ok 1 - leaf\nok 1 - grp\n";
	struct proc_exit ok = {0, 0, false};

	check_run("selected", text, sizeof text - 1, "grp/leaf", &ok, "PASS grp\nPASS grp/leaf\n");
	check_run("not selected", text, sizeof text - 1, "grp/other", &ok,
	          "PASS grp\nPASS grp/leaf\nselection failed\n");
	parse_tap_free(NULL);
}

TEST(parse_tap_long_lines_are_bounded)
{
	size_t n = 300000, i;
	char *text = xmalloc(n + 64);
	struct proc_exit one = {1, 0, false};
	struct outcome o;
	int len = snprintf(text, 64, "1..1\nnot ok 1 - big\n# ");

	for (i = 0; i < n; i++)
		text[len + i] = 'y';
	len += (int)n;
	text[len++] = '\n';
	parse(text, (size_t)len, NULL, &one, 4096, &o);
	CHECK(strlen(need_test(&o, "big")->lines) <= OUTCOME_LINES_CAP);
	CHECK(strstr(need_test(&o, "big")->lines, " bytes cut ...]\n") != NULL);
	CHECK(!o.package_failed);
	outcome_free(&o);
	free(text);
}

/* libuv's runner prints no plan when asked for one test: with the one
 * result line there, that is no package failure; with no result line, or
 * two, it still is. Text after "not ok" belongs to that test. */
TEST(parse_tap_one_selected_test_without_plan)
{
	static const char one[] = "ok 1 - tcp_bind_error\n";
	static const char none[] = "# starting\n";
	static const char failed[] = "1..2\nnot ok 1 - alpha\n"
	                             "  assertion failed: x == 3 (test/alpha.c:12)\n"
	                             "# alpha: connection reset\nok 2 - beta\n";
	struct proc_exit ex = {0, 0, false};
	struct outcome o;

	parse(one, sizeof one - 1, "tcp_bind_error", &ex, sizeof one - 1, &o);
	CHECK_STR(o.package_reason ? o.package_reason : "", "");
	CHECK_INT(need_test(&o, "tcp_bind_error")->status, OUTCOME_PASS);
	outcome_free(&o);
	parse(one, sizeof one - 1, NULL, &ex, sizeof one - 1, &o);
	CHECK(o.package_failed);
	outcome_free(&o);
	parse(none, sizeof none - 1, "tcp_bind_error", &ex, sizeof none - 1, &o);
	CHECK(o.package_failed || o.selection_failed);
	outcome_free(&o);
	ex.status = 1;
	parse(failed, sizeof failed - 1, NULL, &ex, sizeof failed - 1, &o);
	CHECK(!o.package_failed);
	CHECK(strstr(need_test(&o, "alpha")->lines, "assertion failed: x == 3") != NULL);
	CHECK(strstr(need_test(&o, "alpha")->lines, "alpha: connection reset") != NULL);
	outcome_free(&o);
}

/* A producer that names each test before it runs ("# Subtest: NAME", as
 * Node's and flakesweep_ledger's --flakesweep-tap print): what the test
 * prints while it runs is its own, so a hang killed at the time limit is
 * charged to it with its last words, and a failure's lines start with
 * what the test printed before its "not ok". */
TEST(parse_tap_announced_test_owns_its_output)
{
	static const char hang[] = "TAP version 13\n"
	                           "# Subtest: t.py::test_a\n"
	                           "ok 1 - t.py::test_a\n"
	                           "# Subtest: t.py::test_hang\n"
	                           "waiting for the lock\n"
	                           "# Timeout (0:00:02)!\n";
	static const char fail[] = "TAP version 13\n"
	                           "# Subtest: t.py::test_a\n"
	                           "printed by a\n"
	                           "not ok 1 - t.py::test_a\n"
	                           "# assert 1 == 2\n"
	                           "# Subtest: t.py::test_b\n"
	                           "printed by b\n"
	                           "ok 2 - t.py::test_b\n"
	                           "1..2\n";
	static const char nested[] = "# Subtest: outer\n"
	                             "    # Subtest: inner\n"
	                             "    inner talks\n"
	                             "outer talks\n";
	struct proc_exit killed = {-1, 9, true}, one = {1, 0, false};
	struct outcome o;

	CHECK_TAP("announced hang", hang, &killed,
	          "PASS t.py::test_a\n"
	          "HANG t.py::test_hang (still running when the run was stopped at its time "
	          "limit)\n");
	parse(hang, sizeof hang - 1, NULL, &killed, 5, &o);
	CHECK_STR(need_test(&o, "t.py::test_hang")->lines,
	          "waiting for the lock\n# Timeout (0:00:02)!\n");
	CHECK(o.package_lines == NULL);
	outcome_free(&o);
	CHECK_TAP("announced failure", fail, &one, "FAIL t.py::test_a\nPASS t.py::test_b\n");
	parse(fail, sizeof fail - 1, NULL, &one, 5, &o);
	CHECK_STR(need_test(&o, "t.py::test_a")->lines, "printed by a\n# assert 1 == 2\n");
	CHECK(o.package_lines == NULL);
	outcome_free(&o);
	parse(nested, sizeof nested - 1, NULL, &killed, 5, &o);
	CHECK_STR(need_test(&o, "outer/inner")->lines, "    inner talks\nouter talks\n");
	CHECK_STR(need_test(&o, "outer")->lines, "");
	outcome_free(&o);
}
