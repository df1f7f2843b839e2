/* SPDX-License-Identifier: MIT */
/*
 * stats.c: Fisher's exact test, Benjamini-Hochberg and Wald's SPRT for
 * failure rates. It never decides what a rate means for a test; compare.c
 * and the verify and bisect commands do.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/stats.h"
#include "base/util.h"

static double
stats_lchoose(int64_t n, int64_t k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

/* log of the hypergeometric probability of x failures among n2 draws from
 * n runs holding k failures. */
static double
stats_lhyper(int64_t x, int64_t n, int64_t k, int64_t n2)
{
	return stats_lchoose(k, x) + stats_lchoose(n - k, n2 - x) - stats_lchoose(n, n2);
}

/* Sum of the probabilities of x in [from, to], in log space so that tails
 * of a million runs neither underflow early nor lose the peak. */
static double
stats_tail(int64_t from, int64_t to, int64_t n, int64_t k, int64_t n2)
{
	double top = -INFINITY, sum = 0;
	int64_t x;

	for (x = from; x <= to; x++) {
		double l = stats_lhyper(x, n, k, n2);
		if (l > top)
			top = l;
	}
	if (top == -INFINITY)
		return 0;
	for (x = from; x <= to; x++)
		sum += exp(stats_lhyper(x, n, k, n2) - top);
	sum = exp(top) * sum;
	return sum > 1 ? 1 : sum;
}

void
stats_fisher(int64_t k1, int64_t n1, int64_t k2, int64_t n2, double *less, double *greater)
{
	int64_t n = n1 + n2, k = k1 + k2, lo, hi;

	if (n1 <= 0 || n2 <= 0) {
		if (less != NULL)
			*less = 1;
		if (greater != NULL)
			*greater = 1;
		return;
	}
	lo = n2 - (n - k) > 0 ? n2 - (n - k) : 0;
	hi = k < n2 ? k : n2;
	if (less != NULL)
		*less = stats_tail(lo, k2, n, k, n2);
	if (greater != NULL)
		*greater = stats_tail(k2, hi, n, k, n2);
}

struct stats_rank {
	double p;
	size_t i;
};

static int
stats_rank_cmp(const void *a, const void *b)
{
	const struct stats_rank *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

void
stats_bh(const double *p, size_t n, double *q)
{
	struct stats_rank *r;
	double run = 1;
	size_t i;

	if (n == 0)
		return;
	r = xcalloc(n, sizeof(*r));
	for (i = 0; i < n; i++) {
		r[i].p = p[i];
		r[i].i = i;
	}
	qsort(r, n, sizeof(*r), stats_rank_cmp);
	/* q(i) = min over j >= i of p(j) * n / j, walked from the largest. */
	for (i = n; i-- > 0;) {
		double v = r[i].p * (double)n / (double)(i + 1);
		if (v < run)
			run = v;
		r[i].p = run;
	}
	for (i = 0; i < n; i++)
		q[r[i].i] = r[i].p;
	free(r);
}

int
stats_sprt_init(struct stats_sprt *s, double p0, double p1, double alpha, double beta)
{
	const double tiny = 1e-9;

	memset(s, 0, sizeof(*s));
	if (!(p1 < p0) || alpha <= 0 || alpha >= 1 || beta <= 0 || beta >= 1)
		return -EINVAL;
	s->p0 = p0 > 1 - tiny ? 1 - tiny : p0;
	s->p1 = p1 < tiny ? tiny : p1;
	if (!(s->p1 < s->p0))
		return -EINVAL;
	/* Accept p1 (fixed) above log((1 - beta) / alpha), p0 below
	 * log(beta / (1 - alpha)): Wald's boundaries. */
	s->log_a = log((1 - beta) / alpha);
	s->log_b = log(beta / (1 - alpha));
	return 0;
}

enum stats_sprt_state
stats_sprt_add(struct stats_sprt *s, int failed)
{
	s->runs++;
	if (failed) {
		s->failures++;
		s->llr += log(s->p1 / s->p0);
	} else {
		s->llr += log((1 - s->p1) / (1 - s->p0));
	}
	if (s->llr >= s->log_a)
		return STATS_SPRT_ACCEPT_P1;
	if (s->llr <= s->log_b)
		return STATS_SPRT_ACCEPT_P0;
	return STATS_SPRT_CONTINUE;
}
