/* SPDX-License-Identifier: MIT */
/* test-classify.c: the class of a flaky test from its causes. */
#include "config.h"

#include "check.h"
#include "results/causes.h"
#include "results/classify.h"
#include "results/interference.h"
#include "results/results.h"
#include "base/util.h"

/* One run of TestRace at (phase, cpu, load 1), failed or passed, with
 * company (another run of its package overlapped it) or without. */
static void
classify_run(struct results *r, int pkg, enum results_phase phase, int cpu, bool failed,
             bool company, int64_t id)
{
	struct outcome o;

	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup("TestRace"), failed ? OUTCOME_FAIL : OUTCOME_PASS,
	            failed ? xstrdup("race_test.go:9: lost an update\n") : NULL);
	results_add_run(r, pkg, phase, cpu, 1, &o, NULL, id);
	interference_add_run(r, pkg, phase, cpu, 1, &o, company);
	outcome_free(&o);
}

/* A sweep in which TestRace passes 40 runs at cpu 1 and fails one run in
 * three of 40 at cpu 4: the cpu cause. company: every run at cpu 4 had
 * company; alone_fails: then alone runs at cpu 4, this many failed of 6. */
static enum classify_class
classify_sweep(bool company, int alone_fails, char *channel)
{
	struct results *r = results_new();
	int pkg = results_add_pkg(r, "example.com/m", "unit"), i;
	struct causes *c;
	enum classify_class k;
	int cpu, load;

	for (i = 0; i < 40; i++)
		classify_run(r, pkg, RESULTS_SWEEP, 1, false, false, i + 1);
	for (i = 0; i < 40; i++)
		classify_run(r, pkg, RESULTS_SWEEP, 4, i % 3 == 0, company, 100 + i);
	for (i = 0; i < 6 && alone_fails > 0; i++)
		classify_run(r, pkg, RESULTS_ALONE, 4, i < alone_fails, false, 200 + i);
	c = causes_new(r);
	CHECK(causes_named(c, 0, &cpu, &load) & CAUSES_NAMED_CPU);
	CHECK_INT(cpu, 4);
	k = classify_test(r, c, 0, channel);
	causes_free(c);
	results_free(r);
	return k;
}

/* A race fails at its cpu count also without company; one that fails
 * there only with company is not a race, until its alone runs fail too. */
TEST(classify_race_fails_also_without_company)
{
	char channel[CLASSIFY_CHANNEL_MAX];

	CHECK_STR(classify_name(classify_sweep(false, 0, channel)), "race");
	CHECK_STR(channel, "cpu=4");
	CHECK_STR(classify_name(classify_sweep(true, 0, channel)), "unexplained");
	CHECK_STR(channel, "");
	CHECK_STR(classify_name(classify_sweep(true, 2, channel)), "race");
	CHECK_STR(channel, "cpu=4");
}
