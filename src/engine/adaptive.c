/* SPDX-License-Identifier: MIT */
/*
 * adaptive.c: where --adaptive puts a budgeted sweep's runs (see
 * adaptive.h). Runs beyond the minimum are handed out greedily: the pair
 * with the widest interval, its rate as seen so far carried over the runs
 * it is planned, gets a fiftieth more of its runs, until the core time is
 * spent or the best pair's slice no longer fits.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

#include "engine/adaptive.h"
#include "base/confseq.h"
#include "base/util.h"

/* A pair's next slice: this share of the runs it is planned, at least
 * one. */
#define ADAPTIVE_SLICES 50

/* The width of p's interval after n runs, its rate as seen so far. */
static double
adaptive_width(const struct adaptive_pair *p, int64_t n)
{
	double lo, hi, k = p->done > 0 ? (double)p->failures * (double)n / (double)p->done : 0;

	confseq_rate((int64_t)llround(k), n, CONFSEQ_ALPHA, &lo, &hi);
	return hi - lo;
}

/* Whether pairs[i], with no failure in its minimum, lies wholly below a
 * pair of its package where a test fails. */
static bool
adaptive_told_apart(const struct adaptive_pair *pairs, size_t n, size_t i, int64_t minimum)
{
	const struct adaptive_pair *p = &pairs[i];
	double lo, hi, qlo, qhi;
	size_t j;

	if (p->failures > 0 || p->done < minimum)
		return false;
	confseq_rate(0, p->done, CONFSEQ_ALPHA, &lo, &hi);
	for (j = 0; j < n; j++) {
		const struct adaptive_pair *q = &pairs[j];

		if (q->group != p->group || q->failures == 0)
			continue;
		confseq_rate(q->failures, q->done, CONFSEQ_ALPHA, &qlo, &qhi);
		if (hi < qlo)
			return true;
	}
	return false;
}

/* The pair still open with the widest interval (ties: the fewest runs
 * planned), or n when none is open. */
static size_t
adaptive_widest(const struct adaptive_pair *pairs, const double *width, size_t n)
{
	size_t i, best = n;

	for (i = 0; i < n; i++) {
		if (pairs[i].allocation == RESULTS_ALLOC_STOPPED)
			continue;
		if (best == n || width[i] > width[best] ||
		    (width[i] == width[best] && pairs[i].target < pairs[best].target))
			best = i;
	}
	return best;
}

void
adaptive_allocate(struct adaptive_pair *pairs, size_t n, int64_t minimum, double core_ms)
{
	double sum = 0, left = core_ms, *width;
	int64_t base, step;
	bool ready = true;
	size_t i;

	for (i = 0; i < n; i++) {
		sum += pairs[i].cost;
		ready = ready && pairs[i].done >= minimum;
	}
	if (n == 0 || sum <= 0)
		return;
	base = (int64_t)floor(core_ms / sum);
	if (base > minimum)
		base = minimum;
	for (i = 0; i < n; i++) {
		struct adaptive_pair *p = &pairs[i];

		p->target = p->started > base ? p->started : base;
		p->allocation = ready && adaptive_told_apart(pairs, n, i, minimum)
		                    ? RESULTS_ALLOC_STOPPED
		                    : RESULTS_ALLOC_MINIMUM;
		left -= (double)p->target * p->cost;
	}
	width = xcalloc(n, sizeof *width);
	for (i = 0; ready && i < n; i++)
		width[i] = adaptive_width(&pairs[i], pairs[i].target);
	while (ready && (i = adaptive_widest(pairs, width, n)) < n) {
		struct adaptive_pair *p = &pairs[i];

		step = p->target / ADAPTIVE_SLICES > 1 ? p->target / ADAPTIVE_SLICES : 1;
		if ((double)step * p->cost > left)
			step = (int64_t)floor(left / p->cost);
		if (step < 1)
			break;
		p->target += step;
		left -= (double)step * p->cost;
		width[i] = adaptive_width(p, p->target);
	}
	free(width);
	for (i = 0; i < n; i++)
		if (pairs[i].allocation != RESULTS_ALLOC_STOPPED && pairs[i].target > minimum)
			pairs[i].allocation = RESULTS_ALLOC_ADAPTIVE;
}
