/* SPDX-License-Identifier: MIT */
/*
 * episode.h: failures clustered in time. A test's runs in the order they
 * started; for windows from one failure to a later one, the chance that
 * that many of its failures fall among that many runs were the failures
 * spread at random over its runs (hypergeometric), the smallest over the
 * windows times their number (Bonferroni). A foreign load that comes and
 * goes, a disk filling up, a service restarting: the cause is the
 * episode, not the pair or the test. The runs of each kind (timeline.h)
 * and pair are scanned apart: confirm runs come after the sweep's, and a
 * lane may run a pair's runs together. A window counts only as much as
 * it still clusters within each set of cores (the stratified exact test):
 * a test that fails on one core, whose runs took that core in a streak,
 * is no episode. It reads a timeline view only; no I/O.
 */
#ifndef FLAKESWEEP_EPISODE_H
#define FLAKESWEEP_EPISODE_H

#include <stdint.h>

#include "results/timeline.h"

/* An episode needs at least this many failures in its window. */
#define EPISODE_MIN_BAD 3

struct episode {
	double p;                   /* -1: not testable (too few failures, runs without times) */
	int64_t began, ended;       /* the window: the first run's start, the last one's end */
	int64_t k, w;               /* failures and runs in it, of its kind */
	int64_t k_out, n_out;       /* the runs of that kind outside it */
	double noise_in, noise_out; /* the median host noise of measured runs, -1 none */
};

void episode_find(const struct timeline_view *v, struct episode *e);

/* The pair (kind of run aside) whose runs spread over the smallest share
 * of the time the test's runs took, when that share is below a half and
 * the pair has 5 runs or more: its rate there is also that time's. False
 * when none is. */
bool episode_pair_concentrated(const struct timeline_view *v, int *cpu, int *load, double *share);

#endif
