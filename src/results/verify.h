/* SPDX-License-Identifier: MIT */
/*
 * verify.h: did the fix work, asked with as few runs as possible. From the
 * results before the fix, picks the pair where the test failed most surely
 * and the two rates of the sequential test: before's 95% Wilson lower
 * bound there (not fixed) and compare's fixed level (fixed). The runs
 * themselves go through sequential.h. It parses no command line.
 */
#ifndef FLAKESWEEP_VERIFY_H
#define FLAKESWEEP_VERIFY_H

#include <stdint.h>

#include "results/compare.h"
#include "results/results.h"

struct verify_plan {
	const struct results_test *test; /* borrowed from before */
	const char *package;             /* its package's name, borrowed */
	int cpu, load;
	struct compare_counts before; /* at the pair */
	double p0, p1;
	/* Passing runs a fixed-count design needs at the pair to call it fixed
	 * (compare's runs_needed); 0 when no count can. */
	int64_t fixed_runs;
};

/* Fills vp for the test test_id of before with compare's options co.
 * Returns 0, -ENOENT when before has no such test, or -EINVAL when it
 * never failed there (nothing to verify) or the level is not below its
 * rate; *err (caller frees) says which. */
int verify_plan(const struct results *before, const char *test_id, const struct compare_options *co,
                struct verify_plan *vp, char **err);

#endif
