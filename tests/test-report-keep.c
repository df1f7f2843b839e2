/* SPDX-License-Identifier: MIT */
/* test-report-keep.c: a rewrite of results.json and report.txt that copies
 * the texts of unchanged tests writes the bytes a rewrite from nothing
 * writes, change after change, and copies what did not change. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "decisions/quarantine.h"
#include "drivers/outcome.h"
#include "results/report-keep.h"
#include "results/report-writer.h"
#include "results/report.h"
#include "results/results-json.h"
#include "base/util.h"

/* 2026-11-30T12:00:00Z. */
#define KEEP_NOW_MS INT64_C(1796040000000)

static void
keep_reproduce(void *arg, const struct results_test *t, const struct results_cell *worst,
               char **flakesweep, char **direct)
{
	(void)arg;
	*flakesweep = xasprintf("flakesweep --only '%s' --cpu %d", t->id, worst->cpu);
	*direct = xasprintf("go test -run '^%s$'", t->test);
}

/* Whether t is provisional: the tests of package *arg are. */
static bool
keep_provisional(void *arg, const struct results_test *t)
{
	return t->pkg == *(const int *)arg;
}

/* A run of package p (tests Test0 to Test5, and Test6 when more) at
 * cpu, with test bad failing (none when bad < 0). */
static void
keep_run(struct results *r, int p, int cpu, int bad, bool more, int64_t run)
{
	struct outcome o;
	int k;

	memset(&o, 0, sizeof o);
	for (k = 0; k < 6 + more; k++)
		outcome_add(&o, xasprintf("Test%d", k), k == bad ? OUTCOME_FAIL : OUTCOME_PASS,
		            k == bad ? xasprintf("keep_test.go:%d: failed\n", 10 + k) : NULL);
	results_add_run(r, p, RESULTS_SWEEP, cpu, 1, &o, NULL, run);
	outcome_free(&o);
}

/* Writes r into dir with m, and returns DIR/results.json then
 * DIR/report.txt in one text, once written (with m->cache while running,
 * its writer thread writes them). */
static char *
keep_write(const char *dir, const struct results *r, const struct report_meta *m)
{
	char *err = NULL, *json = NULL, *text = NULL, *path, *both;
	size_t len;

	CHECK_INT(report_write(dir, r, m, &err), 0);
	if (m->cache != NULL)
		CHECK_INT(report_writer_wait(report_keep_writer(m->cache), &err), 0);
	CHECK(err == NULL);
	path = xasprintf("%s/results.json", dir);
	CHECK_INT(util_read_file(path, 1 << 24, &json, &len), 0);
	free(path);
	path = xasprintf("%s/report.txt", dir);
	CHECK_INT(util_read_file(path, 1 << 24, &text, &len), 0);
	free(path);
	both = xasprintf("%s%s", json, text);
	free(json);
	free(text);
	return both;
}

TEST(report_keep_rewrites_after_changes_are_rewrites_from_nothing)
{
	static const char entries[] =
	    "[\n"
	    "{\"test\": \"example.com/p0::Test1\", \"channel\": \"any\", \"owner\": \"o\", "
	    "\"issue\": \"#1\", \"expires\": \"2099-01-31\"},\n"
	    "{\"test\": \"example.com/p1::Test2\", \"channel\": \"cpu=2\", \"owner\": \"o\", "
	    "\"issue\": \"#2\", \"expires\": \"2026-11-30\"},\n"
	    "{\"test\": \"example.com/p1::Test2\", \"channel\": \"any\", \"owner\": \"o\", "
	    "\"issue\": \"#3\", \"expires\": \"2099-01-31\"},\n"
	    "{\"test\": \"example.com/p2::Test4\", \"channel\": \"any\", \"owner\": \"o\", "
	    "\"issue\": \"#4\", \"expires\": \"2099-01-31\"}\n"
	    "]\n";
	char *fresh_dir = xasprintf("%s/fresh", check_tmpdir());
	char *kept_dir = xasprintf("%s/kept", check_tmpdir());
	/* One quarantine each, so that the kept rewrites judge their own. */
	struct quarantine *q = quarantine_parse("quarantine.json", entries, sizeof entries - 1);
	struct quarantine *q_kept =
	    quarantine_parse("quarantine.json", entries, sizeof entries - 1);
	struct report_keep *keep = report_keep_new();
	struct results *r = results_new();
	struct report_meta m;
	char *fresh, *kept, *prev = NULL, *json_p2 = NULL;
	int64_t run = 0;
	int provisional_pkg = -1, step, p, k;

	CHECK_INT(q->nerrors, 0);
	CHECK_INT(util_mkdir_p(fresh_dir), 0);
	CHECK_INT(util_mkdir_p(kept_dir), 0);
	for (p = 0; p < 3; p++) {
		char *name = xasprintf("example.com/p%d", p);

		results_add_pkg(r, name, "unit");
		free(name);
		keep_run(r, p, 1, p, false, ++run);
		keep_run(r, p, 2, -1, false, ++run);
	}
	/* Package 2's Test3 fails at cpu 2 only, so that its cause is named:
	 * the q-value other tests' failures change, not its own results. */
	for (k = 0; k < 12; k++) {
		keep_run(r, 2, 1, -1, false, ++run);
		keep_run(r, 2, 2, k > 0 ? 3 : -1, false, ++run);
	}
	memset(&m, 0, sizeof m);
	m.status = "running";
	m.started_ms = KEEP_NOW_MS - 60000;
	m.now_ms = KEEP_NOW_MS;
	m.quarantine = q;
	m.reproduce = keep_reproduce;
	m.provisional = keep_provisional;
	m.arg = &provisional_pkg;
	for (step = 0; step < 8; step++) {
		switch (step) {
		case 1: /* a passing run of one package */
			keep_run(r, 0, 1, -1, false, ++run);
			break;
		case 2: /* a quarantined test fails again, at cpu 2 */
			keep_run(r, 1, 2, 2, false, ++run);
			break;
		case 3: /* a new test, a polluter found */
			keep_run(r, 1, 1, 5, true, ++run);
			results_set_polluter(&r->tests[0], "Test5", "42", "go test -run x", 30);
			break;
		case 4: /* the clock passes an entry's expiry */
			m.now_ms = KEEP_NOW_MS + 13 * 3600 * 1000;
			break;
		case 5: /* a package's pairs have had fewer runs than planned */
			provisional_pkg = 2;
			break;
		case 6: /* failures at another load */
			keep_run(r, 2, 2, 4, false, ++run);
			break;
		case 7:
			m.status = "complete";
			m.finished_ms = m.now_ms;
			break;
		}
		m.cache = NULL;
		m.quarantine = q;
		fresh = keep_write(fresh_dir, r, &m);
		m.cache = keep;
		m.quarantine = q_kept;
		kept = keep_write(kept_dir, r, &m);
		CHECK_STR(kept, fresh);
		/* Each change shows: nothing stale was copied. */
		if (prev != NULL)
			CHECK(strcmp(kept, prev) != 0);
		/* Package 2's first test, untouched by steps 1 to 4, kept its
		 * text; step 5 made it provisional. */
		if (step >= 1 && step <= 4)
			CHECK(report_keep_at(keep, 12)->json == json_p2);
		if (step == 5)
			CHECK(report_keep_at(keep, 12)->json != json_p2);
		json_p2 = report_keep_at(keep, 12)->json;
		free(fresh);
		free(prev);
		prev = kept;
	}
	CHECK(strstr(prev, "\"status\":\t\"overdue\"") != NULL);
	CHECK(strstr(prev, "cause (cpu): fails only at cpu 2: 11/14 against 0/13 at other cpu "
	                   "counts (q=0.00039)") != NULL);
	CHECK(strstr(prev, "Test0 fails after Test5: under seed 42") != NULL);
	free(prev);
	report_keep_free(keep);
	results_free(r);
	quarantine_free(q);
	quarantine_free(q_kept);
	free(fresh_dir);
	free(kept_dir);
}

/* A confirm run of cascade.json's later, alone: it passes. */
static void
keep_alone(struct results *r, int64_t run)
{
	struct outcome o;

	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup("later"), OUTCOME_PASS, NULL);
	results_add_run(r, 0, RESULTS_CONFIRM, 1, 2, &o, NULL, run);
	outcome_free(&o);
}

/* root's section lists its cascade with later's runs alone: a confirm run
 * of later changes it though root's own results did not change. */
TEST(report_keep_follows_the_runs_of_a_cascade_alone)
{
	char *path = xasprintf("%s/tests/fixtures/results/cascade.json", check_srcdir());
	char *fresh_dir = xasprintf("%s/fresh", check_tmpdir());
	char *kept_dir = xasprintf("%s/kept", check_tmpdir());
	struct report_keep *keep = report_keep_new();
	struct results *r = NULL;
	struct results_meta meta;
	struct report_meta m;
	char *err = NULL, *fresh, *kept, *prev = NULL;
	int step;

	CHECK_INT(results_load(path, &r, &meta, &err), 0);
	CHECK_INT(util_mkdir_p(fresh_dir), 0);
	CHECK_INT(util_mkdir_p(kept_dir), 0);
	memset(&m, 0, sizeof m);
	m.status = "running";
	m.now_ms = KEEP_NOW_MS;
	m.reproduce = keep_reproduce;
	for (step = 0; step < 3; step++) {
		if (step > 0)
			keep_alone(r, 1000 + step);
		m.cache = NULL;
		fresh = keep_write(fresh_dir, r, &m);
		m.cache = keep;
		kept = keep_write(kept_dir, r, &m);
		CHECK_STR(kept, fresh);
		if (prev != NULL)
			CHECK(strcmp(kept, prev) != 0);
		free(fresh);
		free(prev);
		prev = kept;
	}
	CHECK(strstr(prev, "alone it passed all 8 runs") != NULL);
	free(prev);
	report_keep_free(keep);
	results_free(r);
	results_meta_free(&meta);
	free(path);
	free(fresh_dir);
	free(kept_dir);
}
