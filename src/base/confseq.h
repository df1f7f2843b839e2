/* SPDX-License-Identifier: MIT */
/*
 * confseq.h: a confidence sequence for a rate: an interval for the chance
 * p of an event, seen k times in n tries, that holds at every n at once.
 * A fixed-sample interval (Wilson, Clopper-Pearson) covers p with 95% at
 * one n chosen in advance; watched after every try and acted on when it
 * looks clear, it misses far more often. This one may be watched all the
 * time: the chance that it ever misses p, at any n, is at most alpha.
 *
 * The method is Robbins' beta-binomial mixture: under p, the likelihood
 * ratio of a Beta(1/2, 1/2) mixture of rates against p,
 *   M_n(p) = B(1/2 + k, 1/2 + n - k) / B(1/2, 1/2) / (p^k (1 - p)^(n - k)),
 * is a nonnegative martingale starting at 1, so by Ville's inequality it
 * ever reaches 1/alpha with probability at most alpha. The interval is
 * every p with M_n(p) < 1/alpha, found by bisection on each side of k/n.
 */
#ifndef FLAKESWEEP_CONFSEQ_H
#define FLAKESWEEP_CONFSEQ_H

#include <stdint.h>

/* The level of the dashboard's intervals: 95%. */
#define CONFSEQ_ALPHA 0.05

/* The confidence sequence's interval after k events in n tries, in
 * [0, 1]: with n == 0, 0 and 1. */
void confseq_rate(int64_t k, int64_t n, double alpha, double *lo, double *hi);

#endif
