/* SPDX-License-Identifier: MIT */
/* test-results.c: cells, verdicts, intervals and the reports. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "engine/noise.h"
#include "results/causes.h"
#include "results/interference.h"
#include "results/noise-rank.h"
#include "results/journal.h"
#include "results/replay.h"
#include "results/report.h"
#include "results/results-json.h"
#include "results/results.h"
#include "base/util.h"

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
	 * one of 10 runs at cpu 2 load 1: failing. TestC hangs once. */
	for (i = 0; i < 4; i++) {
		outcome_of(&o, "TestC", i == 0 ? "TestA" : NULL, NULL);
		if (i != 0)
			outcome_add(&o, xstrdup("TestA"), OUTCOME_PASS, NULL);
		CHECK_INT(results_add_run(r, pkg, RESULTS_SWEEP, 1, 1, &o, "runs/1.log", i + 1),
		          i == 0 ? 1 : 0);
		outcome_free(&o);
	}
	for (i = 0; i < 10; i++) {
		outcome_of(&o, NULL, "TestB", i == 1 ? "TestC" : NULL);
		results_add_run(r, pkg, RESULTS_SWEEP, 2, 1, &o, NULL, 10 + i);
		outcome_free(&o);
	}
	CHECK_INT(r->runs, 14);
	CHECK_INT(r->failures, 11);
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
	/* One run, hung: too few runs to call it failing. */
	CHECK_STR(results_verdict_name(results_verdict(t)), "flaky");
	results_free(r);
}

/* results_absorb adds up two sweeps: the same test at the same pair sums
 * its cell, a new pair adds a cell, a test and a package only the second
 * has are added, and the run counts add up. */
TEST(results_absorb_adds_cells_tests_and_packages)
{
	struct results *a = results_new(), *b = results_new();
	struct outcome o;
	const struct results_test *t;
	int pa = results_add_pkg(a, "m", "unit"), pb = results_add_pkg(b, "m", "unit"), i;
	int pc = results_add_pkg(b, "other", "unit");

	for (i = 0; i < 3; i++) {
		outcome_of(&o, NULL, "TestA", NULL);
		results_add_run(a, pa, RESULTS_SWEEP, 1, 1, &o, NULL, i + 1);
		outcome_free(&o);
	}
	for (i = 0; i < 5; i++) {
		outcome_of(&o, "TestA", NULL, NULL);
		results_add_run(b, pb, RESULTS_SWEEP, i < 2 ? 1 : 2, 1, &o, NULL, i + 1);
		outcome_free(&o);
	}
	outcome_of(&o, NULL, "TestB", NULL);
	results_add_run(b, pc, RESULTS_SWEEP, 2, 1, &o, NULL, 6);
	outcome_free(&o);
	results_absorb(a, b);
	CHECK_INT(a->runs, 9);
	CHECK_INT(a->failures, 4);
	CHECK_INT((int)a->npkgs, 2);
	CHECK_INT(a->pkgs[0].runs, 8);
	t = results_find(a, "m::TestA");
	CHECK(t != NULL);
	CHECK_INT(t->ncells, 2);
	CHECK_INT(t->cells[0].cpu, 1);
	CHECK_INT(t->cells[0].runs, 5);
	CHECK_INT(t->cells[0].failures, 3);
	CHECK_INT(t->cells[1].cpu, 2);
	CHECK_INT(t->cells[1].runs, 3);
	CHECK_INT(t->cells[1].failures, 0);
	t = results_find(a, "other::TestB");
	CHECK(t != NULL);
	CHECK_STR(a->pkgs[t->pkg].name, "other");
	CHECK_INT(t->cells[0].failures, 1);
	results_free(a);
	results_free(b);
}

/* The verdict is per pair over sweep and confirm together: a test that
 * passed 49 of 100 runs at a pair is flaky even when one confirm cell of
 * 10 runs was all red; 9 all-red runs at a pair of a test that passed
 * elsewhere are too few for failing, 10 are enough; a test that never
 * passed is failing however few its runs. */
TEST(results_verdict_per_pair_with_minimum_runs)
{
	struct results *r = results_new();
	struct outcome o;
	int pkg = results_add_pkg(r, "p", "unit"), i;

	for (i = 0; i < 100; i++) {
		outcome_of(&o, i < 49 ? "TestHalf" : NULL, i < 49 ? NULL : "TestHalf", NULL);
		results_add_run(r, pkg, i < 90 ? RESULTS_SWEEP : RESULTS_CONFIRM, 2, 1, &o, NULL,
		                i + 1);
		outcome_free(&o);
	}
	CHECK_INT(results_find(r, "p::TestHalf")->ncells, 2);
	CHECK_INT(results_find(r, "p::TestHalf")->cells[1].failures, 10);
	CHECK_STR(results_verdict_name(results_verdict(results_find(r, "p::TestHalf"))), "flaky");
	outcome_of(&o, NULL, "TestRed", NULL);
	results_add_run(r, pkg, RESULTS_SWEEP, 2, 1, &o, NULL, 150);
	outcome_free(&o);
	CHECK_STR(results_verdict_name(results_verdict(results_find(r, "p::TestRed"))), "failing");
	outcome_of(&o, "TestRed", NULL, NULL);
	results_add_run(r, pkg, RESULTS_SWEEP, 2, 1, &o, NULL, 151);
	outcome_free(&o);
	for (i = 0; i < 10; i++) {
		outcome_of(&o, NULL, "TestRed", NULL);
		results_add_run(r, pkg, i < 5 ? RESULTS_SWEEP : RESULTS_CONFIRM, 1, 1, &o, NULL,
		                200 + i);
		outcome_free(&o);
		CHECK_STR(results_verdict_name(results_verdict(results_find(r, "p::TestRed"))),
		          i < RESULTS_FAILING_MIN_RUNS - 1 ? "flaky" : "failing");
	}
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

/* Run i of the skip tests: TestSome skips in even runs, TestAll in every
 * run, TestFail in even runs and fails in run 3, TestPass never skips. */
static void
outcome_skips(struct outcome *o, int i)
{
	memset(o, 0, sizeof *o);
	outcome_add(o, xstrdup("TestSome"), i % 2 == 0 ? OUTCOME_SKIP : OUTCOME_PASS, NULL);
	outcome_add(o, xstrdup("TestAll"), OUTCOME_SKIP, NULL);
	outcome_add(o, xstrdup("TestFail"),
	            i % 2 == 0 ? OUTCOME_SKIP
	            : i == 3   ? OUTCOME_FAIL
	                       : OUTCOME_PASS,
	            i == 3 ? xstrdup("boom\n") : NULL);
	outcome_add(o, xstrdup("TestPass"), OUTCOME_PASS, NULL);
}

/* The skipped runs of test id (a test of r), and its runs. */
static int64_t
results_skipped_of(const struct results *r, const char *id, int64_t *runs)
{
	const struct results_test *t = results_find(r, id);
	int64_t failures, hangs;

	CHECK(t != NULL);
	results_test_totals(t, runs, &failures, &hangs);
	return results_test_skipped(t);
}

TEST(results_skips_counted_apart)
{
	struct results *r = results_new(), *fast = results_new();
	struct results_shape *shape[2] = {NULL, NULL};
	struct outcome o;
	int pkg = results_add_pkg(r, "p", "unit"), i;
	int64_t runs, skip_flaky, skipped;

	results_add_pkg(fast, "p", "unit");
	for (i = 1; i <= 10; i++) {
		outcome_skips(&o, i);
		results_add_run(r, pkg, RESULTS_SWEEP, 1, 1, &o, NULL, i);
		/* Passing runs go through the journal's fast path: one shape
		 * per set of passed and skipped tests. */
		if (i != 3) {
			if (shape[i % 2] == NULL)
				shape[i % 2] = results_shape_new(fast, pkg, &o);
			results_add_shaped(fast, shape[i % 2], RESULTS_SWEEP, 1, 1, NULL, 0, false,
			                   NULL);
		} else {
			results_add_run(fast, pkg, RESULTS_SWEEP, 1, 1, &o, NULL, i);
		}
		outcome_free(&o);
	}
	CHECK_INT(results_skipped_of(r, "p::TestSome", &runs), 5);
	CHECK_INT(runs, 5);
	CHECK_STR(results_verdict_name(results_verdict(results_find(r, "p::TestSome"))),
	          "skip-flaky");
	CHECK_INT(results_skipped_of(r, "p::TestAll", &runs), 10);
	CHECK_INT(runs, 0);
	CHECK_STR(results_verdict_name(results_verdict(results_find(r, "p::TestAll"))), "skipped");
	/* A failure wins over a skip. */
	CHECK_INT(results_skipped_of(r, "p::TestFail", &runs), 5);
	CHECK_STR(results_verdict_name(results_verdict(results_find(r, "p::TestFail"))), "flaky");
	CHECK_INT(results_skipped_of(r, "p::TestPass", &runs), 0);
	CHECK_INT(runs, 10);
	CHECK_STR(results_verdict_name(results_verdict(results_find(r, "p::TestPass"))), "passed");
	results_skip_counts(r, &skip_flaky, &skipped);
	CHECK_INT(skip_flaky, 1);
	CHECK_INT(skipped, 1);
	/* The fast path counts the same. */
	for (i = 0; i < (int)r->ntests; i++) {
		const struct results_test *t = &r->tests[i];
		int64_t fast_runs;

		CHECK_INT(results_skipped_of(fast, t->id, &fast_runs),
		          results_skipped_of(r, t->id, &runs));
		CHECK_INT(fast_runs, runs);
		CHECK_INT(results_verdict(results_find(fast, t->id)), results_verdict(t));
	}
	results_shape_free(shape[0]);
	results_shape_free(shape[1]);
	results_free(fast);
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

/* A header line as a sweep writes it, for journals made by hand. */
#define HEADER                                                                         \
	"{\"type\":\"header\",\"schema\":\"flakesweep/journal/v1\","                   \
	"\"started\":\"2026-11-30T02:00:00Z\",\"config\":{\"cpu\":[1,2],\"load\":[1]," \
	"\"count\":25,\"confirm\":0,\"driver\":\"go\",\"packages\":[],\"command\":[]}}"

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
	/* Red in its one run: it never passed, so it is failing. */
	CHECK_INT(cJSON_GetObjectItem(sum, "failing")->valueint, 1);
	CHECK_INT(cJSON_GetObjectItem(sum, "flaky")->valueint, 0);
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

/* Writes one run line of package 0 at (phase, cpu, load 1) with the given
 * outcome and cores, overlapped or not. */
static void
journal_run_over(struct journal *j, int64_t run, enum results_phase phase, int cpu,
                 const int *cores, bool overlapped, struct outcome *o)
{
	struct journal_run jr;

	memset(&jr, 0, sizeof jr);
	jr.run = run;
	jr.phase = phase;
	jr.cpu = cpu;
	jr.load = 1;
	memcpy(jr.cores, cores, sizeof *cores * (size_t)cpu);
	jr.ncores = cpu;
	jr.overlapped = overlapped;
	CHECK_INT(journal_write_run(j, &jr, o), 0);
	outcome_free(o);
}

/* The same, never overlapped. */
static void
journal_run_of(struct journal *j, int64_t run, enum results_phase phase, int cpu, const int *cores,
               struct outcome *o)
{
	journal_run_over(j, run, phase, cpu, cores, false, o);
}

static struct replay *
journal_replayed(const char *path, struct journal *j)
{
	struct replay *rp = xcalloc(1, sizeof *rp);
	char *err = NULL;

	journal_close(j);
	if (replay_journal(path, rp, &err) < 0)
		fatal("%s", err);
	return rp;
}

static struct journal *
journal_with_pkg(const char *path)
{
	char *err = NULL;
	struct journal *j = journal_open(path, &err);
	cJSON *h = cJSON_Parse(HEADER);
	struct pkg pkg;

	journal_write(j, h);
	cJSON_Delete(h);
	memset(&pkg, 0, sizeof pkg);
	pkg.name = "m";
	pkg.level = "unit";
	pkg.dir = "/src/m";
	pkg.binary = "/out/bin/m.test";
	pkg.build_ok = true;
	journal_write_build(j, 0, &pkg);
	return j;
}

/* A test that fails on every run pinned to core 3 and passes on core 2
 * and on the two-core runs: the journal keeps each run's cores, the
 * per-core counts (per cpu count) come back from it, the concentration
 * is found with Fisher's exact test at cpu 1 and the worst core is 3. TestWide fails as often on
 * every core: no concentration. */
TEST(results_cores_from_the_journal)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir());
	struct journal *j = journal_with_pkg(path);
	struct replay *rp;
	struct outcome o;
	const struct results_test *t;
	const struct results_core *c;
	int64_t runs, bad;
	double p;
	int i;

	for (i = 0; i < 45; i++) {
		int cores[2] = {i % 3 == 2 ? 2 : 2 + i % 2, 3};
		int cpu = i % 3 == 2 ? 2 : 1;
		bool red = cpu == 1 && cores[0] == 3;

		outcome_of(&o, red ? NULL : "TestCore", red ? "TestCore" : NULL, NULL);
		outcome_add(&o, xstrdup("TestWide"), i % 5 == 0 ? OUTCOME_FAIL : OUTCOME_PASS,
		            NULL);
		journal_run_of(j, i + 1, RESULTS_SWEEP, cpu, cores, &o);
	}
	rp = journal_replayed(path, j);
	t = results_find(rp->results, "m::TestCore");
	/* cpu 1: core 2 and core 3; cpu 2: both. */
	CHECK_INT(t->ncores, 4);
	CHECK_INT(t->cores[0].cpu, 1);
	CHECK_INT(t->cores[0].core, 2);
	CHECK_INT(t->cores[0].runs, 15);
	CHECK_INT(t->cores[0].failures, 0);
	CHECK_INT(t->cores[1].core, 3);
	CHECK_INT(t->cores[1].runs, 15);
	CHECK_INT(t->cores[1].failures, 15);
	CHECK_INT(t->cores[3].cpu, 2);
	CHECK_INT(t->cores[3].runs, 15);
	CHECK_INT(t->cores[3].failures, 0);
	CHECK_INT(results_worst_core(t), 3);
	CHECK(results_core_concentration(t, &c, &runs, &bad, &p));
	CHECK_INT(c->core, 3);
	CHECK_INT(c->cpu, 1);
	CHECK_INT(runs, 30);
	CHECK_INT(bad, 15);
	/* At cpu 1, all 15 failures among the 15 runs on core 3, none in the
	 * 15 on core 2: 1/C(30,15), under 0.01 / 2 cores tested. */
	CHECK(fabs(p - 1.0 / 155117520.0) < 1e-12);
	t = results_find(rp->results, "m::TestWide");
	CHECK(!results_core_concentration(t, &c, &runs, &bad, &p));
	replay_free(rp);
	free(rp);
	free(path);
}

/* Confirm runs alone take their lane's first free core: TestEven fails in
 * half its sweep runs on core 2 and on core 3 alike, and passes its 80
 * confirm runs, all on core 2. Pooled, core 3 would look bad (5 of 10
 * against 5 of 90 on core 2); the sweep's runs alone show no
 * concentration. */
TEST(results_cores_counted_in_the_sweep_only)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir());
	struct journal *j = journal_with_pkg(path);
	struct replay *rp;
	struct outcome o;
	const struct results_test *t;
	const struct results_core *c;
	int64_t runs, bad;
	double p;
	int i;

	for (i = 0; i < 100; i++) {
		int cores[1] = {i < 20 ? 2 + i % 2 : 2};
		bool fail = i < 20 && i % 4 < 2;

		outcome_of(&o, fail ? NULL : "TestEven", fail ? "TestEven" : NULL, NULL);
		journal_run_of(j, i + 1, i < 20 ? RESULTS_SWEEP : RESULTS_CONFIRM, 1, cores, &o);
	}
	rp = journal_replayed(path, j);
	t = results_find(rp->results, "m::TestEven");
	/* 5 of 10 on core 3 against 5 of 90 on core 2, pooled. */
	CHECK(!results_core_concentration(t, &c, &runs, &bad, &p));
	replay_free(rp);
	free(rp);
	free(path);
}

/* A sweep at one pair: the core a run gets follows the order runs start
 * in, so failures on one core name no core (a reproduce sweep said "core
 * 3" for runs that failed first in each batch). At two pairs they do. */
static void
results_cores_of_runs(struct journal *j, int first, int n, int cpu)
{
	struct outcome o;
	int i;

	for (i = first; i < first + n; i++) {
		int one[1] = {2 + i % 2}, two[2] = {2, 3};
		bool fail = cpu == 1 && i % 2 == 1;

		outcome_of(&o, fail ? NULL : "TestCore", fail ? "TestCore" : NULL, NULL);
		journal_run_of(j, i + 1, RESULTS_SWEEP, cpu, cpu == 1 ? one : two, &o);
	}
}

TEST(results_cores_named_only_beyond_one_pair)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir());
	struct journal *j = journal_with_pkg(path);
	struct replay *rp;
	const struct results_core *c;
	int64_t runs, bad;
	double p;

	results_cores_of_runs(j, 0, 40, 1);
	rp = journal_replayed(path, j);
	CHECK(!results_core_concentration(results_find(rp->results, "m::TestCore"), &c, &runs, &bad,
	                                  &p));
	replay_free(rp);
	free(rp);
	unlink(path);
	j = journal_with_pkg(path);
	results_cores_of_runs(j, 0, 40, 1);
	results_cores_of_runs(j, 40, 20, 2);
	rp = journal_replayed(path, j);
	CHECK(results_core_concentration(results_find(rp->results, "m::TestCore"), &c, &runs, &bad,
	                                 &p));
	CHECK_INT(c->core, 3);
	replay_free(rp);
	free(rp);
	free(path);
}

/* TestRoot fails in some runs; TestLater fails only in those runs, after
 * it, and passes alone: a cascade of TestRoot, not flaky. TestOwn fails
 * once on its own: flaky. A subtest failing after its parent started is
 * no cascade. */
TEST(results_cascade_from_the_journal)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir());
	struct journal *j = journal_with_pkg(path);
	struct replay *rp;
	struct outcome o;
	const struct results_test *t;
	int cores[1] = {0}, i;

	for (i = 0; i < 20; i++) {
		bool bad = i % 4 == 0;

		memset(&o, 0, sizeof o);
		outcome_add(&o, xstrdup("TestOwn"), i == 5 ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
		outcome_add(&o, xstrdup("TestRoot"), bad ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
		outcome_add(&o, xstrdup("TestRoot/sub"), bad ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
		outcome_add(&o, xstrdup("TestLater"), bad ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
		outcome_add(&o, xstrdup("TestRed"), OUTCOME_FAIL, NULL);
		outcome_add(&o, xstrdup("TestAfterRed"), i % 7 == 1 ? OUTCOME_FAIL : OUTCOME_PASS,
		            NULL);
		journal_run_of(j, i + 1, RESULTS_SWEEP, 1, cores, &o);
	}
	rp = journal_replayed(path, j);
	t = results_find(rp->results, "m::TestLater");
	/* Before it is confirmed alone it stays flaky. */
	CHECK_STR(results_verdict_name(results_verdict(t)), "flaky");
	CHECK_INT(t->sweep_bad, 5);
	/* 5 failures, all in the 5 of 20 runs where TestRoot failed first:
	 * C(5,5)/C(20,5) = 1/15504. */
	CHECK_STR(results_cascade_root(t), "TestRoot");
	replay_free(rp);
	free(rp);
	j = journal_open(path, &(char *){NULL});
	for (i = 0; i < 10; i++) {
		memset(&o, 0, sizeof o);
		outcome_add(&o, xstrdup("TestLater"), OUTCOME_PASS, NULL);
		journal_run_of(j, 100 + i, RESULTS_CONFIRM, 1, cores, &o);
		memset(&o, 0, sizeof o);
		outcome_add(&o, xstrdup("TestAfterRed"), OUTCOME_PASS, NULL);
		journal_run_of(j, 200 + i, RESULTS_CONFIRM, 1, cores, &o);
	}
	rp = journal_replayed(path, j);
	t = results_find(rp->results, "m::TestLater");
	CHECK_STR(results_verdict_name(results_verdict(t)), "cascade");
	t = results_find(rp->results, "m::TestRoot/sub");
	CHECK_INT(t->ncandidates, 0);
	CHECK_STR(results_verdict_name(results_verdict(t)), "flaky");
	t = results_find(rp->results, "m::TestOwn");
	CHECK_INT(t->ncandidates, 0);
	CHECK_STR(results_verdict_name(results_verdict(t)), "flaky");
	/* TestAfterRed fails now and then after TestRed, which fails every
	 * run: no evidence of a cascade (p = 1), so it stays flaky. */
	t = results_find(rp->results, "m::TestAfterRed");
	CHECK_INT(t->ncandidates, 1);
	CHECK(results_cascade_root(t) == NULL);
	CHECK_STR(results_verdict_name(results_verdict(t)), "flaky");
	replay_free(rp);
	free(rp);
	free(path);
}

/* The demo's TestNeedsTwoCPUs: it fails every cpu-1 run, and runs overlap
 * more at cpu 1 (31 of 40) than at cpu 2 (18 of 39), so pooled over the
 * pairs 31/49 overlapped runs failed against 9/30 alone (Fisher p =
 * 0.0039): suspect enough to be measured alone, but within each pair its
 * failures fall without regard to overlap, so no interference (p = 1) and
 * no interference cause. TestAfter fails in 10 of the cpu-1 runs, always
 * after it: pooled that is C(40,10)/C(79,10) = 0.0005, within the pairs
 * C(40,10)/C(40,10) = 1 at cpu 1 and nothing at cpu 2: not a cascade,
 * even when it passes alone. */
TEST(results_interference_and_cascades_compare_within_a_pair)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir());
	struct journal *j = journal_with_pkg(path);
	struct replay *rp;
	struct outcome o;
	const struct results_test *t;
	struct stats_table sum;
	struct buf b;
	int cores[2] = {0, 1}, i;

	for (i = 0; i < 79; i++) {
		int cpu = i < 40 ? 1 : 2;

		memset(&o, 0, sizeof o);
		outcome_add(&o, xstrdup("TestNeedsTwoCPUs"), cpu == 1 ? OUTCOME_FAIL : OUTCOME_PASS,
		            NULL);
		outcome_add(&o, xstrdup("TestAfter"),
		            cpu == 1 && i % 4 == 0 ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
		journal_run_over(j, i + 1, RESULTS_SWEEP, cpu, cores, cpu == 1 ? i < 31 : i < 58,
		                 &o);
	}
	for (i = 0; i < 6; i++) {
		memset(&o, 0, sizeof o);
		outcome_add(&o, xstrdup("TestAfter"), OUTCOME_PASS, NULL);
		journal_run_of(j, 100 + i, RESULTS_CONFIRM, 1 + i % 2, cores, &o);
	}
	rp = journal_replayed(path, j);
	t = results_find(rp->results, "m::TestNeedsTwoCPUs");
	interference_totals(t, &sum);
	CHECK_INT(sum.k2, 31);
	CHECK_INT(sum.n2, 49);
	CHECK_INT(sum.k1, 9);
	CHECK_INT(sum.n1, 30);
	CHECK(interference_suspect(t));
	CHECK(interference_p(t) == 1);
	buf_init(&b);
	interference_text(&b, t);
	CHECK_STR(b.data != NULL ? b.data : "", "");
	buf_free(&b);
	t = results_find(rp->results, "m::TestAfter");
	CHECK_INT(t->sweep_bad, 10);
	CHECK_INT(t->ncandidates, 1);
	CHECK(results_cascade_root(t) == NULL);
	CHECK_STR(results_verdict_name(results_verdict(t)), "flaky");
	replay_free(rp);
	free(rp);
	free(path);
}

TEST(report_clean_cell_carries_the_wilson_bound)
{
	struct results *r = results_new();
	struct report_meta m;
	struct outcome o;
	char *text;
	int pkg = results_add_pkg(r, "p", "unit");

	/* Flaky in the sweep; one clean confirm run: at most 79.35%, where
	 * 3/n would claim 300%. */
	outcome_of(&o, NULL, "TestF", NULL);
	results_add_run(r, pkg, RESULTS_SWEEP, 1, 1, &o, "runs/1.log", 1);
	outcome_free(&o);
	outcome_of(&o, "TestF", NULL, NULL);
	results_add_run(r, pkg, RESULTS_SWEEP, 1, 1, &o, NULL, 2);
	results_add_run(r, pkg, RESULTS_CONFIRM, 1, 1, &o, NULL, 3);
	outcome_free(&o);
	memset(&m, 0, sizeof m);
	m.status = "complete";
	text = report_text(r, &m);
	CHECK(
	    strstr(text, "  confirm     1     1          0        1      0  < 79.35% (0 in 1)\n") !=
	    NULL);
	CHECK(strstr(text, "300") == NULL);
	free(text);
	results_free(r);
}

TEST(report_lists_cells_by_phase_cpu_and_load)
{
	struct results *r = results_new();
	struct report_meta m;
	struct outcome o;
	char *text;
	const char *a, *b, *c, *d;
	int pkg = results_add_pkg(r, "p", "unit");

	/* Cells in the order runs finished: confirm first, then cpu 2 before
	 * cpu 1, load 2 before load 1. */
	outcome_of(&o, NULL, "TestF", NULL);
	results_add_run(r, pkg, RESULTS_CONFIRM, 1, 1, &o, "runs/1.log", 1);
	results_add_run(r, pkg, RESULTS_SWEEP, 2, 1, &o, NULL, 2);
	results_add_run(r, pkg, RESULTS_SWEEP, 1, 2, &o, NULL, 3);
	results_add_run(r, pkg, RESULTS_SWEEP, 1, 1, &o, NULL, 4);
	outcome_free(&o);
	memset(&m, 0, sizeof m);
	m.status = "complete";
	text = report_text(r, &m);
	a = strstr(text, "  sweep       1     1 ");
	b = strstr(text, "  sweep       1     2 ");
	c = strstr(text, "  sweep       2     1 ");
	d = strstr(text, "  confirm     1     1 ");
	CHECK(a != NULL && b != NULL && c != NULL && d != NULL);
	CHECK(a < b && b < c && c < d);
	free(text);
	results_free(r);
}

/* Writes run `run` of package 0, a sweep run of ms at cpu 1 and load
 * pinned to core (no start and end on the wall clock, as a journal written
 * before runs had them), in which other processes took other_ms of the
 * core and TestBudget failed or passed. */
static void
journal_run_noise(struct journal *j, int64_t run, int load, int core, int64_t ms, double other_ms,
                  bool fail)
{
	struct journal_run jr;
	struct outcome o;

	memset(&jr, 0, sizeof jr);
	jr.run = run;
	jr.phase = RESULTS_SWEEP;
	jr.cpu = 1;
	jr.load = load;
	jr.ms = ms;
	jr.cores[0] = core;
	jr.ncores = 1;
	jr.has_noise = true;
	jr.noise = other_ms / (double)ms;
	jr.noise_ms = other_ms;
	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup("TestBudget"), fail ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
	CHECK_INT(journal_write_run(j, &jr, &o), 0);
	outcome_free(&o);
}

/* The noise cause judges runs, not cells, within each pair. At load 1,
 * 8 runs on a busy core (half its time taken) fail 6 times and 12 on a
 * quiet one (5%) never: the cell's noise, 0.23, is above 0.2, so cells
 * alone have no quiet side. At load 2, 5 noisy runs and 5 quiet ones fail
 * once each. The exact stratified test: at load 1 the 6 failures fall
 * among the 8 noisy runs of 20 with C(8,6) / C(20,6) = 28 / 38760, 5 of
 * them with 672 / 38760; at load 2 at least one of the 2 among the 5 noisy
 * of 10 has 35 / 45, both 10 / 45; 7 or more noisy failures in all:
 * (28 x 35 + 672 x 10) / (38760 x 45) = 7700 / 1744200. The counts come
 * the same from the journal (passing runs by the fast path, failing ones
 * by the slow one), from the live counting and from results.json. */
TEST(causes_noise_compares_noisy_runs_within_each_pair)
{
	char *path = xasprintf("%s/journal.jsonl", check_tmpdir());
	char *json = xasprintf("%s/results.json", check_tmpdir());
	struct journal *j = journal_with_pkg(path);
	struct results *live = results_new(), *loaded = NULL;
	const struct results *each[3];
	struct results_meta meta;
	struct report_meta m;
	struct replay *rp;
	char *err = NULL, *text;
	cJSON *doc;
	int i, k, pkg = results_add_pkg(live, "m", "unit");

	for (i = 0; i < 30; i++) {
		int load = i < 20 ? 1 : 2;
		bool noisy = i < 8 || (i >= 20 && i < 25);
		bool fail = i < 6 || i == 20 || i == 25;
		struct outcome o;

		journal_run_noise(j, i + 1, load, noisy, 100, noisy ? 50 : 5, fail);
		memset(&o, 0, sizeof o);
		outcome_add(&o, xstrdup("TestBudget"), fail ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
		results_add_run(live, pkg, RESULTS_SWEEP, 1, load, &o, NULL, i + 1);
		results_add_noise(live, pkg, RESULTS_SWEEP, 1, load, &o, noisy ? 50 : 5, 100);
		outcome_free(&o);
	}
	rp = journal_replayed(path, j);
	memset(&m, 0, sizeof m);
	m.status = "complete";
	doc = results_to_json(rp->results, &m);
	text = cJSON_Print(doc);
	CHECK_INT(util_write_file_atomic(json, text, strlen(text)), 0);
	cJSON_Delete(doc);
	free(text);
	CHECK_INT(results_load(json, &loaded, &meta, &err), 0);
	each[0] = rp->results;
	each[1] = live;
	each[2] = loaded;
	for (k = 0; k < 3; k++) {
		const struct results_test *t = results_find(each[k], "m::TestBudget");
		const struct results_cell *c1 = &t->cells[0], *c2 = &t->cells[1];
		struct causes *c = causes_new(each[k]);
		cJSON *a = causes_json(c, 0), *cause = cJSON_GetArrayItem(a, 0);

		CHECK_INT(t->ncells, 2);
		CHECK_INT(c1->load, 1);
		CHECK_INT(c1->runs, 20);
		CHECK_INT(c1->failures, 6);
		CHECK_INT(c1->noisy_runs, 8);
		CHECK_INT(c1->noisy_bad, 6);
		CHECK(fabs(noise_share(c1->noise_ms, c1->noise_core_ms) - 0.23) < 1e-9);
		CHECK_INT(c2->load, 2);
		CHECK_INT(c2->noisy_runs, 5);
		CHECK_INT(c2->noisy_bad, 1);
		CHECK_INT(cJSON_GetArraySize(a), 1);
		CHECK_STR(cJSON_GetObjectItem(cause, "cause")->valuestring, "noise");
		CHECK_STR(cJSON_GetObjectItem(cause, "evidence")->valuestring,
		          "fails under host noise: 7/13 noisy runs against 1/17 quiet ones");
		CHECK(cJSON_GetObjectItem(cause, "p")->valuedouble ==
		      util_round3(7700.0 / 1744200));
		/* Benjamini-Hochberg over it and load's p (0.904: 6/20 at load 1
		 * against 2/10, 0.452, times the two loads). */
		CHECK(cJSON_GetObjectItem(cause, "q")->valuedouble ==
		      util_round3(2 * 7700.0 / 1744200));
		cJSON_Delete(a);
		causes_free(c);
	}
	results_free(loaded);
	results_meta_free(&meta);
	results_free(live);
	replay_free(rp);
	free(rp);
	free(json);
	free(path);
}

/* Whether the causes of TestBudget, from a journal of runs (ms, other
 * processes' ms, failed) x n each, name noise. */
static bool
causes_name_noise(const char *name, const int64_t (*runs)[4], size_t nruns)
{
	char *path = xasprintf("%s/%s.jsonl", check_tmpdir(), name);
	struct journal *j = journal_with_pkg(path);
	struct replay *rp;
	struct causes *c;
	cJSON *a, *x;
	int64_t id = 1, k;
	size_t i;
	bool noise = false;

	for (i = 0; i < nruns; i++)
		for (k = 0; k < runs[i][3]; k++)
			journal_run_noise(j, id++, 1, 0, runs[i][0], (double)runs[i][1],
			                  runs[i][2]);
	rp = journal_replayed(path, j);
	c = causes_new(rp->results);
	a = causes_json(c, 0);
	cJSON_ArrayForEach(x, a) noise =
	    noise || strcmp(cJSON_GetObjectItem(x, "cause")->valuestring, "noise") == 0;
	cJSON_Delete(a);
	causes_free(c);
	replay_free(rp);
	free(rp);
	free(path);
	return noise;
}

/* What the measurement's lag can make is no evidence of noise, in a
 * journal whose runs have no start and end (their ms says how long they
 * ran). Ten failing runs of 50 ms, each with one 15 ms tick of another
 * process (30%, noisy), beside thirty quiet passing runs of 300 ms: under
 * 100 ms, they are left out of the split, and of the ranks. Failing runs
 * of 700 ms with 14 ms of other processes (2%) against passing ones with
 * none: under the 20 ms lag, the ranks count it as none; with 70 ms (10%,
 * under the threshold, so the ranks decide) they name noise. */
TEST(causes_noise_leaves_out_what_the_lag_can_make)
{
	static const int64_t short_fails[][4] = {{50, 15, 1, 10}, {300, 0, 0, 30}};
	static const int64_t one_tick[][4] = {{700, 14, 1, 8}, {700, 0, 0, 32}};
	static const int64_t seventy[][4] = {{700, 70, 1, 8}, {700, 0, 0, 32}};

	CHECK(!causes_name_noise("short", short_fails, 2));
	CHECK(!causes_name_noise("tick", one_tick, 2));
	CHECK(causes_name_noise("seventy", seventy, 2));
}

/* Adds to v a run of 1,000 ms at cpu 1 and load, failed or passed, whose
 * cores other processes took share of. */
static void
view_add(struct timeline_view *v, int load, double share, bool bad)
{
	struct timeline_obs *o;

	v->obs = xrealloc(v->obs, sizeof *v->obs * (v->n + 1));
	o = &v->obs[v->n++];
	memset(o, 0, sizeof *o);
	o->cpu = 1;
	o->load = load;
	o->ms = 1000;
	o->noise = share;
	o->bad = bad;
}

/* The noise ranks' p-value is exact where few runs are on one side. One
 * failing run with 7.8% noise among 23 passing ones with none is the top
 * rank by chance 1/24 (the normal approximation said 2e-5, and named
 * noise for one failure in 60 runs). Three strata, ties at mid-rank, one
 * with more failing runs than passing ones: 25/1764 by enumerating every
 * choice of failing runs. Many runs on both sides (a budget's worth): the
 * normal, with the failing runs plainly noisier. */
TEST(noise_rank_is_exact_for_few_runs)
{
	static const double s1b[] = {0.30, 0.25, 0}, s1g[] = {0, 0, 0.10, 0.05, 0, 0.03};
	static const double s2b[] = {0.40, 0.05}, s2g[] = {0, 0, 0.02, 0, 0.06};
	static const double s3b[] = {0.3, 0.2, 0.1, 0}, s3g[] = {0, 0.05};
	struct timeline_view v;
	struct noise_rank nr;
	size_t i;

	memset(&v, 0, sizeof v);
	view_add(&v, 1, 0.078, true);
	for (i = 0; i < 23; i++)
		view_add(&v, 1, 0, false);
	noise_rank(&v, &nr);
	CHECK(fabs(nr.p - 1.0 / 24) < 1e-12);
	v.n = 0;
	for (i = 0; i < 6; i++) {
		if (i < 3)
			view_add(&v, 1, s1b[i], true);
		view_add(&v, 1, s1g[i], false);
		if (i < 2)
			view_add(&v, 2, s2b[i], true);
		if (i < 5)
			view_add(&v, 2, s2g[i], false);
		if (i < 4)
			view_add(&v, 3, s3b[i], true);
		if (i < 2)
			view_add(&v, 3, s3g[i], false);
	}
	noise_rank(&v, &nr);
	CHECK(fabs(nr.p - 25.0 / 1764) < 1e-12);
	v.n = 0;
	for (i = 0; i < 600; i++)
		view_add(&v, 1, (double)(i % 50) / 100 + (i % 2 ? 0.1 : 0), i % 2);
	noise_rank(&v, &nr);
	CHECK(nr.p >= 0 && nr.p < 1e-6);
	free(v.obs);
}
