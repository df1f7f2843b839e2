/* SPDX-License-Identifier: MIT */
/*
 * verify.h: did the fix work, asked with as few runs as possible. From the
 * results before the fix, lists every pair where the test failed, worst
 * first, each with the two rates of its sequential test: before's 95%
 * Wilson lower bound there (not fixed) and compare's fixed level (fixed),
 * and splits the error rates across the pairs. The runs themselves go
 * through sequential.h. It parses no command line.
 */
#ifndef FLAKESWEEP_VERIFY_H
#define FLAKESWEEP_VERIFY_H

#include <stddef.h>
#include <stdint.h>

#include "results/compare.h"
#include "results/results.h"

struct verify_pair {
	int cpu, load;
	struct compare_counts before;
	double p0, p1;
	/* Passing runs a fixed-count design needs at the pair to call it fixed
	 * (compare's runs_needed); 0 when no count can. */
	int64_t fixed_runs;
};

struct verify_plan {
	const struct results_test *test; /* borrowed from before */
	const char *package;             /* its package's name, borrowed */
	/* Every pair where it failed or hung before, worst first: the highest
	 * Wilson lower bound of its rate, then the higher rate, then cpu and
	 * load ascending. */
	struct verify_pair *pairs;
	size_t npairs;
	/* The error rates of each pair's sequential test. The fix is called
	 * fixed only when every pair says fixed, so saying fixed wrongly needs
	 * the one pair where it is not fixed to say fixed: alpha is not split.
	 * Not fixed is said when any pair says so, so beta is split evenly
	 * across the pairs (Bonferroni): the chance that some pair says not
	 * fixed of a fix that works is at most VERIFY_BETA. */
	double alpha, beta;
};

/* The error rates of a whole verify. */
#define VERIFY_ALPHA 0.05
#define VERIFY_BETA 0.05

/* Fills vp (free with verify_plan_free) for the test test_id of before
 * with compare's options co. Returns 0, -ENOENT when before has no such
 * test, or -EINVAL when it never failed there (nothing to verify) or the
 * level is not below its rate at a pair; *err (caller frees) says which. */
int verify_plan(const struct results *before, const char *test_id, const struct compare_options *co,
                struct verify_plan *vp, char **err);

void verify_plan_free(struct verify_plan *vp);

#endif
