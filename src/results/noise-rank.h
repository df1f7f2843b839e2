/* SPDX-License-Identifier: MIT */
/*
 * noise-rank.h: host noise as a continuous measure. Within each stratum of
 * a test's runs (kind, cpu, load, as overlap.h), the noise of its failing
 * runs is ranked against that of its passing runs (Mann-Whitney), and the
 * strata's rank sums are added (the stratified Wilcoxon test): a test whose
 * failures come with more noise than its passes, at any level of noise,
 * shows it even when no run passes the 20% threshold. And the threshold
 * split itself, noisy runs against quiet ones, on the runs long enough to
 * be measured. It reads a timeline view only; no I/O.
 */
#ifndef FLAKESWEEP_NOISE_RANK_H
#define FLAKESWEEP_NOISE_RANK_H

#include "results/stats.h"
#include "results/timeline.h"

/* Runs shorter than this (ms) are left out of the ranks: their share is
 * coarse. */
#define NOISE_RANK_MIN_MS 200
/* The noise (ms) a run's share can show from the lag alone: the sweep's
 * time on a core lags by up to a clock tick (10 ms at the coarsest) at
 * each end of the interval. The ranks count less than this as none, or a
 * neighbour run starting or ending beside a test's failing runs (another
 * package it interferes with) would pass for host noise. */
#define NOISE_LAG_MS 20
/* The steps the exact rank test may take for one test (about 10 ms):
 * above it, the strata have many runs on both sides and the normal
 * approximation is used. */
#define NOISE_RANK_EXACT_BUDGET 2e7
/* Runs shorter than this (ms) are left out of the threshold split: the
 * sweep's time on a core lags by up to a clock tick (10 ms at the
 * coarsest) at each end of a run's interval, which is the whole fifth
 * that makes a shorter run noisy. */
#define NOISE_SPLIT_MIN_MS 100

struct noise_rank {
	/* The one-sided p-value that failing runs' noise is no higher than
	 * passing runs': the exact chance of a summed rank statistic as high
	 * (ties at mid-rank), or where that costs too much, its normal
	 * approximation with ties corrected; -1 when no stratum has measured
	 * runs of both kinds; 1 when the failing runs' median noise is not
	 * above the passing runs'. */
	double p;
	double bad_median, good_median; /* over the measured runs compared */
	int64_t nbad, ngood;
};

void noise_rank(const struct timeline_view *v, struct noise_rank *nr);

/* The threshold split of v's measured runs: noisy ones (share above
 * NOISE_NOISY) on side 2 of *sum, quiet ones on side 1, within each
 * stratum of kind and pair, runs whose ms is under
 * NOISE_SPLIT_MIN_MS left out (a stray tick is most of their share, so a
 * test that fails faster than it passes would pass for noisy). Returns the
 * exact stratified p-value that noisy runs fail more (stats.h), or -1 when
 * either side is empty. */
double noise_split(const struct timeline_view *v, struct stats_table *sum);

/* The median of v[0 .. n) (sorted in place); 0 when n is 0. */
double noise_rank_median(double *v, size_t n);

#endif
