/* SPDX-License-Identifier: MIT */
/* --adaptive's policy: the minimum first, then the widest intervals; a
 * quiet pair told apart from its package's flaky one stops early. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "engine/adaptive.h"

/* Pairs of one package, each done (and started) runs, costing 1. */
static void
adaptive_test_pairs(struct adaptive_pair *p, size_t n, int64_t done, const int64_t *failures)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (struct adaptive_pair){
		    .done = done, .started = done, .failures = failures[i], .cost = 1};
}

static double
adaptive_test_spent(const struct adaptive_pair *p, size_t n)
{
	double spent = 0;
	size_t i;

	for (i = 0; i < n; i++)
		spent += (double)p[i].target * p[i].cost;
	return spent;
}

TEST(adaptive_minimum_first)
{
	static const int64_t failures[3] = {0, 5, 0};
	struct adaptive_pair p[3];
	int i;

	/* Not every pair has its minimum: each is planned the minimum, no
	 * more, however much time is left. */
	adaptive_test_pairs(p, 3, 10, failures);
	adaptive_allocate(p, 3, 30, 3000);
	for (i = 0; i < 3; i++) {
		CHECK_INT(p[i].target, 30);
		CHECK_INT(p[i].allocation, RESULTS_ALLOC_MINIMUM);
	}
	/* Too little time for the minimum: what fits, evenly, never below the
	 * runs started. */
	p[1].started = 20;
	adaptive_allocate(p, 3, 30, 45);
	CHECK_INT(p[0].target, 15);
	CHECK_INT(p[1].target, 20);
}

TEST(adaptive_flaky_pair_gets_the_rest)
{
	static const int64_t failures[3] = {0, 9, 0};
	struct adaptive_pair p[3];

	adaptive_test_pairs(p, 3, 30, failures);
	adaptive_allocate(p, 3, 30, 900);
	printf("# 900 runs: %lld %lld %lld\n", (long long)p[0].target, (long long)p[1].target,
	       (long long)p[2].target);
	CHECK(p[1].target > 2 * p[0].target);
	CHECK(p[1].target > 2 * p[2].target);
	CHECK_INT(p[1].allocation, RESULTS_ALLOC_ADAPTIVE);
	CHECK(adaptive_test_spent(p, 3) <= 900);
	CHECK(adaptive_test_spent(p, 3) > 900 - 20);
}

TEST(adaptive_quiet_pair_stops_early)
{
	static const int64_t failures[3] = {0, 60, 0};
	struct adaptive_pair p[3];

	/* 0 in 100 lies below 60 in 100 of the same package: stopped; a
	 * quiet pair of another package is not. */
	adaptive_test_pairs(p, 3, 100, failures);
	p[2].group = 1;
	adaptive_allocate(p, 3, 30, 3000);
	CHECK_INT(p[0].allocation, RESULTS_ALLOC_STOPPED);
	CHECK_INT(p[0].target, 100);
	CHECK_INT(p[1].allocation, RESULTS_ALLOC_ADAPTIVE);
	CHECK_INT(p[2].allocation, RESULTS_ALLOC_ADAPTIVE);
	CHECK(p[1].target > p[2].target);
}

TEST(adaptive_quiet_sweep_is_even)
{
	static const int64_t failures[4] = {0, 0, 0, 0};
	struct adaptive_pair p[4];
	int i;

	/* Nothing failed: every interval is as wide, so the runs are spread
	 * evenly (within a slice), costs counted. */
	adaptive_test_pairs(p, 4, 30, failures);
	p[3].cost = 2;
	adaptive_allocate(p, 4, 30, 1000);
	for (i = 1; i < 4; i++)
		CHECK(p[i].target >= p[0].target - 4 && p[i].target <= p[0].target + 4);
	CHECK(adaptive_test_spent(p, 4) <= 1000);
}
