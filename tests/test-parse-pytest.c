/* SPDX-License-Identifier: MIT */
/*
 * test-parse-pytest.c: the pytest report parser against real report
 * streams of flakesweep's plugin (tests/fixtures/pytest, made by gen.sh):
 * a mixed run, a hang killed by SIGTERM, a confirm run, a selection that
 * matches nothing, a collection error and a run without the plugin, each
 * fed whole and in 1- and 7-byte pieces; plus contradictions and bounds.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "drivers/outcome.h"
#include "drivers/parse-pytest.h"
#include "base/util.h"

static const char *const status_words[] = {"PASS", "FAIL", "SKIP", "HANG"};

/* One line per test: status, name, channels, reason; then the run's. */
static char *
summary(const struct outcome *o)
{
	struct buf b;
	size_t i, j;

	buf_init(&b);
	buf_add(&b, "", 0);
	for (i = 0; i < o->ntests; i++) {
		const struct outcome_test *t = &o->tests[i];

		buf_printf(&b, "%s %s", status_words[t->status], t->name);
		for (j = 0; t->channels != NULL && t->channels[j] != NULL; j++)
			buf_printf(&b, "%s%s", j == 0 ? " [" : " ", t->channels[j]);
		if (t->channels != NULL && t->channels[0] != NULL)
			buf_addc(&b, ']');
		if (t->reason != NULL)
			buf_printf(&b, " (%s)", t->reason);
		buf_addc(&b, '\n');
	}
	if (o->seed != NULL)
		buf_printf(&b, "seed %s\n", o->seed);
	if (o->package_failed)
		buf_printf(&b, "package failed: %s\n", o->package_reason);
	if (o->selection_failed)
		buf_adds(&b, "selection failed\n");
	if (o->unreliable)
		buf_printf(&b, "unreliable: %s\n", o->unreliable_reason);
	if (o->unreached != NULL)
		buf_printf(&b, "unreached: %s\n", o->unreached);
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
parse(const char *rep, size_t rlen, const char *out, size_t olen, const char *selected,
      const struct proc_exit *ex, size_t chunk, struct outcome *o)
{
	struct parse_pytest *p = parse_pytest_new(selected);
	size_t i;

	memset(o, 0, sizeof *o);
	/* The two pipes interleave in any way: alternate chunks. */
	for (i = 0; i < rlen || i < olen; i += chunk) {
		if (i < rlen)
			parse_pytest_feed_report(p, rep + i, rlen - i < chunk ? rlen - i : chunk);
		if (i < olen)
			parse_pytest_feed_output(p, out + i, olen - i < chunk ? olen - i : chunk);
	}
	parse_pytest_finish(p, ex, o);
	parse_pytest_free(p);
}

/* Parses whole and in 1- and 7-byte pieces; the three must agree and the
 * summary must be want. Returns the whole run's full dump (caller frees). */
static char *
check_run(const char *label, const char *rep, size_t rlen, const char *out, size_t olen,
          const char *selected, const struct proc_exit *ex, const char *want)
{
	static const size_t chunks[] = {1, 7};
	struct outcome whole;
	char *s, *dump;
	size_t i, big = (rlen > olen ? rlen : olen) + 1;

	parse(rep, rlen, out, olen, selected, ex, big, &whole);
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

		parse(rep, rlen, out, olen, selected, ex, chunks[i], &o);
		d = full_dump(&o);
		if (strcmp(d, dump) != 0)
			check_fail(__FILE__, __LINE__,
			           "%s: %zu-byte chunks give\n%s\nwhole gives\n%s", label,
			           chunks[i], d, dump);
		free(d);
		outcome_free(&o);
	}
	outcome_free(&whole);
	return dump;
}

/* Checks the fixture NAME (NAME.report and NAME.out); returns its dump. */
static char *
check_fixture(const char *name, const char *selected, const struct proc_exit *ex, const char *want)
{
	char *path, *rep, *out, *dump;
	size_t rlen, olen;

	path = xasprintf("%s/tests/fixtures/pytest/%s.report", check_srcdir(), name);
	CHECK_INT(util_read_file(path, 1 << 20, &rep, &rlen), 0);
	free(path);
	path = xasprintf("%s/tests/fixtures/pytest/%s.out", check_srcdir(), name);
	CHECK_INT(util_read_file(path, 1 << 20, &out, &olen), 0);
	free(path);
	dump = check_run(name, rep, rlen, out, olen, selected, ex, want);
	free(rep);
	free(out);
	return dump;
}

#define CHECK_REPORT(label, text, ex, want) \
	free(check_run(label, text, sizeof text - 1, "", 0, NULL, ex, want))

static const struct proc_exit exit0 = {0, 0, false};
static const struct proc_exit exit1 = {1, 0, false};

TEST(parse_pytest_mixed_run)
{
	char *dump = check_fixture("mixed", NULL, &exit1,
	                           "FAIL test_mixed.py::test_fails [env:FIXTURE_NOT_SET]\n"
	                           "PASS test_mixed.py::test_param[1]\n"
	                           "FAIL test_mixed.py::test_param[2]\n"
	                           "PASS test_mixed.py::test_passes [clock]\n"
	                           "SKIP test_mixed.py::test_skipped\n"
	                           "PASS test_mixed.py::test_hangs [env:FIXTURE_HANG]\n"
	                           "FAIL test_mixed.py::test_setup_error\n"
	                           "seed 42\n");

	/* A failure's lines are pytest's text with the captured output. */
	CHECK(strstr(dump, "[test_mixed.py::test_fails]\ndef test_fails():\n") != NULL);
	CHECK(strstr(dump, "----- Captured stdout call -----\nsome output\n") != NULL);
	CHECK(strstr(dump, "E       RuntimeError: setup broke\n") != NULL);
	CHECK(strstr(dump, "[package]\n(null)\n") != NULL);
	/* Short failures stay as pytest wrote them. */
	CHECK(strstr(dump, "the output in order") == NULL);
	free(dump);
}

/* A failure longer than the report shows (its first 20 lines) leads with
 * the failing line, pytest's E lines and where it failed; the text in order
 * follows. */
TEST(parse_pytest_long_failure_leads_with_its_error)
{
	char *dump = check_fixture("long", NULL, &exit1, "FAIL test_long.py::test_long\n");

	CHECK(strstr(dump, "[test_long.py::test_long]\n"
	                   ">       assert x3 == x4, 'x3 and x4 differ'\n"
	                   "E       AssertionError: x3 and x4 differ\n"
	                   "E       assert 4 == 5\n"
	                   "test_long.py:31: AssertionError\n"
	                   "[... the output in order ...]\n"
	                   "def test_long():\n") != NULL);
	CHECK(strstr(dump, "        x24 = helper(24)\n>       assert x3 == x4") != NULL);
	free(dump);
}

TEST(parse_pytest_hang_named_with_its_stack)
{
	const struct proc_exit killed = {-1, 15, true};
	const struct proc_exit died = {-1, 15, false};
	char *dump;

	dump = check_fixture("hang", NULL, &killed,
	                     "HANG test_mixed.py::test_hangs (still running when the run hit its "
	                     "time limit)\n");
	CHECK(strstr(dump, "[test_mixed.py::test_hangs]\nCurrent thread 0x") != NULL);
	CHECK(strstr(dump, "test_mixed.py\", line 39 in test_hangs\n") != NULL);
	free(dump);
	/* The same stream from a run that died by itself. */
	free(check_fixture("hang", NULL, &died,
	                   "FAIL test_mixed.py::test_hangs (killed by signal 15 while running)\n"));
}

TEST(parse_pytest_confirm_and_selection)
{
	free(check_fixture("confirm", "test_mixed.py::test_param[2]", &exit1,
	                   "FAIL test_mixed.py::test_param[2]\n"));
	free(check_fixture("confirm", "test_mixed.py::test_param[1]", &exit1,
	                   "FAIL test_mixed.py::test_param[2]\nselection failed\n"));
	free(check_fixture("nomatch", "test_mixed.py::gone", &exit1, "selection failed\n"));
	/* A sweep run that selects nothing is a run with no tests: it never
	 * reached one. */
	free(check_fixture("nomatch", NULL, &exit1,
	                   "unreached: pytest collected no test (exit status 5): check the "
	                   "package names, --run and --skip\n"));
}

TEST(parse_pytest_package_failures)
{
	const struct proc_exit exit2 = {2, 0, false};
	const struct proc_exit exit4 = {4, 0, false};
	char *dump;

	dump = check_fixture("collect-error", NULL, &exit2,
	                     "package failed: collection error\n"
	                     "unreached: pytest collected no test, only collection errors (the "
	                     "last: SyntaxError: invalid syntax): fix the test files' imports, or "
	                     "set FLAKESWEEP_PYTHON to a Python that has their dependencies\n");
	CHECK(strstr(dump, "E       def test_broken(:\n") != NULL);
	CHECK(strstr(dump, "E   SyntaxError: invalid syntax\n") != NULL);
	free(dump);
	dump = check_fixture("noplugin", NULL, &exit4,
	                     "package failed: process exited with status 4 with no report from "
	                     "the flakesweep_ledger plugin\n"
	                     "unreached: pytest stopped before the flakesweep_ledger plugin "
	                     "reported (ImportError: Error importing plugin \"flakesweep_ledger\": "
	                     "No module named 'flakesweep_ledger'): set FLAKESWEEP_DATADIR to the "
	                     "directory that holds flakesweep_ledger.py, or FLAKESWEEP_PYTHON to a "
	                     "Python that has pytest\n");
	CHECK(strstr(dump, "No module named 'flakesweep_ledger'\n") != NULL);
	free(dump);
	CHECK_REPORT("exit 3",
	             "{\"event\": \"collected\", \"seed\": null, \"tests\": 0}\n"
	             "{\"event\": \"done\", \"exitstatus\": 3}\n",
	             &exit1, "package failed: pytest exit status 3 with no test failed\n");
	CHECK_REPORT("exit 1 without a failed test",
	             "{\"event\": \"start\", \"test\": \"a.py::t\"}\n"
	             "{\"event\": \"result\", \"test\": \"a.py::t\", \"outcome\": \"passed\"}\n"
	             "{\"event\": \"done\", \"exitstatus\": 1}\n",
	             &exit1,
	             "PASS a.py::t\npackage failed: pytest exit status 1 with no test failed\n");
	CHECK_REPORT(
	    "died between tests",
	    "{\"event\": \"start\", \"test\": \"a.py::t\"}\n"
	    "{\"event\": \"result\", \"test\": \"a.py::t\", \"outcome\": \"passed\"}\n",
	    &exit1,
	    "PASS a.py::t\npackage failed: process exited with status 1 with no test running\n");
	CHECK_REPORT("timed out between tests",
	             "{\"event\": \"start\", \"test\": \"a.py::t\"}\n"
	             "{\"event\": \"result\", \"test\": \"a.py::t\", \"outcome\": \"passed\"}\n",
	             &((struct proc_exit){-1, 15, true}),
	             "PASS a.py::t\npackage failed: timed out with no test running\n");
}

TEST(parse_pytest_contradictions)
{
	CHECK_REPORT("twice",
	             "{\"event\": \"start\", \"test\": \"a.py::t\"}\n"
	             "{\"event\": \"result\", \"test\": \"a.py::t\", \"outcome\": \"passed\"}\n"
	             "{\"event\": \"result\", \"test\": \"a.py::t\", \"outcome\": \"failed\"}\n"
	             "{\"event\": \"done\", \"exitstatus\": 0}\n",
	             &exit0, "PASS a.py::t\nunreliable: test reported twice: a.py::t\n");
	CHECK_REPORT("no start",
	             "{\"event\": \"result\", \"test\": \"a.py::t\", \"outcome\": \"passed\"}\n"
	             "{\"event\": \"done\", \"exitstatus\": 0}\n",
	             &exit0, "unreliable: result of a test that did not start: a.py::t\n");
	/* Malformed lines are ignored; the last line may lack its newline. */
	CHECK_REPORT("malformed",
	             "{\"event\": \"start\", \"test\"\n"
	             "{\"no event\": 1}\n"
	             "{\"event\": \"start\", \"test\": \"a.py::t\"}\n"
	             "{\"event\": \"result\", \"test\": \"a.py::t\", \"outcome\": "
	             "\"skipped\", \"channels\": [\"net\", 3, \"rng\"]}\n"
	             "{\"event\": \"done\", \"exitstatus\": 0}",
	             &exit0, "SKIP a.py::t [net rng]\n");
	/* A file name that is not UTF-8 comes as Python's json.dumps writes
	 * it, with byte escapes: the test keeps its bytes. */
	CHECK_REPORT("bytes",
	             "{\"event\": \"start\", \"test\": \"\\udcff.py::t\"}\n"
	             "{\"event\": \"result\", \"test\": \"\\udcff.py::t\", \"outcome\": "
	             "\"passed\"}\n"
	             "{\"event\": \"done\", \"exitstatus\": 0}\n",
	             &exit0, "PASS \xff.py::t\n");
}

TEST(parse_pytest_long_lines_are_bounded)
{
	struct buf b;
	struct outcome o;
	struct parse_pytest *p = parse_pytest_new(NULL);
	const struct proc_exit killed = {-1, 15, true};
	size_t i;

	buf_init(&b);
	buf_adds(&b, "{\"event\": \"start\", \"test\": \"a.py::t\"}\n");
	/* A stack line of 1 MiB, then 1 MiB of output. */
	for (i = 0; i < (1 << 20); i++)
		buf_addc(&b, 'x');
	buf_addc(&b, '\n');
	parse_pytest_feed_report(p, b.data, b.len);
	for (i = 0; i < 1024; i++)
		parse_pytest_feed_output(p, b.data + 64, 1024);
	memset(&o, 0, sizeof o);
	parse_pytest_finish(p, &killed, &o);
	CHECK_INT(o.ntests, 1);
	CHECK_INT(o.tests[0].status, OUTCOME_HANG);
	CHECK(strlen(o.tests[0].lines) <= OUTCOME_LINES_CAP);
	CHECK(strstr(o.tests[0].lines, " bytes cut ...]\n") != NULL);
	outcome_free(&o);
	parse_pytest_free(p);
	buf_free(&b);
}
