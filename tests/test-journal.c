/* SPDX-License-Identifier: MIT */
/* test-journal.c: the journal under a full disk, and the values its reader
 * refuses (file, line and field named). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "results/journal.h"
#include "base/json.h"
#include "engine/replay-status.h"
#include "results/replay.h"
#include "results/report.h"
#include "results/results-json.h"
#include "base/util.h"

/* A disk with room for journal_room more bytes: a write past it is cut
 * short, as write(2) does when the disk fills up mid-line, and the next one
 * fails with ENOSPC. */
static long journal_room;

static ssize_t
full_disk_write(int fd, const void *buf, size_t len)
{
	ssize_t w;

	if (journal_room <= 0) {
		errno = ENOSPC;
		return -1;
	}
	w = write(fd, buf, len < (size_t)journal_room ? len : (size_t)journal_room);
	if (w > 0)
		journal_room -= w;
	return w;
}

static void
write_run(struct journal *j, int64_t run, int *rc_spawn, int *rc_run)
{
	struct journal_run jr;
	struct outcome o;

	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup("TestA"), OUTCOME_PASS, NULL);
	if (run % 3 == 0)
		outcome_add(&o, xstrdup("TestB"), OUTCOME_FAIL, xstrdup("b_test.go:3: no\n"));
	else
		outcome_add(&o, xstrdup("TestB"), OUTCOME_PASS, NULL);
	memset(&jr, 0, sizeof jr);
	jr.run = run;
	jr.cpu = 1;
	jr.load = 1 + (int)(run % 2);
	jr.ms = 10;
	*rc_spawn = journal_write_spawn(j, run, 1000 + (int)run, 77);
	*rc_run = journal_write_run(j, &jr, &o);
	outcome_free(&o);
}

/* Every line of path is a whole JSON object; returns how many. */
static int
check_whole_lines(const char *path)
{
	char *text, *p, *nl;
	size_t len;
	int n = 0;

	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	CHECK(len == 0 || text[len - 1] == '\n');
	for (p = text; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		size_t off;
		const char *why;

		CHECK_INT(json_check(p, (size_t)(nl - p), &off, &why), 0);
		CHECK(*p == '{');
		n++;
	}
	free(text);
	return n;
}

/* A header line as a sweep writes it: cpu 1,2, load 1, count 25. */
#define HEADER_LINE                                                                    \
	"{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\","                   \
	"\"started\":\"2026-11-30T02:00:00Z\",\"config\":{\"cpu\":[1,2],\"load\":[1]," \
	"\"count\":25,\"confirm\":0,\"driver\":\"go\",\"packages\":[],\"command\":[]}}\n"

/* A new journal at path holding a header and the build line of package 0,
 * as a sweep starts one. */
static struct journal *
journal_started(const char *path)
{
	char *err = NULL;
	struct journal *j = journal_open(path, &err);
	cJSON *h = cJSON_Parse(HEADER_LINE);
	struct pkg pkg;

	CHECK(j != NULL);
	CHECK_INT(journal_write(j, h), 0);
	cJSON_Delete(h);
	memset(&pkg, 0, sizeof pkg);
	pkg.name = "example.com/m";
	pkg.level = "unit";
	pkg.dir = "/src/m";
	pkg.binary = "/out/bin/m.test";
	pkg.build_ok = true;
	CHECK_INT(journal_write_build(j, 0, &pkg), 0);
	return j;
}

TEST(journal_disk_full_keeps_whole_lines_and_every_run)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir()), *err = NULL;
	struct journal *j = journal_started(path);
	struct replay rp;
	int i, rs, rr, lines;

	for (i = 1; i <= 4; i++) {
		write_run(j, i, &rs, &rr);
		CHECK_INT(rs, 0);
		CHECK_INT(rr, 0);
	}
	lines = check_whole_lines(path);
	/* The disk fills up in the middle of the next spawn line. */
	journal_set_write(j, full_disk_write);
	journal_room = 20;
	write_run(j, 5, &rs, &rr);
	CHECK_INT(rs, -ENOSPC);
	CHECK_INT(rr, -ENOSPC);
	CHECK(journal_pending(j));
	write_run(j, 6, &rs, &rr);
	CHECK_INT(rr, -ENOSPC);
	/* Nothing half written: the file still ends with its last whole line. */
	CHECK_INT(check_whole_lines(path), lines);
	CHECK_INT(journal_flush(j), -ENOSPC);
	CHECK_INT(check_whole_lines(path), lines);
	/* Space comes back: the held lines go out in order, then new ones. */
	journal_room = 1 << 20;
	CHECK_INT(journal_flush(j), 0);
	CHECK(!journal_pending(j));
	write_run(j, 7, &rs, &rr);
	CHECK_INT(rr, 0);
	journal_close(j);
	CHECK(check_whole_lines(path) > lines);
	CHECK_INT(replay_journal(path, &rp, &err), 0);
	CHECK(!rp.torn);
	CHECK_INT(rp.results->runs, 7);
	CHECK_INT(rp.max_run, 7);
	CHECK_INT(rp.nunfinished, 0);
	replay_free(&rp);
	free(path);
}

/* Writes text as a journal, replays it and checks the error: want is what
 * follows the path and a colon. */
static void
check_journal_error(const char *text, const char *want_after_path)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir()), *err = NULL;
	char *want = xasprintf("%s:%s", path, want_after_path);
	struct replay rp;
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
	CHECK(replay_journal(path, &rp, &err) < 0);
	CHECK_STR(err, want);
	free(want);
	free(err);
	replay_free(&rp);
	free(path);
}

/* The same after a header and the build line of package 0. */
static void
check_refused(const char *lines, const char *want_after_path)
{
	char *text = xasprintf("%s%s%s", HEADER_LINE,
	                       "{\"type\":\"build\",\"pkg\":0,\"package\":\"m\",\"level\":\"unit\","
	                       "\"dir\":\"/m\",\"ok\":true,\"tests\":[\"TestA\"]}\n",
	                       lines);

	check_journal_error(text, want_after_path);
	free(text);
}

#define RUN_LINE(fields) "{\"type\":\"run\",\"run\":1,\"pkg\":0,\"phase\":\"sweep\"," fields "}\n"

TEST(journal_run_values_checked_like_the_command_line)
{
	check_refused(RUN_LINE("\"cpu\":-1,\"load\":1"),
	              "3: run line: cpu: expected a whole number from 1 to 1048576");
	check_refused(RUN_LINE("\"cpu\":1e18,\"load\":1e308"),
	              "3: run line: cpu: expected a whole number from 1 to 1048576");
	check_refused(RUN_LINE("\"cpu\":1,\"load\":0"),
	              "3: run line: load: expected a whole number from 1 to 1048576");
	check_refused(RUN_LINE("\"cpu\":1.5,\"load\":1"),
	              "3: run line: cpu: expected a whole number from 1 to 1048576");
	check_refused(RUN_LINE("\"cpu\":\"2\",\"load\":1"),
	              "3: run line: cpu: expected a whole number from 1 to 1048576");
	check_refused(RUN_LINE("\"cpu\":1,\"load\":1,\"set\":7"),
	              "3: run line: set: no set line with id 7 before it");
	check_refused("{\"type\":\"run\",\"run\":1,\"pkg\":3,\"phase\":\"sweep\",\"cpu\":1,"
	              "\"load\":1}\n",
	              "3: run line: pkg: no build line for package 3");
	check_refused("{\"type\":\"run\",\"run\":1,\"pkg\":0,\"phase\":\"later\",\"cpu\":1,"
	              "\"load\":1}\n",
	              "3: run line: phase: expected \"sweep\", \"confirm\" or \"alone\"");
	check_refused("{\"type\":\"spawn\",\"run\":1,\"pid\":-5,\"start\":1}\n",
	              "3: spawn line: pid: expected a whole number from 1 to 2147483647");
	check_refused("{\"type\":\"confirm\",\"test\":\"m::TestA\",\"count\":0}\n",
	              "3: confirm line: count: expected a whole number from 1 to 100000000");
}

TEST(journal_set_id_far_ahead_is_refused)
{
	/* One 50-byte line must not make the reader allocate 10 million
	 * slots. */
	check_refused("{\"type\":\"set\",\"id\":10000000,\"pkg\":0,\"order\":[]}\n",
	              "3: set line: id: 10000000 is not the next set id (expected at most 1)");
	check_refused("{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"PTestA\"]}\n"
	              "{\"type\":\"set\",\"id\":3,\"pkg\":0,\"order\":[]}\n",
	              "4: set line: id: 3 is not the next set id (expected at most 2)");
}

TEST(journal_build_line_out_of_order_names_the_line)
{
	/* Under ASan the decoded package must not leak on this path. */
	check_refused("{\"type\":\"build\",\"pkg\":5,\"package\":\"n\",\"level\":\"unit\","
	              "\"dir\":\"/n\",\"ok\":true}\n",
	              "3: build line: pkg: expected 1 (the build lines count up from 0)");
}

TEST(journal_unknown_schema_is_refused)
{
	check_journal_error(
	    "{\"type\":\"header\",\"schema\":\"flakesweep/journal/v999\"}\n",
	    "1: schema: \"flakesweep/journal/v999\" is not a journal this flakesweep "
	    "reads (expected flakesweep/journal/v1)");
}

TEST(journal_syntax_error_names_line_and_column)
{
	check_refused("{\"type\":\"spawn\",\"run\":1 \"pid\":2}\n",
	              "3:25: invalid JSON (expected ',' or '}')");
}

static int
count_lines(void *arg, struct journal_reader *jr, const cJSON *line, int lineno)
{
	(void)jr;
	(void)line;
	*(int *)arg = lineno;
	return 0;
}

TEST(journal_round_trip_and_torn_line)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir()), *err = NULL;
	struct journal *j = journal_started(path);
	struct journal_run jr;
	struct outcome o;
	struct replay rp;
	const struct results_test *t;
	char *text;
	size_t len;
	int i, lines = 0;
	bool torn;
	FILE *f;

	for (i = 0; i < 50; i++) {
		memset(&o, 0, sizeof o);
		outcome_add(&o, xstrdup("TestA"), OUTCOME_PASS, NULL);
		outcome_add(&o, xstrdup("TestB"), i == 7 ? OUTCOME_FAIL : OUTCOME_PASS,
		            i == 7 ? xstrdup("x_test.go:9: boom\n") : NULL);
		memset(&jr, 0, sizeof jr);
		jr.run = i + 1;
		jr.pkg = 0;
		jr.cpu = 1 + i % 2;
		jr.load = 1;
		jr.ms = 12;
		jr.log = i == 7 ? "runs/8.log" : NULL;
		CHECK_INT(journal_write_spawn(j, jr.run, 4242, 99), 0);
		CHECK_INT(journal_write_run(j, &jr, &o), 0);
		outcome_free(&o);
	}
	journal_close(j);
	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	/* A passing run costs under 200 bytes, spawn line included. */
	CHECK(len / 50 < 200);
	free(text);
	/* A sweep killed mid-write leaves a torn last line. */
	f = fopen(path, "a");
	fputs("{\"type\":\"spawn\",\"run\":51,\"pi", f);
	fclose(f);
	CHECK_INT(journal_read(path, count_lines, &lines, &torn, &err), 0);
	CHECK(torn);
	CHECK_INT(replay_journal(path, &rp, &err), 0);
	CHECK(rp.torn);
	CHECK_INT(rp.npkgs, 1);
	CHECK_STR(rp.pkgs[0]->binary, "/out/bin/m.test");
	CHECK_INT(rp.results->runs, 50);
	CHECK_INT(rp.max_run, 50);
	CHECK_INT(rp.nunfinished, 0);
	t = results_find(rp.results, "example.com/m::TestB");
	CHECK(t != NULL);
	CHECK_INT(t->first->run, 8);
	CHECK_STR(t->first->log, "runs/8.log");
	CHECK_INT(rp.runs.npairs, 2);
	CHECK_INT(rp.runs.pairs[0]->runs + rp.runs.pairs[1]->runs, 50);
	replay_free(&rp);
	free(path);
}

TEST(journal_bad_line_names_file_and_line)
{
	check_journal_error(HEADER_LINE "{\"type\":\"run\"}\n",
	                    "2: run line: run: expected a whole number from 1 to 9007199254740992");
}

/* The results of replaying path, as results.json text (caller frees). */
static char *
replayed_json(const char *path, int64_t *max_run, size_t *unfinished)
{
	struct report_meta m;
	struct replay rp;
	char *err = NULL, *text;
	cJSON *doc;

	CHECK_INT(replay_journal(path, &rp, &err), 0);
	memset(&m, 0, sizeof m);
	m.status = "complete";
	doc = results_to_json(rp.results, &m);
	text = cJSON_Print(doc);
	cJSON_Delete(doc);
	*max_run = rp.max_run;
	*unfinished = rp.nunfinished;
	replay_free(&rp);
	return text;
}

/* Journals a and b read the same, runs up to max_run. */
static void
check_read_alike(const char *a, const char *b, int64_t max_run)
{
	int64_t max_a, max_b;
	size_t left_a, left_b;
	char *ja = replayed_json(a, &max_a, &left_a), *jb = replayed_json(b, &max_b, &left_b);

	CHECK_STR(ja, jb);
	CHECK_INT(max_a, max_run);
	CHECK_INT(max_b, max_run);
	free(ja);
	free(jb);
}

TEST(journal_fast_lines_count_as_parsed_ones)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir());
	char *slow = xasprintf("%s/slow.jsonl", check_tmpdir()), *text, *a, *b, *p;
	struct journal *j = journal_started(path);
	struct journal_run jr;
	struct outcome o;
	int64_t max_a, max_b;
	size_t len, left_a, left_b;
	int i;
	FILE *f;

	for (i = 0; i < 60; i++) {
		memset(&o, 0, sizeof o);
		outcome_add(&o, xstrdup("TestA"), OUTCOME_PASS, NULL);
		outcome_add(&o, xstrdup("TestB"), i % 5 == 0 ? OUTCOME_SKIP : OUTCOME_PASS, NULL);
		outcome_add(&o, xstrdup(i < 30 ? "TestC" : "TestD"),
		            i % 17 == 3 ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
		if (i % 7 == 0)
			o.seed = xstrdup("123");
		memset(&jr, 0, sizeof jr);
		jr.run = i + 1;
		jr.phase = i > 50 ? RESULTS_CONFIRM : RESULTS_SWEEP;
		jr.selected = i > 50 ? "TestA" : NULL;
		jr.cpu = 1 + i % 2;
		jr.load = 1 + i % 3;
		jr.lane = i % 4;
		jr.ms = 10 + i;
		jr.ncores = jr.cpu;
		jr.cores[0] = 2 * (i % 4);
		jr.cores[1] = 2 * (i % 4) + 1;
		jr.overlapped = i % 3 == 0;
		jr.leaked = i == 9;
		jr.has_noise = i % 4 != 1;
		jr.noise = 0.001 * i;
		jr.noise_ms = 0.1 * i + 0.05 * (i % 3);
		jr.exit.timed_out = i == 11;
		jr.exit.status = i % 17 == 3;
		/* Runs two at a time on the wall clock, some without times. */
		jr.began = i % 6 == 5 ? 0 : 1796119200000 + 500 * i;
		jr.ended = jr.began > 0 ? jr.began + 900 : 0;
		CHECK_INT(journal_write_spawn(j, jr.run, 4242 + i, 99), 0);
		if (i != 59)
			CHECK_INT(journal_write_run(j, &jr, &o), 0);
		outcome_free(&o);
	}
	journal_close(j);
	/* The same lines with a blank after each brace: JSON that means the
	 * same, which only the parser takes. */
	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	f = fopen(slow, "w");
	for (p = text; *p != '\0'; p++) {
		fputc(*p, f);
		if (*p == '{')
			fputc(' ', f);
	}
	fclose(f);
	free(text);
	a = replayed_json(path, &max_a, &left_a);
	b = replayed_json(slow, &max_b, &left_b);
	CHECK_STR(a, b);
	CHECK_INT(max_a, 60);
	CHECK_INT(max_b, 60);
	CHECK_INT(left_a, 1);
	CHECK_INT(left_b, 1);
	/* Real values, not two empty documents. */
	CHECK(strstr(a, "\"id\":\t\"example.com/m::TestD\"") != NULL);
	free(a);
	free(b);
	free(slow);
	free(path);
}

/* A passing sweep run's line leaves out its phase and its exit status 0
 * (25 bytes of a shuffled one's 188). The same line as journals wrote it
 * before reads the same. */
TEST(journal_run_line_leaves_out_sweep_and_exit_0)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir());
	char *old = xasprintf("%s/old.jsonl", check_tmpdir()), *text, *line, *a, *b;
	struct journal *j = journal_started(path);
	struct journal_run jr;
	struct outcome o;
	int64_t max_a, max_b;
	size_t len, left_a, left_b;
	FILE *f;

	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup("TestA"), OUTCOME_PASS, NULL);
	o.seed = xstrdup("987654321098");
	memset(&jr, 0, sizeof jr);
	jr.run = 123456;
	jr.cpu = 2;
	jr.load = 2;
	jr.lane = 5;
	jr.ms = 57;
	jr.ncores = 2;
	jr.cores[0] = 10;
	jr.cores[1] = 11;
	jr.overlapped = true;
	jr.has_noise = true;
	jr.noise = 0.031;
	jr.noise_ms = 2.3;
	CHECK_INT(journal_write_run(j, &jr, &o), 0);
	outcome_free(&o);
	journal_close(j);
	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	line = strstr(text, "{\"type\":\"run\"");
	CHECK(line != NULL);
	CHECK_STR(line, "{\"type\":\"run\",\"run\":123456,\"pkg\":0,\"cpu\":2,\"load\":2,"
	                "\"lane\":5,\"ms\":57,\"set\":1,\"cores\":[10,11],\"overlapped\":true,"
	                "\"noise\":0.031,\"noise_ms\":2.3,\"seed\":\"987654321098\"}\n");
	f = fopen(old, "w");
	fprintf(f, "%.*s", (int)(line - text), text);
	fputs("{\"type\":\"run\",\"run\":123456,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":2,"
	      "\"load\":2,\"lane\":5,\"ms\":57,\"exit\":0,\"set\":1,\"cores\":[10,11],"
	      "\"overlapped\":true,\"noise\":0.031,\"noise_ms\":2.3,\"seed\":\"987654321098\"}\n",
	      f);
	fclose(f);
	free(text);
	a = replayed_json(path, &max_a, &left_a);
	b = replayed_json(old, &max_b, &left_b);
	CHECK_STR(a, b);
	CHECK_INT(max_a, 123456);
	CHECK(strstr(a, "\"phase\":\t\"sweep\"") != NULL);
	free(a);
	free(b);
	free(old);
	free(path);
}

/* A run line with every member a run line can have, byte for byte: what
 * the journal wrote when it built each line as a cJSON tree. Names and
 * lines hold a quote, a backslash, control bytes and bytes that are not
 * UTF-8. */
TEST(journal_run_line_with_every_member)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir()), *text, *line;
	struct journal *j = journal_started(path);
	struct journal_run jr;
	struct outcome_test *t;
	struct outcome o;
	size_t len;

	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup("TestA"), OUTCOME_PASS, NULL)->ms = 12;
	t = outcome_add(&o, xstrdup("TestB/\"q\\\xff"), OUTCOME_FAIL,
	                xstrdup("    b_test.go:3: got \"x\"\tand\x01\xc3\n"));
	t->reason = xstrdup("process exited with status 2 while running");
	t->channels = xcalloc(3, sizeof *t->channels);
	t->channels[0] = xstrdup("clock");
	t->channels[1] = xstrdup("env:HOME");
	t->ms = 3;
	t = outcome_add(&o, xstrdup("TestC"), OUTCOME_HANG, xstrdup("goroutine 1 [sleep]:\n"));
	t->ms = -1;
	o.seed = xstrdup("42");
	o.package_failed = true;
	o.package_reason = xstrdup("exit status 3 with no test running");
	o.package_lines = xstrdup("panic: boom\r\n");
	o.candidates = xcalloc(3, sizeof *o.candidates);
	o.candidates[0] = xstrdup("TestB");
	o.candidates[1] = xstrdup("TestC");
	o.unreliable = true;
	o.unreliable_reason = xstrdup("TestA passed twice");
	o.selection_failed = true;
	memset(&jr, 0, sizeof jr);
	jr.run = 7;
	jr.pkg = 0;
	jr.phase = RESULTS_CONFIRM;
	jr.cpu = 4;
	jr.load = 2;
	jr.lane = 3;
	jr.ms = 1234;
	jr.began = INT64_C(1796447516747);
	jr.ended = INT64_C(1796447517981);
	jr.exit.status = -1;
	jr.exit.signal = 9;
	jr.exit.timed_out = true;
	jr.leaked = true;
	jr.ncores = 1;
	jr.cores[0] = 250;
	jr.has_noise = true;
	jr.noise = 0.125;
	jr.noise_ms = 17.5;
	jr.after_debris = true;
	jr.debris[0] = "left.tmp";
	jr.debris_run[0] = 5;
	jr.ndebris = 1;
	jr.log = "runs/7.log";
	jr.selected = "TestB";
	CHECK_INT(journal_write_run(j, &jr, &o), 0);
	outcome_free(&o);
	journal_close(j);
	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	line = strstr(text, "{\"type\":\"run\"");
	CHECK(line != NULL);
	CHECK_STR(
	    line,
	    "{\"type\":\"run\",\"run\":7,\"pkg\":0,\"phase\":\"confirm\",\"cpu\":4,\"load\":2,\"l"
	    "ane\":3,\"ms\":1234,\"exit\":-1,\"set\":1,\"signal\":9,\"timed_out\":true,\"leaked\""
	    ":true,\"cores\":[250],\"after_debris\":true,\"debris\":[{\"path\":\"left.tmp\",\"run"
	    "\":5}],\"noise\":0.125,\"noise_ms\":17.5,\"fail\":[\"TestB/\\\"q\\\\\\udcff\"],\"han"
	    "g\":[\"TestC\"],\"lines\":{\"TestB/\\\"q\\\\\\udcff\":\"    b_test.go:3: got \\\"x\\"
	    "\"\\tand\xef\xbf\xbd\\n\",\"TestC\":\"goroutine 1 [sleep]:\\n\"},\"reasons\":{\"Test"
	    "B/\\\"q\\\\\\udcff\":\"process exited with status 2 while running\"},\"channels\":{"
	    "\"TestB/\\\"q\\\\\\udcff\":[\"clock\",\"env:HOME\"]},\"seed\":\"42\",\"test\":\"Test"
	    "B\",\"log\":\"runs/7.log\",\"began\":1796447516747,\"ended\":1796447517981,\"times\""
	    ":[12,3,-1],\"package_failed\":\"exit status 3 with no test running\",\"package_lines"
	    "\":\"panic: boom\\n\",\"candidates\":[\"TestB\",\"TestC\"],\"unreliable\":\"TestA pa"
	    "ssed twice\",\"selection_failed\":true}\n");
	free(text);
	free(path);
}

TEST(journal_fast_lines_checked_like_parsed_ones)
{
	/* Out of bounds in a line the fast path would take: the parser
	 * names the field. */
	check_refused("{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"PTestA\"]}\n" RUN_LINE(
	                  "\"cpu\":0,\"load\":1,\"set\":1"),
	              "4: run line: cpu: expected a whole number from 1 to 1048576");
	check_refused("{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"PTestA\"]}\n" RUN_LINE(
	                  "\"cpu\":1,\"load\":1,\"set\":2"),
	              "4: run line: set: no set line with id 2 before it");
	check_refused("{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"PTestA\"]}\n"
	              "{\"type\":\"run\",\"run\":1,\"pkg\":4,\"phase\":\"sweep\",\"cpu\":1,"
	              "\"load\":1,\"set\":1}\n",
	              "4: run line: pkg: no build line for package 4");
	check_refused("{\"type\":\"spawn\",\"run\":1,\"pid\":0,\"start\":1}\n",
	              "3: spawn line: pid: expected a whole number from 1 to 2147483647");
	/* A run that ended before it began. */
	check_refused("{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"PTestA\"]}\n" RUN_LINE(
	                  "\"cpu\":1,\"load\":1,\"set\":1,\"began\":2000,\"ended\":1000"),
	              "4: run line: ended: expected a whole number from 2000 to 9007199254740992");
}

static int
count_sets(void *arg, struct journal_reader *jr, const cJSON *line, int lineno)
{
	(void)jr;
	(void)lineno;
	*(int *)arg += strcmp(journal_line_type(line), "set") == 0;
	return 0;
}

TEST(journal_shuffled_runs_share_a_set)
{
	static const char *const names[] = {"TestA", "TestB", "TestC", "TestD"};
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir()), *err = NULL, *text;
	struct journal *j = journal_started(path);
	struct journal_run jr;
	struct outcome o;
	struct replay rp;
	size_t len, before;
	int i, k, sets = 0;
	bool torn;

	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	free(text);
	before = len;
	for (i = 0; i < 40; i++) {
		memset(&o, 0, sizeof o);
		/* A new order each run, the seed that gives it, and one test
		 * skipped in runs 20 to 39. */
		for (k = 0; k < 4; k++) {
			int t = i % 2 == 0 ? (i + k) % 4 : (i + 4 - k) % 4;

			outcome_add(&o, xstrdup(names[t]),
			            i >= 20 && t == 2 ? OUTCOME_SKIP : OUTCOME_PASS, NULL);
		}
		o.seed = xasprintf("%d", 1000000007 + i);
		memset(&jr, 0, sizeof jr);
		jr.run = i + 1;
		jr.cpu = 1;
		jr.load = 1;
		jr.ms = 12;
		CHECK_INT(journal_write_run(j, &jr, &o), 0);
		outcome_free(&o);
	}
	journal_close(j);
	/* One set while all passed, one with TestC skipped. */
	CHECK_INT(journal_read(path, count_sets, &sets, &torn, &err), 0);
	CHECK_INT(sets, 2);
	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	CHECK((len - before) / 40 < 150);
	free(text);
	/* A resumed sweep reuses them too. */
	j = journal_open(path, &err);
	CHECK(j != NULL);
	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup("TestD"), OUTCOME_PASS, NULL);
	outcome_add(&o, xstrdup("TestB"), OUTCOME_PASS, NULL);
	outcome_add(&o, xstrdup("TestC"), OUTCOME_SKIP, NULL);
	outcome_add(&o, xstrdup("TestA"), OUTCOME_PASS, NULL);
	o.seed = xstrdup("5");
	jr.run = 41;
	CHECK_INT(journal_write_run(j, &jr, &o), 0);
	outcome_free(&o);
	journal_close(j);
	sets = 0;
	CHECK_INT(journal_read(path, count_sets, &sets, &torn, &err), 0);
	CHECK_INT(sets, 2);
	CHECK_INT(replay_journal(path, &rp, &err), 0);
	CHECK_INT(rp.results->runs, 41);
	CHECK_INT(rp.results->ntests, 4);
	CHECK_INT(results_find(rp.results, "example.com/m::TestC")->cells[0].runs, 20);
	CHECK_INT(results_find(rp.results, "example.com/m::TestA")->cells[0].runs, 41);
	replay_free(&rp);
	free(path);
}

/* Run run of package 0 in which the tests named passed. */
static void
write_passing(struct journal *j, int64_t run, const char *a, const char *b)
{
	struct journal_run jr;
	struct outcome o;

	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup(a), OUTCOME_PASS, NULL);
	if (b != NULL)
		outcome_add(&o, xstrdup(b), OUTCOME_PASS, NULL);
	memset(&jr, 0, sizeof jr);
	jr.run = run;
	jr.cpu = 1;
	jr.load = 1;
	CHECK_INT(journal_write_run(j, &jr, &o), 0);
	outcome_free(&o);
}

/* --resume opens the journal with the sets its replay read, not reading
 * it again: appended runs reuse them and new sets take the next ids, a
 * torn last line is cut, and a journal that grew since it was read is
 * read again. */
TEST(journal_open_read_takes_the_sets_the_replay_read)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir()), *err = NULL, *text;
	struct journal *j = journal_started(path);
	struct replay rp, again;
	size_t len;
	int sets = 0;
	bool torn;
	FILE *f;

	write_passing(j, 1, "TestA", "TestB");
	write_passing(j, 2, "TestA", "TestB");
	journal_close(j);
	f = fopen(path, "a");
	fputs("{\"type\":\"run\",\"ru", f);
	fclose(f);
	CHECK_INT(replay_journal(path, &rp, &err), 0);
	CHECK(rp.torn);
	CHECK_INT(replay_journal(path, &again, &err), 0);
	j = journal_open_read(path, rp.tail, rp.torn, &err);
	CHECK(j != NULL && err == NULL);
	write_passing(j, 3, "TestA", "TestB");
	write_passing(j, 4, "TestA", NULL);
	journal_close(j);
	CHECK_INT(journal_read(path, count_sets, &sets, &torn, &err), 0);
	CHECK(!torn);
	CHECK_INT(sets, 2);
	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	CHECK(strstr(text, "{\"type\":\"set\",\"id\":2,") != NULL);
	CHECK(strstr(text, "\"ru{") == NULL);
	free(text);
	/* again read it before runs 3 and 4 and set 2: stale, so the file is
	 * read again and set 2 reused. */
	j = journal_open_read(path, again.tail, false, &err);
	CHECK(j != NULL && err == NULL);
	write_passing(j, 5, "TestA", NULL);
	journal_close(j);
	sets = 0;
	CHECK_INT(journal_read(path, count_sets, &sets, &torn, &err), 0);
	CHECK_INT(sets, 2);
	replay_free(&rp);
	replay_free(&again);
	CHECK_INT(replay_journal(path, &rp, &err), 0);
	CHECK_INT(rp.results->runs, 5);
	CHECK_INT(results_find(rp.results, "example.com/m::TestA")->cells[0].runs, 5);
	replay_free(&rp);
	free(path);
}

/* Run run of package 0 in which TestA passed, overlapped or not. */
static void
write_overlapped(struct journal *j, int64_t run, bool overlapped)
{
	struct journal_run jr;
	struct outcome o;

	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup("TestA"), OUTCOME_PASS, NULL);
	memset(&jr, 0, sizeof jr);
	jr.run = run;
	jr.cpu = 1;
	jr.load = 1;
	jr.overlapped = overlapped;
	CHECK_INT(journal_write_run(j, &jr, &o), 0);
	outcome_free(&o);
}

/* How many times needle is in haystack. */
static int
count_in(const char *haystack, const char *needle)
{
	int n = 0;

	for (; (haystack = strstr(haystack, needle)) != NULL; haystack += strlen(needle))
		n++;
	return n;
}

/* Runs that overlap go unsaid once most do: after 15 runs that say
 * "overlapped":true, a defaults line makes true what a run line leaves
 * out, and the two runs that did not overlap say false, before and after
 * the journal is opened again at run 25. The same runs as journals wrote
 * them before (true said, false unsaid, no defaults line) read the same. */
TEST(journal_overlapped_goes_unsaid_once_most_runs_overlap)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir());
	char *old = xasprintf("%s/old.jsonl", check_tmpdir()), *err = NULL, *text, *p, *nl;
	struct journal *j = journal_started(path);
	struct replay rp;
	size_t len;
	int run;
	FILE *f;

	for (run = 1; run <= 40; run++) {
		if (run == 25) {
			journal_close(j);
			j = journal_open(path, &err);
			CHECK(j != NULL && err == NULL);
		}
		write_overlapped(j, run, run != 20 && run != 30);
	}
	journal_close(j);
	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	/* 15 run lines and the defaults line. */
	CHECK_INT(count_in(text, "\"overlapped\":true"), 16);
	CHECK_INT(count_in(text, "\"overlapped\":false"), 2);
	CHECK_INT(count_in(text, "{\"type\":\"defaults\""), 1);
	CHECK(strstr(text,
	             "\n{\"type\":\"defaults\",\"overlapped\":true}\n{\"type\":\"run\",\"run\":16,"
	             "\"pkg\":0,\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":0,\"set\":1}\n") != NULL);
	CHECK(strstr(text, "{\"type\":\"run\",\"run\":25,\"pkg\":0,\"cpu\":1,\"load\":1,\"lane\":0,"
	                   "\"ms\":0,\"set\":1}\n") != NULL);
	CHECK(strstr(text,
	             "\"run\":20,\"pkg\":0,\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":0,\"set\":1,"
	             "\"overlapped\":false}\n") != NULL);
	/* As written before: no defaults line, true said, false not. */
	f = fopen(old, "w");
	for (p = text; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		int n = (int)(nl - p);

		if (strncmp(p, "{\"type\":\"defaults\"", 18) == 0)
			continue;
		if (strncmp(p, "{\"type\":\"run\"", 13) != 0 || memmem(p, (size_t)n, "true", 4))
			fprintf(f, "%.*s\n", n, p);
		else if (memmem(p, (size_t)n, ",\"overlapped\":false}", 20))
			fprintf(f, "%.*s}\n", n - 20, p);
		else
			fprintf(f, "%.*s,\"overlapped\":true}\n", n - 1, p);
	}
	fclose(f);
	free(text);
	CHECK_INT(util_read_file(old, 1 << 20, &text, &len), 0);
	CHECK_INT(count_in(text, "\"overlapped\":true"), 38);
	CHECK_INT(count_in(text, "overlapped\":false"), 0);
	free(text);
	check_read_alike(path, old, 40);
	CHECK_INT(replay_journal(path, &rp, &err), 0);
	CHECK_INT(results_find(rp.results, "example.com/m::TestA")->cells[0].runs, 40);
	CHECK_INT(results_find(rp.results, "example.com/m::TestA")->cells[0].overlapped_runs, 38);
	replay_free(&rp);
	free(old);
	free(path);
}

/* The default a resumed sweep appends under is the one its replay read. */
TEST(journal_open_read_keeps_the_default_overlapped)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir()), *err = NULL, *text;
	struct journal *j = journal_started(path);
	struct replay rp;
	size_t len;
	int run;

	for (run = 1; run <= 16; run++)
		write_overlapped(j, run, true);
	journal_close(j);
	CHECK_INT(replay_journal(path, &rp, &err), 0);
	j = journal_open_read(path, rp.tail, rp.torn, &err);
	CHECK(j != NULL && err == NULL);
	write_overlapped(j, 17, true);
	journal_close(j);
	replay_free(&rp);
	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	CHECK(strstr(text, "{\"type\":\"run\",\"run\":17,\"pkg\":0,\"cpu\":1,\"load\":1,\"lane\":0,"
	                   "\"ms\":0,\"set\":1}\n") != NULL);
	free(text);
	CHECK_INT(replay_journal(path, &rp, &err), 0);
	CHECK_INT(results_find(rp.results, "example.com/m::TestA")->cells[0].overlapped_runs, 17);
	replay_free(&rp);
	free(path);
}

TEST(journal_defaults_line_checked)
{
	check_refused("{\"type\":\"defaults\",\"overlapped\":1}\n",
	              "3: defaults line: overlapped: expected true or false");
	/* A run line's true-or-false members too: a string is no true. */
	check_refused("{\"type\":\"run\",\"run\":1,\"pkg\":0,\"cpu\":1,\"load\":1,"
	              "\"lane\":0,\"ms\":5,\"overlapped\":\"true\"}\n",
	              "3: run line: overlapped: expected true or false");
	check_refused("{\"type\":\"run\",\"run\":1,\"pkg\":0,\"cpu\":1,\"load\":1,"
	              "\"lane\":0,\"ms\":5,\"exit\":1,\"timed_out\":1}\n",
	              "3: run line: timed_out: expected true or false");
}

/* A journal written before shuffled runs shared sets: a set line per run,
 * each in its run's order, the same tests in all but one. */
#define OLD_SHUFFLED_LINES                                                                     \
	"{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"PTestA\",\"PTestB\",\"STestC\"]}\n" \
	"{\"type\":\"run\",\"run\":1,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,"      \
	"\"lane\":0,\"ms\":5,\"exit\":0,\"set\":1,\"seed\":\"11\"}\n"                          \
	"{\"type\":\"set\",\"id\":2,\"pkg\":0,\"order\":[\"STestC\",\"PTestA\",\"PTestB\"]}\n" \
	"{\"type\":\"run\",\"run\":2,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,"      \
	"\"lane\":0,\"ms\":5,\"exit\":0,\"set\":2,\"seed\":\"12\"}\n"                          \
	"{\"type\":\"set\",\"id\":3,\"pkg\":0,\"order\":[\"STestC\",\"PTestA\"]}\n"            \
	"{\"type\":\"run\",\"run\":3,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,"      \
	"\"lane\":0,\"ms\":5,\"exit\":1,\"set\":3,\"fail\":[\"TestB\"],\"seed\":\"13\"}\n"     \
	"{\"type\":\"set\",\"id\":4,\"pkg\":0,\"order\":[\"PTestB\",\"STestC\",\"PTestA\"]}\n" \
	"{ \"type\":\"run\",\"run\":4,\"pkg\":0,\"phase\":\"sweep\",\"cpu\":1,\"load\":1,"     \
	"\"lane\":0,\"ms\":5,\"exit\":0,\"set\":4,\"seed\":\"14\"}\n"

/* The same runs as a sweep writes them now: a set per outcome. */
#define NEW_SHUFFLED_LINES                                                                           \
	"{\"type\":\"set\",\"id\":1,\"pkg\":0,\"order\":[\"PTestA\",\"PTestB\",\"STestC\"]}\n"       \
	"{\"type\":\"run\",\"run\":1,\"pkg\":0,\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,"            \
	"\"set\":1,\"seed\":\"11\"}\n"                                                               \
	"{\"type\":\"run\",\"run\":2,\"pkg\":0,\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,"            \
	"\"set\":1,\"seed\":\"12\"}\n"                                                               \
	"{\"type\":\"set\",\"id\":2,\"pkg\":0,\"order\":[\"STestC\",\"PTestA\"]}\n"                  \
	"{\"type\":\"run\",\"run\":3,\"pkg\":0,\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,\"exit\":1," \
	"\"set\":2,\"fail\":[\"TestB\"],\"seed\":\"13\"}\n"                                          \
	"{\"type\":\"run\",\"run\":4,\"pkg\":0,\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5,"            \
	"\"set\":1,\"seed\":\"14\"}\n"

/* Writes the header, the build line of package 0 and lines to path. */
static char *
journal_with(const char *name, const char *lines)
{
	char *path = xasprintf("%s/%s", check_tmpdir(), name);
	FILE *f = fopen(path, "w");

	fputs(HEADER_LINE, f);
	fputs("{\"type\":\"build\",\"pkg\":0,\"package\":\"example.com/m\",\"level\":\"unit\","
	      "\"dir\":\"/m\",\"ok\":true,\"tests\":[\"TestA\",\"TestB\",\"TestC\"]}\n",
	      f);
	fputs(lines, f);
	fclose(f);
	return path;
}

/* An old shuffled journal keeps each set of tests once, whatever the
 * orders of its set lines (each forgotten once its run with a seed is
 * read), and reads as the same runs written now; a resumed sweep appends
 * a run with a seed to the first set of its tests and one without to a
 * set of its order. */
TEST(journal_old_shuffled_sets_read_as_one_set_per_outcome)
{
	char *old = journal_with("old.jsonl", OLD_SHUFFLED_LINES), *err = NULL, *text;
	char *now = journal_with("journal.jsonl", NEW_SHUFFLED_LINES);
	struct journal *j;
	struct journal_run jr;
	struct outcome o;
	struct replay rp;
	size_t len;

	check_read_alike(old, now, 4);
	CHECK_INT(replay_journal(old, &rp, &err), 0);
	CHECK_INT(rp.results->runs, 4);
	CHECK_INT(results_find(rp.results, "example.com/m::TestA")->cells[0].runs, 4);
	CHECK_INT(results_find(rp.results, "example.com/m::TestB")->cells[0].runs, 4);
	CHECK_INT(results_find(rp.results, "example.com/m::TestB")->cells[0].failures, 1);
	replay_free(&rp);
	j = journal_open(old, &err);
	CHECK(j != NULL && err == NULL);
	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup("TestB"), OUTCOME_PASS, NULL);
	outcome_add(&o, xstrdup("TestC"), OUTCOME_SKIP, NULL);
	outcome_add(&o, xstrdup("TestA"), OUTCOME_PASS, NULL);
	o.seed = xstrdup("15");
	memset(&jr, 0, sizeof jr);
	jr.run = 5;
	jr.cpu = 1;
	jr.load = 1;
	CHECK_INT(journal_write_run(j, &jr, &o), 0);
	outcome_free(&o);
	/* Set 2's order, forgotten: a set line of its own. */
	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup("TestC"), OUTCOME_SKIP, NULL);
	outcome_add(&o, xstrdup("TestA"), OUTCOME_PASS, NULL);
	outcome_add(&o, xstrdup("TestB"), OUTCOME_PASS, NULL);
	jr.run = 6;
	CHECK_INT(journal_write_run(j, &jr, &o), 0);
	outcome_free(&o);
	journal_close(j);
	CHECK_INT(util_read_file(old, 1 << 20, &text, &len), 0);
	CHECK(strstr(text,
	             "\"run\":5,\"pkg\":0,\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":0,\"set\":1,"
	             "\"seed\":\"15\"}\n{\"type\":\"set\",\"id\":5,\"pkg\":0,\"order\":"
	             "[\"STestC\",\"PTestA\",\"PTestB\"]}\n{\"type\":\"run\",\"run\":6,") != NULL);
	free(text);
	CHECK_INT(replay_journal(old, &rp, &err), 0);
	CHECK_INT(rp.results->runs, 6);
	CHECK_INT(results_find(rp.results, "example.com/m::TestA")->cells[0].runs, 6);
	replay_free(&rp);
	free(old);
	free(now);
}

/* A sweep interrupted part-way shows how far it got, not all of it:
 * 3 of its 50 sweep runs (2 pairs of 25); completed, all it made. */
TEST(journal_progress_of_an_interrupted_sweep)
{
	static const char *const runs =
	    "{\"type\":\"run\",\"run\":1,\"pkg\":0,\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5}\n"
	    "{\"type\":\"run\",\"run\":2,\"pkg\":0,\"cpu\":2,\"load\":1,\"lane\":0,\"ms\":5}\n"
	    "{\"type\":\"run\",\"run\":3,\"pkg\":0,\"cpu\":1,\"load\":1,\"lane\":0,\"ms\":5}\n";
	const char *ends[] = {"interrupted", "complete"};
	int64_t want[][2] = {{3, 50}, {3, 3}};
	size_t i;

	for (i = 0; i < 2; i++) {
		char *lines = xasprintf("%s{\"type\":\"end\",\"status\":\"%s\"}\n", runs, ends[i]);
		char *path = journal_with(ends[i], lines), *err = NULL;
		enum sweep_phase phase;
		int64_t done, target;
		struct replay rp;

		CHECK_INT(replay_journal(path, &rp, &err), 0);
		replay_progress(&rp, &phase, &done, &target);
		CHECK_INT(phase, SWEEP_PHASE_DONE);
		CHECK_INT(done, want[i][0]);
		CHECK_INT(target, want[i][1]);
		replay_free(&rp);
		free(path);
		free(lines);
	}
}
