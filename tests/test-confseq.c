/* SPDX-License-Identifier: MIT */
/* The dashboard's intervals: a confidence sequence holds when watched
 * after every run, where the fixed-sample Wilson interval does not. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>

#include "check.h"
#include "base/confseq.h"
#include "results/results.h"

#define CONFSEQ_TEST_RUNS 400
#define CONFSEQ_TEST_SEQS 200

/* The share of CONFSEQ_TEST_SEQS sequences of runs that fail with chance
 * p whose interval ever leaves p out, looked at after every run. */
static double
confseq_test_ever_missed(double p, void (*interval)(int64_t, int64_t, double *, double *))
{
	uint64_t x = 88172645463325252ULL;
	int seq, n, missed = 0;

	for (seq = 0; seq < CONFSEQ_TEST_SEQS; seq++) {
		int64_t k = 0;

		for (n = 1; n <= CONFSEQ_TEST_RUNS; n++) {
			double lo, hi;

			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			k += (double)(x >> 11) / 9007199254740992.0 < p;
			interval(k, n, &lo, &hi);
			if (p < lo || p > hi) {
				missed++;
				break;
			}
		}
	}
	return (double)missed / CONFSEQ_TEST_SEQS;
}

static void
confseq_test_anytime(int64_t k, int64_t n, double *lo, double *hi)
{
	confseq_rate(k, n, CONFSEQ_ALPHA, lo, hi);
}

TEST(confseq_holds_when_watched)
{
	double wilson = confseq_test_ever_missed(0.1, results_wilson);
	double anytime = confseq_test_ever_missed(0.1, confseq_test_anytime);

	printf("# watched after each of %d runs, p = 0.1: Wilson ever missed p in %.0f%% of "
	       "sequences, the confidence sequence in %.0f%%\n",
	       CONFSEQ_TEST_RUNS, wilson * 100, anytime * 100);
	CHECK(wilson > CONFSEQ_ALPHA);
	CHECK(anytime <= CONFSEQ_ALPHA);
}

TEST(confseq_ends_and_width)
{
	double lo, hi, wlo, whi;

	confseq_rate(0, 0, CONFSEQ_ALPHA, &lo, &hi);
	CHECK(lo == 0 && hi == 1);
	confseq_rate(0, 100, CONFSEQ_ALPHA, &lo, &hi);
	CHECK(lo == 0 && hi > 0 && hi < 0.1);
	confseq_rate(100, 100, CONFSEQ_ALPHA, &lo, &hi);
	CHECK(hi == 1 && lo > 0.9);
	/* It contains the rate seen and the fixed-sample interval: the price
	 * of watching is width. */
	confseq_rate(30, 200, CONFSEQ_ALPHA, &lo, &hi);
	results_wilson(30, 200, &wlo, &whi);
	CHECK(lo < 0.15 && hi > 0.15);
	CHECK(lo < wlo && hi > whi);
	CHECK(hi - lo < 2 * (whi - wlo));
}
