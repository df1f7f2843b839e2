/* SPDX-License-Identifier: MIT */
/*
 * noise-rank.h: host noise as a continuous measure. Within each stratum of
 * a test's runs (kind, cpu, load, as overlap.h), the noise of its failing
 * runs is ranked against that of its passing runs (Mann-Whitney), and the
 * strata's rank sums are added (the stratified Wilcoxon test): a test whose
 * failures come with more noise than its passes, at any level of noise,
 * shows it even when no run passes the 20% threshold. It reads a timeline
 * view only; no I/O.
 */
#ifndef FLAKESWEEP_NOISE_RANK_H
#define FLAKESWEEP_NOISE_RANK_H

#include "results/timeline.h"

/* Runs shorter than this (ms) are left out: their share is coarse. */
#define NOISE_RANK_MIN_MS 200

struct noise_rank {
	/* The one-sided p-value that failing runs' noise is no higher than
	 * passing runs', by the normal approximation of the summed rank
	 * statistic with ties corrected; -1 when no stratum has measured
	 * runs of both kinds; 1 when the failing runs' median noise is not
	 * above the passing runs'. */
	double p;
	double bad_median, good_median; /* over the measured runs compared */
	int64_t nbad, ngood;
};

void noise_rank(const struct timeline_view *v, struct noise_rank *nr);

/* The median of v[0 .. n) (sorted in place); 0 when n is 0. */
double noise_rank_median(double *v, size_t n);

#endif
