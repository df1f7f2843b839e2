/* SPDX-License-Identifier: MIT */
/*
 * test-parse-go-cases.c: the Go run-output parser on the corner cases the
 * real-world cases name (hangs, crashes, glued and capped lines, run
 * patterns), and on hand-made outputs of the same shapes.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "parse-go-check.h"
#include "drivers/outcome.h"
#include "drivers/parse-go.h"
#include "base/sanitize.h"
#include "base/util.h"

TEST(parse_go_case08_hang_is_the_stuck_test)
{
	static const char *const files[] = {"timeout.go119.txt", "timeout.go123.txt"};
	struct proc_exit ex = {2, 0, false};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(files); i++) {
		struct outcome o;
		const struct outcome_test *t;

		parse_case("08-timeout-blames-wrong-test", files[i], NULL, &ex, &o);
		t = need_test(&o, "TestStuck");
		CHECK_INT(t->status, OUTCOME_HANG);
		CHECK(strncmp(t->lines, "panic: test timed out after 1s\n", 31) == 0);
		CHECK(strstr(t->lines, "example.com/case08.TestStuck(") != NULL);
		CHECK(strstr(t->lines, "TestQuick") == NULL ||
		      strstr(t->lines, "running tests:") != NULL);
		CHECK(strstr(t->lines, "quick is done") == NULL);
		CHECK_INT(need_test(&o, "TestQuick")->status, OUTCOME_PASS);
		CHECK_INT(o.ntests, 2);
		CHECK(!o.package_failed);
		outcome_free(&o);
	}
}

TEST(parse_go_case08_killed_by_us_before_go_timeout)
{
	static const char *const files[] = {"timeout.go119.txt", "timeout.go123.txt"};
	struct proc_exit ex = {-1, 9, true};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(files); i++) {
		char *path = xasprintf("%s/tests/fixtures/cases/08-timeout-blames-wrong-test/%s",
		                       check_srcdir(), files[i]);
		size_t len;
		char *data = read_data(path, &len), *cut = strstr(data, "panic: test timed out");
		struct parse_go_opts opts;
		struct outcome o;
		char *s;

		CHECK(cut != NULL);
		memset(&opts, 0, sizeof opts);
		opts.framing_marker = i == 1;
		opts.import_path = "example.com/case08";
		parse(data, (size_t)(cut - data), &opts, &ex, 7, &o);
		s = summary(&o);
		expect_str(files[i], s,
		           "HANG TestStuck (still running when the run was stopped at its time "
		           "limit)\n"
		           "PASS TestQuick\n");
		CHECK(strstr(need_test(&o, "TestStuck")->lines, "waiting for the reply") != NULL);
		free(s);
		outcome_free(&o);
		free(data);
		free(path);
	}
}

TEST(parse_go_case09_lines_of_the_dead_test)
{
	struct proc_exit ex2 = {2, 0, false}, ex1 = {1, 0, false};
	struct outcome o;
	const struct outcome_test *t;

	parse_case("09-process-dies-mid-test", "TestBackgroundPanic.go119.txt", NULL, &ex2, &o);
	t = need_test(&o, "TestBackgroundPanic");
	CHECK(strncmp(t->lines, "panic: assignment to entry in nil map\n", 38) == 0);
	CHECK(outcome_find(&o, "TestAfter") == NULL);
	outcome_free(&o);
	parse_case("09-process-dies-mid-test", "TestLogFatal.go123.txt", NULL, &ex1, &o);
	t = need_test(&o, "TestLogFatal");
	CHECK(strstr(t->lines, "config not found\n") != NULL);
	CHECK_STR(t->reason, "process exited with status 1 while running");
	outcome_free(&o);
}

TEST(parse_go_case10_glued_output_stays_with_its_test)
{
	static const char text[] = "=== RUN   TestProgressNoNewline\n"
	                           "uploading... 100%--- FAIL: TestProgressNoNewline (0.00s)\n"
	                           "FAIL\n";
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;
	struct outcome o;

	parse_case("10-output-without-newline", "full.go119.txt", NULL, &ex, &o);
	CHECK_STR(need_test(&o, "TestProgressThenFail")->lines,
	          "retrying    print_test.go:16: gave up after 3 attempts\n");
	outcome_free(&o);
	memset(&opts, 0, sizeof opts);
	parse(text, sizeof text - 1, &opts, &ex, 1, &o);
	CHECK_INT(need_test(&o, "TestProgressNoNewline")->status, OUTCOME_FAIL);
	CHECK_STR(need_test(&o, "TestProgressNoNewline")->lines, "uploading... 100%\n");
	outcome_free(&o);
}

TEST(parse_go_case11_fakes_without_a_test_list)
{
	struct proc_exit ex = {0, 0, false};
	struct parse_go_opts opts;
	char *path =
	    xasprintf("%s/tests/fixtures/cases/11-marker-lines-in-test-output/full.go119.txt",
	              check_srcdir());
	size_t len;
	char *data = read_data(path, &len);

	/* Without -test.list the fake "=== RUN   TestGhost" starts a test,
	 * which exit 0 and the final PASS then call passed; never a failure. */
	memset(&opts, 0, sizeof opts);
	check_run("case 11 without a list", data, len, &opts, &ex,
	          "SKIP TestChildHelper\n"
	          "PASS TestCLIExitsNonZeroOnFailure\n"
	          "PASS TestRendersSummary\n"
	          "PASS TestGhost\n"
	          "PASS TestLast\n"
	          "unreliable: TestChildHelper reported both SKIP and FAIL in one run\n");
	free(data);
	free(path);
}

TEST(parse_go_case13_run_patterns_select_the_leaf)
{
	char *dir = xasprintf("%s/tests/fixtures/cases/13-hostile-subtest-names", check_srcdir());
	char *path = xasprintf("%s/patterns.tsv", dir);
	char *tsv = read_data(path, NULL), *line, *save = NULL;
	size_t rows = 0;

	for (line = strtok_r(tsv, "\n", &save); line != NULL; line = strtok_r(NULL, "\n", &save)) {
		char *f[3], *pat;
		struct proc_exit ex = {0, 0, false};
		struct outcome o;
		size_t i, nlen;

		CHECK_INT(split_tabs(line, f, 3), 3);
		pat = parse_go_run_pattern(f[1]);
		expect_str(f[1], pat, f[2]);
		free(pat);
		/* The stored confirm run: the leaf started, and only it, its
		 * parents and its own subtests did. */
		ex.status = strstr(f[0], "confirm-") != NULL ? 0 : 0;
		parse_case("13-hostile-subtest-names", f[0], f[1], &ex, &o);
		CHECK(!o.selection_failed);
		CHECK(outcome_find(&o, f[1]) != NULL);
		nlen = strlen(f[1]);
		for (i = 0; i < o.ntests; i++) {
			const char *n = o.tests[i].name;
			size_t l = strlen(n);
			bool ancestor = l < nlen && strncmp(f[1], n, l) == 0 && f[1][l] == '/';
			bool below = l >= nlen && strncmp(n, f[1], nlen) == 0 &&
			             (n[nlen] == '\0' || n[nlen] == '/');

			if (!ancestor && !below)
				check_fail(__FILE__, __LINE__, "pattern for %s also ran %s", f[1],
				           n);
		}
		outcome_free(&o);
		rows++;
	}
	CHECK_INT(rows, 13);
	free(tsv);
	free(path);
	free(dir);
}

TEST(parse_go_run_pattern_quotes_like_go)
{
	static const struct {
		const char *name, *pattern;
	} cases[] = {
	    {"TestX", "^TestX$"},
	    {"TestNames/should_(fail)", "^TestNames$/^should_\\(fail\\)$"},
	    {"TestNames/a+b=c", "^TestNames$/^a\\+b=c$"},
	    {"TestNames/x/y", "^TestNames$/^x$/^y$"},
	    {"TestNames/[::1]:80", "^TestNames$/^\\[::1\\]:80$"},
	    {"TestNames/it's_$HOME;_ok", "^TestNames$/^it's_\\$HOME;_ok$"},
	    {"TestNames/bell\\a_nul\\x00", "^TestNames$/^bell\\\\a_nul\\\\x00$"},
	    {"TestNames/#00", "^TestNames$/^#00$"},
	    {"T/.*?|{}^", "^T$/^\\.\\*\\?\\|\\{\\}\\^$"},
	    {"T/", "^T$/^$"},
	};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(cases); i++) {
		char *p = parse_go_run_pattern(cases[i].name);

		expect_str(cases[i].name, p, cases[i].pattern);
		free(p);
	}
}

/* The polluter search's selection: one anchored alternation of top-level
 * tests, each quoted, in the order given. */
TEST(parse_go_run_alternation_selects_top_level_tests)
{
	char *one[] = {"TestVictim", NULL};
	char *two[] = {"TestSet.Verbose", "TestQuiet", NULL};
	char *p;

	p = parse_go_run_alternation(one);
	CHECK_STR(p, "^(TestVictim)$");
	free(p);
	p = parse_go_run_alternation(two);
	CHECK_STR(p, "^(TestSet\\.Verbose|TestQuiet)$");
	free(p);
}

TEST(parse_go_case13_naive_pattern_is_selection_failed)
{
	struct proc_exit ex = {0, 0, false};
	struct outcome o;
	char *s;

	parse_case("13-hostile-subtest-names", "naive.go119.txt", "TestNames/should_(fail)", &ex,
	           &o);
	s = summary(&o);
	expect_str("naive", s, "PASS TestNames\nselection failed\n");
	free(s);
	outcome_free(&o);
}

TEST(parse_go_case17_first_failure_line)
{
	static const char *const files[] = {"full.go119.txt", "full.go123.txt"};
	struct proc_exit ex = {1, 0, false};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(files); i++) {
		struct outcome o;
		const struct outcome_test *t;
		char *clean, *line, *end;

		parse_case("17-control-codes-and-invalid-utf8", files[i], NULL, &ex, &o);
		t = need_test(&o, "TestColoredCLIOutput");
		/* Raw bytes kept: the colour codes and the invalid bytes. */
		CHECK(strstr(t->lines, "\x1b[31mexpected exit 0, got 1\x1b[0m (body \xff\xfe)") !=
		      NULL);
		CHECK(strstr(t->lines, "nul:\\x00 bell:\a") != NULL);
		clean = sanitize_text(t->lines, strlen(t->lines));
		line = strstr(clean, "bytes_test.go:18:");
		CHECK(line != NULL);
		end = strchr(line, '\n');
		CHECK(end != NULL);
		*end = '\0';
		CHECK_STR(
		    line,
		    "bytes_test.go:18: expected exit 0, got 1 (body \xef\xbf\xbd\xef\xbf\xbd)");
		free(clean);
		outcome_free(&o);
	}
}

TEST(parse_go_case17_name_only_reachable_as_fffd)
{
	char *path =
	    xasprintf("%s/tests/fixtures/cases/17-control-codes-and-invalid-utf8/patterns.tsv",
	              check_srcdir());
	char *tsv = read_data(path, NULL), *f[3], *pat, *nl = strchr(tsv, '\n');
	struct proc_exit ex = {1, 0, false};
	struct outcome o;

	if (nl != NULL)
		*nl = '\0';
	CHECK_INT(split_tabs(tsv, f, 3), 3);
	CHECK_STR(f[1], "TestBinaryName/bad\xef\xbf\xbdname");
	pat = parse_go_run_pattern(f[1]);
	CHECK_STR(pat, f[2]);
	parse_case("17-control-codes-and-invalid-utf8", f[0], f[1], &ex, &o);
	CHECK(!o.selection_failed);
	CHECK_INT(need_test(&o, f[1])->status, OUTCOME_FAIL);
	outcome_free(&o);
	free(pat);
	free(tsv);
	free(path);
}

TEST(parse_go_case19_lines_are_capped)
{
	static const char *const files[] = {"full.go119.txt", "full.go123.txt"};
	struct proc_exit ex = {1, 0, false};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(files); i++) {
		struct outcome o;
		const char *lines;

		parse_case("19-report-body-markdown-and-size", files[i], NULL, &ex, &o);
		lines = need_test(&o, "TestRendersReleaseNotes")->lines;
		CHECK(strlen(lines) <= OUTCOME_LINES_CAP);
		/* The assertion first, then the output in order. */
		CHECK(strncmp(
		          lines,
		          "    golden_test.go:28: release notes differ from testdata/notes.golden\n"
		          "[... the output in order ...]\ngot:\n## Changes\n",
		          117) == 0);
		CHECK(strstr(lines, " bytes cut ...]\n") != NULL);
		CHECK(strstr(lines, "+    line 1499: aaaaaaaaaaaaaaaa changed\n") != NULL);
		outcome_free(&o);
	}
}

/* Cuts the reference output before Go's timeout panic: the process then
 * died with two parallel tests running. */
TEST(parse_go_crash_with_several_running_charges_the_package)
{
	char *dir = go119_dir();
	char *path = xasprintf("%s/timeoutpar/timeoutpar.raw.txt", dir);
	size_t len;
	char *data = read_data(path, &len), *cut = strstr(data, "panic:");
	struct proc_exit ex = {2, 0, false};
	struct parse_go_opts opts;

	CHECK(cut != NULL);
	memset(&opts, 0, sizeof opts);
	check_run("timeoutpar cut", data, (size_t)(cut - data), &opts, &ex,
	          "PASS TestQuick\n"
	          "PASS TestParDone\n"
	          "package failed: exit status 2 while 2 tests were running\n"
	          "candidate TestParHang1\n"
	          "candidate TestParHang2\n");
	free(data);
	free(path);
	free(dir);
}

TEST(parse_go_signal_while_one_test_runs)
{
	static const char text[] = "=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n"
	                           "    b_test.go:3: working\n";
	struct proc_exit ex = {-1, 11, false};
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	check_run("signal", text, sizeof text - 1, &opts, &ex,
	          "PASS TestA\nFAIL TestB (process killed by signal 11 while running)\n");
}

TEST(parse_go_subtest_crash_go119)
{
	/* Go 1.19 prints subtest results when the parent ends: a RUN of the
	 * next sibling shows the previous one finished. */
	static const char text[] = "=== RUN   TestX\n=== RUN   TestX/a\n=== RUN   TestX/b\n"
	                           "=== RUN   TestX/b/deep\n=== RUN   TestX/c\n"
	                           "panic: boom\n\ngoroutine 7 [running]:\n";
	struct proc_exit ex = {2, 0, false};
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	check_run("subtest crash", text, sizeof text - 1, &opts, &ex,
	          "FAIL TestX\nFAIL TestX/c (process exited with status 2 while running)\n");
}

TEST(parse_go_running_list_names_subtests)
{
	static const char text[] =
	    "\x16=== RUN   TestX\n\x16=== RUN   TestX/a\n\x16=== PAUSE TestX/a\n"
	    "\x16=== RUN   TestX/b\n\x16=== PAUSE TestX/b\n\x16=== CONT  TestX/a\n"
	    "\x16=== CONT  TestX/b\n\x16--- PASS: TestX/b (0.00s)\n"
	    "panic: test timed out after 5s\n\trunning tests:\n\t\tTestX (5s)\n\t\tTestX/a (5s)\n\n"
	    "goroutine 9 [chan receive]:\nexample.com/m.TestX.func1(0xc000)\n\t/x_test.go:9 +0x1\n";
	struct proc_exit ex = {2, 0, false};
	struct parse_go_opts opts;
	struct outcome o;

	memset(&opts, 0, sizeof opts);
	opts.framing_marker = true;
	opts.import_path = "example.com/m";
	check_run("running list", text, sizeof text - 1, &opts, &ex,
	          "HANG TestX (test timed out after 5s)\n"
	          "HANG TestX/a (test timed out after 5s)\n"
	          "PASS TestX/b\n");
	parse(text, sizeof text - 1, &opts, &ex, 3, &o);
	CHECK(strstr(need_test(&o, "TestX/a")->lines, "example.com/m.TestX.func1(") != NULL);
	CHECK(strstr(need_test(&o, "TestX/a")->lines, "\t\tTestX/a (5s)\n") != NULL);
	outcome_free(&o);
}

TEST(parse_go_indented_fake_result_is_output)
{
	static const char text[] = "=== RUN   TestX\n"
	                           "    --- FAIL: TestX (0.00s)\n"
	                           "        --- FAIL: TestX (0.00s)\n"
	                           "--- PASS: TestX (0.00s)\n"
	                           "=== RUN   TestY\n"
	                           "--- FAIL: TestY (0.00s)\n"
	                           "FAIL\n";
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	check_run("indented fake", text, sizeof text - 1, &opts, &ex, "PASS TestX\nFAIL TestY\n");
}

TEST(parse_go_framing_ignores_unmarked_lines)
{
	static const char text[] = "\x16=== RUN   TestA\n"
	                           "--- FAIL: TestA (0.00s)\n"
	                           "=== RUN   TestGhost\n"
	                           "FAIL\n"
	                           "\x16--- PASS: TestA (0.00s)\n"
	                           "\x16=== NAME  \n"
	                           "\x16=== RUN   TestB\n"
	                           "partial\x16--- FAIL: TestB (0.00s)\n"
	                           "\x16=== NAME  \n"
	                           "\x16"
	                           "FAIL\n";
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;
	struct outcome o;

	memset(&opts, 0, sizeof opts);
	opts.framing_marker = true;
	check_run("framing", text, sizeof text - 1, &opts, &ex, "PASS TestA\nFAIL TestB\n");
	parse(text, sizeof text - 1, &opts, &ex, 2, &o);
	CHECK_STR(need_test(&o, "TestB")->lines, "partial\n");
	outcome_free(&o);
}

TEST(parse_go_long_line_then_glued_result)
{
	size_t n = 200000, i;
	char *text = xmalloc(n + 64);
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;
	struct outcome o;
	int len;

	len = snprintf(text, 64, "=== RUN   TestLong\n");
	for (i = 0; i < n; i++)
		text[len + i] = 'x';
	len += (int)n;
	len += snprintf(text + len, 64, "--- FAIL: TestLong (0.00s)\nFAIL\n");
	memset(&opts, 0, sizeof opts);
	check_run("long line", text, (size_t)len, &opts, &ex, "FAIL TestLong\n");
	parse(text, (size_t)len, &opts, &ex, 4096, &o);
	CHECK(strstr(need_test(&o, "TestLong")->lines, " bytes cut ...]\n") != NULL);
	CHECK(strlen(need_test(&o, "TestLong")->lines) <= OUTCOME_LINES_CAP);
	outcome_free(&o);
	free(text);
}

TEST(parse_go_nul_bytes_in_output)
{
	static const char text[] = "=== RUN   TestN\na\0b\n--- FAIL: TestN (0.00s)\nFAIL\n";
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;
	struct outcome o;

	memset(&opts, 0, sizeof opts);
	parse(text, sizeof text - 1, &opts, &ex, 1, &o);
	CHECK_STR(need_test(&o, "TestN")->lines, "a\\x00b\n");
	outcome_free(&o);
}

TEST(parse_go_no_output_at_all)
{
	struct proc_exit ex0 = {0, 0, false}, ex2 = {2, 0, false}, kill = {-1, 9, true};
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	check_run("empty exit 0", "", 0, &opts, &ex0,
	          "package failed: exit status 0 without a final PASS line\n");
	check_run("empty exit 2", "", 0, &opts, &ex2,
	          "package failed: exit status 2 with no test running\n");
	check_run("empty killed", "", 0, &opts, &kill,
	          "package failed: stopped at its time limit with no test running\n");
	parse_go_free(NULL);
}

TEST(parse_go_exit_after_final_pass)
{
	/* TestMain's leak check failing after m.Run() printed PASS. */
	static const char text[] = "=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\n"
	                           "leak: 1 goroutine left\n";
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;

	memset(&opts, 0, sizeof opts);
	check_run("leak", text, sizeof text - 1, &opts, &ex,
	          "PASS TestA\npackage failed: exit status 1 after the final PASS line\n");
}

TEST(parse_go_timeout_outside_any_test)
{
	/* TestMain blocked before m.Run(): Go's alarm fires with no test. */
	static const char text[] = "setting up\npanic: test timed out after 1s\n\n"
	                           "goroutine 1 [select]:\nmain.main()\n\t_testmain.go:47 +0x9b\n";
	struct proc_exit ex = {2, 0, false};
	struct parse_go_opts opts;
	struct outcome o;

	memset(&opts, 0, sizeof opts);
	check_run("timeout in TestMain", text, sizeof text - 1, &opts, &ex,
	          "package failed: test timed out after 1s with no test running\n");
	parse(text, sizeof text - 1, &opts, &ex, 5, &o);
	CHECK(strstr(o.package_lines, "setting up\npanic: test timed out after 1s\n") != NULL);
	CHECK(strstr(o.package_lines, "main.main()") != NULL);
	outcome_free(&o);
}

/* A chatty test logs 300 lines before its assertion, another panics after
 * 300 lines of plain output: each failure's lines start with the failure
 * (the assertion; the panic and its goroutine), and the report's first
 * lines are not log noise. */
TEST(parse_go_chatty_failure_first)
{
	struct proc_exit ex = {1, 0, false};
	struct parse_go_opts opts;
	struct outcome o;
	struct buf b;
	const char *lines, *panic;
	int i;

	buf_init(&b);
	buf_adds(&b, "=== RUN   TestChatty\n");
	for (i = 1; i <= 300; i++)
		buf_printf(&b, "    chatty_test.go:20: processed record %d of 300\n", i);
	buf_adds(&b, "    chatty_test.go:23: checksum mismatch: got 44851, want 44850\n"
	             "--- FAIL: TestChatty (0.01s)\n=== RUN   TestPanics\n");
	for (i = 1; i <= 300; i++)
		buf_printf(&b, "connecting to shard %d\n", i);
	buf_adds(&b, "--- FAIL: TestPanics (0.00s)\n"
	             "panic: runtime error: index out of range [3] with length 3 [recovered]\n"
	             "\tpanic: runtime error: index out of range [3] with length 3\n\n"
	             "goroutine 7 [running]:\ntesting.tRunner.func1.2({0x4f0e40, 0xc0000182b8})\n"
	             "\t/usr/lib/go-1.19/src/testing/testing.go:1396 +0x24e\n"
	             "example.com/m.TestPanics(0xc000007a00)\n\t/src/m/chatty_test.go:31 +0x1d\n"
	             "exit status 2\n");
	memset(&opts, 0, sizeof opts);
	opts.import_path = "example.com/m";
	parse(b.data, b.len, &opts, &ex, b.len, &o);
	lines = need_test(&o, "TestChatty")->lines;
	CHECK(strlen(lines) <= OUTCOME_LINES_CAP);
	CHECK(strncmp(lines, "    chatty_test.go:20: processed record 297 of 300\n", 51) == 0);
	/* The assertion is within the first five lines, the context after. */
	CHECK(strstr(lines, "checksum mismatch") - lines < 300);
	CHECK(strstr(lines, "[... the output in order ...]\n") != NULL);
	CHECK(strstr(lines, "processed record 1 of 300\n") != NULL);
	lines = need_test(&o, "TestPanics")->lines;
	panic = strstr(lines, "panic: runtime error: index out of range");
	CHECK(panic == lines);
	CHECK(strstr(lines, "chatty_test.go:31") < strstr(lines, "connecting to shard 1\n"));
	outcome_free(&o);
	buf_free(&b);
}
