/* SPDX-License-Identifier: MIT */
/*
 * adaptive.h: --adaptive, where a budgeted sweep's runs go. Every pair
 * first gets its minimum (--count-min); once each has had it, the core
 * time left goes, a slice at a time, to the pair whose interval for a
 * failure rate is the widest (the anytime-valid one of base/confseq.h,
 * for the test that failed most there): a pair where a test flakes gets
 * runs until its rate is as well known as the quiet pairs'. A pair with
 * no failure stops early once its interval lies wholly below the interval
 * of a pair of its package where a test fails: the verdicts there are
 * told apart. Pure decisions: counts in, targets out; no clock, no runs.
 */
#ifndef FLAKESWEEP_ADAPTIVE_H
#define FLAKESWEEP_ADAPTIVE_H

#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

/* --count-min's default. */
#define ADAPTIVE_COUNT_MIN 30

struct adaptive_pair {
	/* In: its package (pairs of one package are told apart), its runs
	 * finished and started, the failures and hangs in the finished runs
	 * of the test that failed most there, and the core time one run
	 * holds (ms, above zero). */
	int group;
	int64_t done, started, failures;
	double cost;
	/* Out: its runs planned, never below started, and why. */
	int64_t target;
	enum results_allocation allocation;
};

/* Shares core_ms (the core time the phase has in all, the runs started
 * counted) among the n pairs: at most minimum runs each while a pair has
 * not finished its minimum, then the rest by the widest interval. Sets
 * every pair's target and allocation. */
void adaptive_allocate(struct adaptive_pair *pairs, size_t n, int64_t minimum, double core_ms);

#endif
