/* SPDX-License-Identifier: MIT */
/*
 * noise-rank.c: the stratified rank test of a test's failing runs' host
 * noise against its passing runs'. Each stratum's Mann-Whitney U counts the
 * (failing, passing) pairs where the failing run saw more noise (ties one
 * half); under no effect its mean is nb*ng/2 and its variance
 * nb*ng/12*((N+1) - sum(t^3 - t)/(N(N-1))) with ties of size t. The sum
 * over strata is compared with its exact distribution under no effect
 * where that is cheap to count (few runs on one side of a stratum, where
 * the normal is far off: one failing run among 24 tied at no noise gets
 * 1/24 from it, not 2e-5), else continuity-corrected with the normal. It
 * never reads or writes files.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/noise-rank.h"
#include "results/noise-share.h"
#include "base/util.h"

struct noise_rank_x {
	double noise;
	bool bad;
	int stratum;
};

static int
noise_rank_cmp(const void *a, const void *b)
{
	const struct noise_rank_x *x = a, *y = b;

	if (x->stratum != y->stratum)
		return x->stratum - y->stratum;
	return (x->noise > y->noise) - (x->noise < y->noise);
}

static int
noise_rank_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double
noise_rank_median(double *v, size_t n)
{
	if (n == 0)
		return 0;
	qsort(v, n, sizeof *v, noise_rank_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The exact distribution of the failing runs' rank sum of the stratum
 * x[0 .. n) (sorted by noise), counted in half ranks (twice the mid-rank,
 * a whole number): as dist[lo .. lo + *len), each the chance of that sum
 * when the failing runs are any nb of the n, all alike. NULL when the
 * count (n runs x the smaller side x the sums) is above *budget, which it
 * spends. The sum of the smaller side's scores is counted subset by
 * subset size (the subset-sum recurrence); the failing side's is the
 * total's rest when the passing side is smaller. */
static double *
noise_rank_exact_stratum(const struct noise_rank_x *x, size_t n, int64_t *lo, int64_t *len,
                         double *budget)
{
	int64_t *score = xmalloc(sizeof *score * (n + 1)), nb = 0, m, top = 0, t, total = 0;
	double *f, *dist = NULL, all = 0;
	size_t i, j;
	bool bad_side;

	for (i = 0; i < n; i = j) {
		for (j = i; j < n && x[j].noise == x[i].noise; j++)
			;
		for (size_t k = i; k < j; k++)
			score[k] = (int64_t)(i + 1 + j);
	}
	for (i = 0; i < n; i++) {
		nb += x[i].bad;
		total += score[i];
	}
	bad_side = 2 * nb <= (int64_t)n;
	m = bad_side ? nb : (int64_t)n - nb;
	/* The most the smaller side can sum to: its m highest scores. */
	for (i = n; i > n - (size_t)m; i--)
		top += score[i - 1];
	*budget -= (double)n * (double)m * (double)(top + 1);
	if (*budget < 0) {
		free(score);
		return NULL;
	}
	/* f[k * (top + 1) + t]: the k-subsets of the runs so far that sum to t. */
	f = xcalloc((size_t)((m + 1) * (top + 1)), sizeof *f);
	f[0] = 1;
	for (i = 0; i < n; i++)
		for (int64_t k = (int64_t)i + 1 < m ? (int64_t)i + 1 : m; k >= 1; k--)
			for (t = top; t >= score[i]; t--)
				f[k * (top + 1) + t] += f[(k - 1) * (top + 1) + t - score[i]];
	for (t = 0; t <= top; t++)
		all += f[m * (top + 1) + t];
	*lo = bad_side ? 0 : total - top;
	*len = top + 1;
	dist = xcalloc((size_t)*len, sizeof *dist);
	for (t = 0; t <= top; t++)
		dist[bad_side ? t : top - t] = f[m * (top + 1) + t] / all;
	free(f);
	free(score);
	return dist;
}

/* The exact one-sided p-value that the failing runs' rank sums, added over
 * the strata of x[0 .. n) (sorted by stratum, then noise), are at least
 * the observed: the strata's exact distributions convolved. -1 when that
 * would cost more than the budget (many runs on both sides, where the
 * normal approximation is close). */
static double
noise_rank_exact(const struct noise_rank_x *x, size_t n, double observed)
{
	double *dist = xcalloc(1, sizeof *dist), *sd, *next, budget = NOISE_RANK_EXACT_BUDGET,
	       p = 0;
	int64_t lo = 0, len = 1, slo, slen, a, b, want = (int64_t)llround(2 * observed);
	size_t i, j;

	dist[0] = 1;
	for (i = 0; i < n; i = j) {
		int64_t nb = 0;

		for (j = i; j < n && x[j].stratum == x[i].stratum; j++)
			nb += x[j].bad;
		if (nb == 0 || nb == (int64_t)(j - i))
			continue;
		sd = noise_rank_exact_stratum(x + i, j - i, &slo, &slen, &budget);
		budget -= (double)len * (double)slen;
		if (sd == NULL || budget < 0) {
			free(sd);
			free(dist);
			return -1;
		}
		next = xcalloc((size_t)(len + slen - 1), sizeof *next);
		for (a = 0; a < len; a++)
			for (b = 0; dist[a] > 0 && b < slen; b++)
				next[a + b] += dist[a] * sd[b];
		free(sd);
		free(dist);
		dist = next;
		lo += slo;
		len += slen - 1;
	}
	for (a = want - lo < 0 ? 0 : want - lo; a < len; a++)
		p += dist[a];
	free(dist);
	return p > 1 ? 1 : p;
}

/* Adds to *u, *mean and *var the stratum x[0 .. n), sorted by noise. */
static void
noise_rank_stratum(const struct noise_rank_x *x, size_t n, double *u, double *mean, double *var,
                   double *rank_sums)
{
	double rank_sum = 0, ties = 0, nb = 0, ng;
	size_t i, j;

	for (i = 0; i < n; i = j) {
		double mid;

		for (j = i; j < n && x[j].noise == x[i].noise; j++)
			;
		/* Ranks i+1 .. j share their mean. */
		mid = ((double)i + 1 + (double)j) / 2;
		ties += pow((double)(j - i), 3) - (double)(j - i);
		for (size_t k = i; k < j; k++)
			if (x[k].bad)
				rank_sum += mid;
	}
	for (i = 0; i < n; i++)
		nb += x[i].bad;
	ng = (double)n - nb;
	if (nb == 0 || ng == 0)
		return;
	*rank_sums += rank_sum;
	*u += rank_sum - nb * (nb + 1) / 2;
	*mean += nb * ng / 2;
	*var += nb * ng / 12 * (((double)n + 1) - ties / ((double)n * ((double)n - 1)));
}

void
noise_rank(const struct timeline_view *v, struct noise_rank *nr)
{
	struct noise_rank_x *x = xmalloc(sizeof *x * (v->n + 1));
	double *bad = xmalloc(sizeof *bad * (v->n + 1)), *good = xmalloc(sizeof *good * (v->n + 1));
	double u = 0, mean = 0, var = 0, rank_sums = 0;
	size_t i, j, n = 0;

	memset(nr, 0, sizeof *nr);
	nr->p = -1;
	for (i = 0; i < v->n; i++) {
		const struct timeline_obs *o = &v->obs[i];

		/* A run shorter than NOISE_RANK_MIN_MS has a share that the
		 * kernel's 10 ms tick makes coarse: 0, or most of the run. */
		if (o->noise < 0 || o->ms < NOISE_RANK_MIN_MS)
			continue;
		x[n].noise = o->noise * (double)o->ms < NOISE_LAG_MS ? 0 : o->noise;
		x[n].bad = o->bad;
		/* The stratum: the first measured run of the same kind and pair. */
		for (j = 0; j < i; j++)
			if (v->obs[j].noise >= 0 && v->obs[j].one == o->one &&
			    v->obs[j].cpu == o->cpu && v->obs[j].load == o->load)
				break;
		x[n++].stratum = (int)j;
	}
	qsort(x, n, sizeof *x, noise_rank_cmp);
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && x[j].stratum == x[i].stratum; j++)
			;
		noise_rank_stratum(x + i, j - i, &u, &mean, &var, &rank_sums);
	}
	for (i = 0; var > 0 && i < n; i++) {
		if (x[i].bad)
			bad[nr->nbad++] = x[i].noise;
		else
			good[nr->ngood++] = x[i].noise;
	}
	if (var > 0) {
		nr->p = noise_rank_exact(x, n, rank_sums);
		if (nr->p < 0)
			nr->p = 0.5 * erfc((u - mean - 0.5) / sqrt(var) / sqrt(2));
		nr->bad_median = noise_rank_median(bad, (size_t)nr->nbad);
		nr->good_median = noise_rank_median(good, (size_t)nr->ngood);
		/* Strata that disagree with the whole (failing runs noisier at
		 * each pair, quieter over all) name nothing a reader can
		 * check. */
		if (nr->bad_median <= nr->good_median)
			nr->p = 1;
	}
	free(x);
	free(bad);
	free(good);
}

/* Whether run o is measured over long enough for the threshold split. */
static bool
noise_measured(const struct timeline_obs *o)
{
	return o->noise >= 0 && o->ms >= NOISE_SPLIT_MIN_MS;
}

double
noise_split(const struct timeline_view *v, struct stats_table *sum)
{
	struct stats_table *x = xcalloc(v->n + 1, sizeof *x);
	size_t i, j, n = 0;
	double p = -1;

	memset(sum, 0, sizeof *sum);
	for (i = 0; i < v->n; i++) {
		const struct timeline_obs *o = &v->obs[i];
		struct stats_table *t;

		if (!noise_measured(o))
			continue;
		/* The stratum: the first measured run of the same kind and pair. */
		for (j = 0; j < i; j++)
			if (noise_measured(&v->obs[j]) && v->obs[j].one == o->one &&
			    v->obs[j].cpu == o->cpu && v->obs[j].load == o->load)
				break;
		t = &x[j];
		n = j + 1 > n ? j + 1 : n;
		if (o->noise > NOISE_NOISY) {
			t->k2 += o->bad;
			t->n2++;
			sum->k2 += o->bad;
			sum->n2++;
		} else {
			t->k1 += o->bad;
			t->n1++;
			sum->k1 += o->bad;
			sum->n1++;
		}
	}
	if (sum->n1 > 0 && sum->n2 > 0)
		p = stats_strata_greater(x, n);
	free(x);
	return p;
}
