/* SPDX-License-Identifier: MIT */
/* test-results.c: cells, verdicts, intervals and the journal round trip. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "journal.h"
#include "replay.h"
#include "report.h"
#include "results-json.h"
#include "results.h"
#include "util.h"

static void
outcome_of(struct outcome *o, const char *pass, const char *fail, const char *hang)
{
	memset(o, 0, sizeof *o);
	if (pass != NULL)
		outcome_add(o, xstrdup(pass), OUTCOME_PASS, NULL);
	if (fail != NULL)
		outcome_add(o, xstrdup(fail), OUTCOME_FAIL,
		            xstrdup("x_test.go:9: boom\x1b[31m red\n"));
	if (hang != NULL)
		outcome_add(o, xstrdup(hang), OUTCOME_HANG, xstrdup("panic: test timed out\n"));
}

TEST(results_cells_and_verdicts)
{
	struct results *r = results_new();
	struct outcome o;
	const struct results_test *t;
	int pkg = results_add_pkg(r, "example.com/m", "unit"), i;

	/* TestA fails 1 of 4 runs at cpu 1 load 1: flaky. TestB fails every
	 * run at cpu 2 load 1: failing. TestC hangs once. */
	for (i = 0; i < 4; i++) {
		outcome_of(&o, "TestC", i == 0 ? "TestA" : NULL, NULL);
		if (i != 0)
			outcome_add(&o, xstrdup("TestA"), OUTCOME_PASS, NULL);
		CHECK_INT(results_add_run(r, pkg, RESULTS_SWEEP, 1, 1, &o, "runs/1.log", i + 1),
		          i == 0 ? 1 : 0);
		outcome_free(&o);
	}
	for (i = 0; i < 3; i++) {
		outcome_of(&o, NULL, "TestB", i == 1 ? "TestC" : NULL);
		results_add_run(r, pkg, RESULTS_SWEEP, 2, 1, &o, NULL, 10 + i);
		outcome_free(&o);
	}
	CHECK_INT(r->runs, 7);
	CHECK_INT(r->failures, 4);
	CHECK_INT(r->hangs, 1);
	t = results_find(r, "example.com/m::TestA");
	CHECK(t != NULL);
	CHECK_INT(t->ncells, 1);
	CHECK_INT(t->cells[0].runs, 4);
	CHECK_INT(t->cells[0].failures, 1);
	CHECK_STR(results_verdict_name(results_verdict(t)), "flaky");
	/* The first failure's lines are sanitised: no escape reaches a screen. */
	CHECK_STR(t->first->lines, "x_test.go:9: boom red\n");
	CHECK_STR(t->first->log, "runs/1.log");
	t = results_find(r, "example.com/m::TestB");
	CHECK_STR(results_verdict_name(results_verdict(t)), "failing");
	CHECK_INT(results_worst_cell(t)->cpu, 2);
	t = results_find(r, "example.com/m::TestC");
	/* TestC started in 4 + 1 runs: its runs count only those. */
	CHECK_INT(t->cells[0].runs, 4);
	CHECK_INT(t->cells[1].runs, 1);
	CHECK_INT(t->cells[1].hangs, 1);
	CHECK_STR(results_verdict_name(results_verdict(t)), "failing");
	results_free(r);
}

TEST(results_package_failures_and_unreliable_runs)
{
	struct results *r = results_new();
	struct outcome o;
	int pkg = results_add_pkg(r, "p", "unit");

	memset(&o, 0, sizeof o);
	o.package_failed = true;
	o.package_reason = xstrdup("exit status 3 with no test running");
	results_add_run(r, pkg, RESULTS_SWEEP, 1, 1, &o, NULL, 1);
	outcome_free(&o);
	outcome_of(&o, NULL, "TestX", NULL);
	o.unreliable = true;
	results_add_run(r, pkg, RESULTS_SWEEP, 1, 1, &o, NULL, 2);
	outcome_free(&o);
	CHECK_INT(r->pkgs[pkg].runs, 2);
	CHECK_INT(r->pkgs[pkg].failures_outside_tests, 1);
	CHECK_INT(r->pkgs[pkg].unreliable_runs, 1);
	CHECK_INT(r->ntests, 0);
	CHECK_INT(r->failures, 0);
	results_free(r);
}

TEST(results_wilson_interval)
{
	double lo, hi;

	results_wilson(3, 1000, &lo, &hi);
	CHECK(fabs(lo - 0.001021) < 1e-5);
	CHECK(fabs(hi - 0.008787) < 1e-5);
	results_wilson(0, 10, &lo, &hi);
	CHECK(lo == 0);
	CHECK(fabs(hi - 0.277540) < 1e-5);
	results_wilson(0, 0, &lo, &hi);
	CHECK(lo == 0 && hi == 1);
}

static int
count_lines(void *arg, struct journal_reader *jr, const cJSON *line, int lineno)
{
	(void)jr;
	(void)line;
	*(int *)arg = lineno;
	return 0;
}

/* A header line as a sweep writes it, for journals made by hand. */
#define HEADER                                                                         \
	"{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\","                   \
	"\"started\":\"2026-11-30T02:00:00Z\",\"config\":{\"cpu\":[1,2],\"load\":[1]," \
	"\"count\":25,\"confirm\":0,\"driver\":\"go\",\"packages\":[],\"command\":[]}}"

TEST(journal_round_trip_and_torn_line)
{
	const char *dir = check_tmpdir();
	char *path = xasprintf("%s/journal.jsonl", dir), *err = NULL;
	struct journal *j = journal_open(path, &err);
	struct journal_run jr;
	struct outcome o;
	struct replay rp;
	struct pkg pkg;
	cJSON *h = cJSON_Parse(HEADER);
	const struct results_test *t;
	char *text;
	size_t len;
	int i, lines = 0;
	bool torn;
	FILE *f;

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
	for (i = 0; i < 50; i++) {
		outcome_of(&o, "TestA", i == 7 ? "TestB" : NULL, NULL);
		if (i != 7)
			outcome_add(&o, xstrdup("TestB"), OUTCOME_PASS, NULL);
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
	const char *dir = check_tmpdir();
	char *path = xasprintf("%s/journal.jsonl", dir), *err = NULL, *want;
	struct replay rp;
	FILE *f = fopen(path, "w");

	fputs(HEADER "\n{\"type\":\"run\"}\n", f);
	fclose(f);
	CHECK_INT(replay_journal(path, &rp, &err), -22);
	want = xasprintf("%s:2: malformed run line", path);
	CHECK_STR(err, want);
	free(want);
	free(err);
	replay_free(&rp);
	free(path);
}

TEST(report_json_lists_every_test)
{
	struct results *r = results_new();
	struct report_meta m;
	struct outcome o;
	cJSON *doc, *tests, *t0, *sum;
	int pkg = results_add_pkg(r, "p", "unit");

	outcome_of(&o, "TestOK", "TestBad", NULL);
	results_add_run(r, pkg, RESULTS_SWEEP, 1, 2, &o, "runs/1.log", 1);
	outcome_free(&o);
	memset(&m, 0, sizeof m);
	m.status = "complete";
	m.started_ms = 1764468000000LL;
	doc = results_to_json(r, &m);
	CHECK_STR(cJSON_GetObjectItem(doc, "schema")->valuestring, "flakesweep/results/v1");
	CHECK_STR(cJSON_GetObjectItem(doc, "started")->valuestring, "2025-11-30T02:00:00Z");
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(doc, "finished")));
	tests = cJSON_GetObjectItem(doc, "tests");
	CHECK_INT(cJSON_GetArraySize(tests), 2);
	t0 = cJSON_GetArrayItem(tests, 0);
	CHECK_STR(cJSON_GetObjectItem(t0, "id")->valuestring, "p::TestOK");
	CHECK_STR(cJSON_GetObjectItem(t0, "verdict")->valuestring, "passed");
	CHECK(cJSON_IsNull(cJSON_GetObjectItem(t0, "first_failure")));
	sum = cJSON_GetObjectItem(doc, "summary");
	CHECK_INT(cJSON_GetObjectItem(sum, "runs")->valueint, 1);
	CHECK_INT(cJSON_GetObjectItem(sum, "failing")->valueint, 1);
	CHECK_INT(cJSON_GetObjectItem(sum, "failures")->valueint, 1);
	CHECK_INT(report_exit_status(r, &m), 1);
	cJSON_Delete(doc);
	results_free(r);
}

TEST(results_first_failed_in_names_new_failures)
{
	struct results *r = results_new();
	struct outcome o;
	int pkg = results_add_pkg(r, "p", "unit");

	outcome_of(&o, "TestOK", "TestBad", NULL);
	results_add_run(r, pkg, RESULTS_SWEEP, 1, 1, &o, NULL, 7);
	CHECK(results_first_failed_in(r, pkg, &o.tests[0], 7) == NULL); /* passed */
	CHECK_STR(results_first_failed_in(r, pkg, &o.tests[1], 7)->id, "p::TestBad");
	results_add_run(r, pkg, RESULTS_SWEEP, 1, 1, &o, NULL, 8);
	/* Run 8 failed it again: not new. */
	CHECK(results_first_failed_in(r, pkg, &o.tests[1], 8) == NULL);
	outcome_free(&o);
	results_free(r);
}
