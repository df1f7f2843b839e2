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

double
stats_strata_greater(const struct stats_table *t, size_t n)
{
	double *dist = xcalloc(1, sizeof *dist), *next, p = 0;
	int64_t lo = 0, width = 1, observed = 0, x, y;
	size_t i;

	/* dist[x] is the probability that the sum so far is lo + x. */
	dist[0] = 1;
	for (i = 0; i < n; i++) {
		int64_t nn = t[i].n1 + t[i].n2, k = t[i].k1 + t[i].k2, a, b;

		observed += t[i].k2;
		if (t[i].n1 <= 0 || t[i].n2 <= 0) {
			lo += t[i].k2;
			continue;
		}
		a = t[i].n2 - (nn - k) > 0 ? t[i].n2 - (nn - k) : 0;
		b = k < t[i].n2 ? k : t[i].n2;
		next = xcalloc((size_t)(width + b - a), sizeof *next);
		for (y = a; y <= b; y++) {
			double py = exp(stats_lhyper(y, nn, k, t[i].n2));

			for (x = 0; x < width; x++)
				next[x + y - a] += dist[x] * py;
		}
		free(dist);
		dist = next;
		lo += a;
		width += b - a;
	}
	for (x = observed - lo < 0 ? 0 : observed - lo; x < width; x++)
		p += dist[x];
	free(dist);
	return p > 1 ? 1 : p;
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
