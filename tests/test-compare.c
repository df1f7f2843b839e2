/* SPDX-License-Identifier: MIT */
/*
 * test-compare.c: the exact tests (stats.c) against values computed by
 * hand (exact sums, Benjamini and Hochberg's step-up rule), and every verdict of compare.c
 * on generated results, including proposal 003's 15/20 against 14/20.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "check.h"
#include "results/compare.h"
#include "drivers/outcome.h"
#include "results/results.h"
#include "results/stats.h"
#include "base/util.h"

#define CHECK_NEAR(a, b, eps) CHECK(fabs((double)(a) - (double)(b)) < (eps))

TEST(stats_fisher_matches_known_values)
{
	double less, greater;

	/* Exact hypergeometric sums (40 runs, 29 failures, 20 drawn):
	 * P(after <= 14) = 0.5, P(after >= 14) = 0.75994. */
	stats_fisher(15, 20, 14, 20, &less, &greater);
	CHECK_NEAR(less, 0.5, 1e-9);
	CHECK_NEAR(greater, 0.7599423, 1e-6);
	/* 10/10 against 0/10: hypergeometric P(X <= 0) = 1/choose(20,10). */
	stats_fisher(10, 10, 0, 10, &less, &greater);
	CHECK_NEAR(less, 1.0 / 184756.0, 1e-12);
	CHECK_NEAR(greater, 1, 1e-12);
	/* No runs on a side: nothing to test. */
	stats_fisher(3, 10, 0, 0, &less, &greater);
	CHECK(less == 1 && greater == 1);
	/* A million runs a side stays finite and exact enough. */
	stats_fisher(1000, 1000000, 900, 1000000, &less, NULL);
	CHECK(less > 0.01 && less < 0.02);
}

TEST(stats_strata_sums_hypergeometrics_by_convolution)
{
	/* Stratum A: 0/2 against 1/2, X_A in {0, 1} with 1/2 each. Stratum B:
	 * 0/1 against 2/2, X_B in {1, 2} with 2/3 and 1/3. P(X_A + X_B >= 3) =
	 * 1/2 * 1/3; with A at 0 instead, P(X_A + X_B >= 2) = 1/6 + 1/3 + 1/6. */
	struct stats_table t[] = {{0, 2, 1, 2}, {0, 1, 2, 2}};
	double greater;

	CHECK_NEAR(stats_strata_greater(t, 2), 1.0 / 6, 1e-12);
	t[0].k2 = 0;
	t[0].k1 = 1;
	CHECK_NEAR(stats_strata_greater(t, 2), 2.0 / 3, 1e-12);
	/* One stratum is Fisher's test. */
	stats_fisher(15, 20, 14, 20, NULL, &greater);
	t[0] = (struct stats_table){15, 20, 14, 20};
	CHECK_NEAR(stats_strata_greater(t, 1), greater, 1e-12);
	/* An empty side holds its stratum fixed; no stratum says nothing. */
	t[1] = (struct stats_table){0, 0, 5, 9};
	CHECK_NEAR(stats_strata_greater(t, 2), greater, 1e-12);
	CHECK(stats_strata_greater(t, 0) == 1);
}

TEST(stats_strata_clear_a_test_that_fails_every_run_at_one_pair)
{
	/* The demo's TestNeedsTwoCPUs: every cpu-1 run fails, and runs overlap
	 * more at cpu 1, so pooled over the pairs 31/49 overlapped runs failed
	 * against 9/30 alone (p < 0.01); within each pair the failures fall
	 * without regard to overlap. */
	struct stats_table t[] = {{6, 6, 20, 20}, {3, 3, 11, 11}, {0, 12, 0, 9}, {0, 9, 0, 9}};
	double greater;

	stats_fisher(9, 30, 31, 49, NULL, &greater);
	CHECK(greater < 0.01);
	CHECK(stats_strata_greater(t, 4) == 1);
}

TEST(stats_bh_matches_p_adjust)
{
	/* Sorted 0.005 0.01 0.03 0.04: times 4/1, 4/2, 4/3, 4/4, then the
	 * running minimum from the top: 0.02 0.02 0.04 0.04. */
	double p[] = {0.01, 0.04, 0.03, 0.005};
	double q[4];

	stats_bh(p, 4, q);
	CHECK_NEAR(q[0], 0.02, 1e-12);
	CHECK_NEAR(q[1], 0.04, 1e-12);
	CHECK_NEAR(q[2], 0.04, 1e-12);
	CHECK_NEAR(q[3], 0.02, 1e-12);
}

TEST(stats_sprt_stops_at_wald_boundaries)
{
	struct stats_sprt s;
	enum stats_sprt_state st = STATS_SPRT_CONTINUE;
	int n = 0;

	CHECK_INT(stats_sprt_init(&s, 0.1, 0.2, 0.05, 0.05), -EINVAL);
	CHECK_INT(stats_sprt_init(&s, 0.3, 0.01, 0.05, 0.05), 0);
	/* Every run passes: log((1-0.01)/(1-0.3)) = 0.3466 per run, and the
	 * fixed boundary is log(0.95/0.05) = 2.944: the 9th run crosses it. */
	while (st == STATS_SPRT_CONTINUE && n < 100) {
		st = stats_sprt_add(&s, 0);
		n++;
	}
	CHECK_INT(st, STATS_SPRT_ACCEPT_P1);
	CHECK_INT(n, 9);
	/* One failure is log(0.01/0.3) = -3.40, past log(0.05/0.95) = -2.94. */
	CHECK_INT(stats_sprt_init(&s, 0.3, 0.01, 0.05, 0.05), 0);
	CHECK_INT(stats_sprt_add(&s, 1), STATS_SPRT_ACCEPT_P0);
}

/* Adds runs of test name (package p of r) at a pair: fails of them fail. */
static void
add_runs(struct results *r, int pkg, const char *name, int cpu, int load, int runs, int fails)
{
	int i;

	for (i = 0; i < runs; i++) {
		struct outcome o = {0};

		outcome_add(&o, xstrdup(name), i < fails ? OUTCOME_FAIL : OUTCOME_PASS,
		            i < fails ? xstrdup("x_test.go:1: boom") : NULL);
		results_add_run(r, pkg, RESULTS_SWEEP, cpu, load, &o, NULL, (int64_t)i);
		outcome_free(&o);
	}
}

static const struct compare_test *
one(struct compare **cp, int b_runs, int b_fails, int a_runs, int a_fails)
{
	struct results *before = results_new(), *after = results_new();
	struct compare_options o;

	compare_options_default(&o);
	add_runs(before, results_add_pkg(before, "m/p", "unit"), "TestX", 1, 1, b_runs, b_fails);
	add_runs(after, results_add_pkg(after, "m/p", "unit"), "TestX", 1, 1, a_runs, a_fails);
	*cp = compare_new(before, after, &o);
	results_free(before);
	results_free(after);
	return compare_find(*cp, "m/p::TestX");
}

TEST(compare_proposal_003_is_inconclusive)
{
	struct compare *c;
	const struct compare_test *t = one(&c, 20, 15, 20, 14);

	CHECK(t != NULL);
	CHECK_STR(compare_verdict_name(t->verdict), "inconclusive");
	/* 0 failures in n runs must beat a tenth of 15/20's lower bound
	 * (0.05313) with Wilson's upper bound: n = 69 (0.05274). */
	CHECK_INT(t->runs_needed, 69);
	compare_free(c);
}

TEST(compare_every_verdict)
{
	struct compare *c;
	const struct compare_test *t;

	t = one(&c, 200, 60, 500, 0);
	CHECK_STR(compare_verdict_name(t->verdict), "fixed");
	compare_free(c);
	t = one(&c, 200, 60, 500, 25);
	CHECK_STR(compare_verdict_name(t->verdict), "rarer");
	compare_free(c);
	t = one(&c, 2000, 600, 2000, 610);
	CHECK_STR(compare_verdict_name(t->verdict), "unchanged");
	compare_free(c);
	t = one(&c, 200, 10, 200, 60);
	CHECK_STR(compare_verdict_name(t->verdict), "worse");
	compare_free(c);
	t = one(&c, 200, 0, 200, 3);
	CHECK_STR(compare_verdict_name(t->verdict), "new");
	compare_free(c);
	t = one(&c, 200, 0, 200, 0);
	CHECK_STR(compare_verdict_name(t->verdict), "unchanged");
	compare_free(c);
	/* Too few runs after to show anything. */
	t = one(&c, 200, 60, 5, 0);
	CHECK_STR(compare_verdict_name(t->verdict), "inconclusive");
	CHECK(t->runs_needed > 5);
	compare_free(c);
}

TEST(compare_worst_pair_decides_and_worse_overrides)
{
	struct results *before = results_new(), *after = results_new();
	struct compare_options o;
	struct compare *c;
	const struct compare_test *t;
	int pb = results_add_pkg(before, "m/p", "unit"), pa = results_add_pkg(after, "m/p", "unit");

	compare_options_default(&o);
	/* Fails mostly at cpu 1: fixed there, untouched at cpu 2 (rare). */
	add_runs(before, pb, "TestX", 1, 1, 300, 90);
	add_runs(before, pb, "TestX", 2, 1, 300, 1);
	add_runs(after, pa, "TestX", 1, 1, 300, 0);
	add_runs(after, pa, "TestX", 2, 1, 300, 1);
	/* TestY got worse at cpu 2 only. */
	add_runs(before, pb, "TestY", 1, 1, 300, 30);
	add_runs(before, pb, "TestY", 2, 1, 300, 0);
	add_runs(after, pa, "TestY", 1, 1, 300, 30);
	add_runs(after, pa, "TestY", 2, 1, 300, 40);
	c = compare_new(before, after, &o);
	t = compare_find(c, "m/p::TestX");
	CHECK_STR(compare_verdict_name(t->verdict), "fixed");
	CHECK_INT(t->pairs[t->decisive].cpu, 1);
	CHECK_INT(t->npairs, 2);
	t = compare_find(c, "m/p::TestY");
	CHECK_STR(compare_verdict_name(t->verdict), "worse");
	CHECK_INT(t->pairs[t->decisive].cpu, 2);
	compare_free(c);
	results_free(before);
	results_free(after);
}

/* The verdict's name of the test id in c. */
static const char *
verdict(const struct compare *c, const char *id)
{
	return compare_verdict_name(compare_find(c, id)->verdict);
}

TEST(compare_test_after_did_not_run_is_not_run)
{
	struct results *before = results_new(), *after = results_new(), *none = results_new();
	struct compare_options o;
	struct compare *c;
	const struct compare_test *t;
	char *text;

	compare_options_default(&o);
	add_runs(before, results_add_pkg(before, "m/p", "unit"), "TestFlaky", 1, 1, 200, 60);
	add_runs(before, 0, "TestPass", 1, 1, 200, 0);
	/* After ran a test of the same name in another package only. */
	add_runs(after, results_add_pkg(after, "m/q", "unit"), "TestPass", 1, 1, 200, 0);
	c = compare_new(before, after, &o);
	CHECK_STR(verdict(c, "m/p::TestPass"), "not run");
	CHECK_STR(verdict(c, "m/p::TestFlaky"), "not run");
	t = compare_find(c, "m/p::TestFlaky");
	CHECK_INT(t->pairs[t->decisive].before.failures, 60);
	/* Before never ran it, and it passed after: nothing was compared. */
	CHECK_STR(verdict(c, "m/q::TestPass"), "not run");
	/* After ran none of before's tests: that fails, whatever is asked. */
	CHECK_INT(compare_exit_status(c, NULL, 0), 2);
	text = compare_to_text(c, NULL, 0);
	CHECK(strstr(text, "not run      m/p::TestFlaky at cpu 1 load 1: before 60/200 (30.0%), "
	                   "after not run\n") != NULL);
	CHECK(strstr(text, "\nnot run      m/p::TestPass\n") != NULL);
	CHECK(strstr(text, "3 tests: 0 fixed, 0 rarer, 0 unchanged, 0 worse, 0 new, "
	                   "0 inconclusive, 3 not run\n") != NULL);
	free(text);
	compare_free(c);
	/* An after with no tests at all. */
	c = compare_new(before, none, &o);
	CHECK_INT(compare_exit_status(c, NULL, 0), 2);
	CHECK_STR(verdict(c, "m/p::TestPass"), "not run");
	compare_free(c);
	/* After ran one of them: the other is not run, and nothing failed. */
	add_runs(after, results_add_pkg(after, "m/p", "unit"), "TestPass", 1, 1, 200, 0);
	c = compare_new(before, after, &o);
	CHECK_STR(verdict(c, "m/p::TestPass"), "unchanged");
	CHECK_STR(verdict(c, "m/p::TestFlaky"), "not run");
	CHECK_INT(compare_exit_status(c, NULL, 0), 0);
	compare_free(c);
	results_free(before);
	results_free(after);
	results_free(none);
}

TEST(compare_json_names_every_verdict)
{
	struct compare *c;
	cJSON *j;
	char *s;

	one(&c, 20, 15, 20, 14);
	j = compare_to_json(c, "a/results.json", "b/results.json");
	s = cJSON_PrintUnformatted(j);
	CHECK(strstr(s, "\"schema\":\"flakesweep/compare/v1\"") != NULL);
	CHECK(strstr(s, "\"verdict\":\"inconclusive\",\"pair\":{\"cpu\":1,\"load\":1},"
	                "\"runs_needed\":69") != NULL);
	CHECK(strstr(s, "\"summary\":{\"fixed\":0,\"rarer\":0,\"unchanged\":0,\"worse\":0,"
	                "\"new\":0,\"inconclusive\":1,\"not run\":0,\"masked\":0,"
	                "\"skipped\":0}") != NULL);
	free(s);
	cJSON_Delete(j);
	compare_free(c);
}
