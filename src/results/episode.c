/* SPDX-License-Identifier: MIT */
/*
 * episode.c: finds the window of a test's runs where its failures cluster
 * (episode.h) and the pairs whose runs sat in a small part of the sweep's
 * time. It never reads or writes files.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/causes.h"
#include "results/episode.h"
#include "results/noise-rank.h"
#include "results/stats.h"
#include "base/util.h"

/* The windows tried, at most, about this many failures apart at each end. */
#define EPISODE_ENDS 64
/* Windows tested within cores, at most: those with the smallest Fisher
 * p-values. */
#define EPISODE_WITHIN 256

/* The median noise of v's measured runs of one kind that started in e's
 * window (inside) or outside it; -1 when none is measured. */
static double
episode_noise(const struct timeline_view *v, const struct episode *e, bool inside, bool one)
{
	double *x = xmalloc(sizeof *x * (v->n + 1)), m = -1;
	size_t i, n = 0;

	for (i = 0; i < v->n; i++)
		if ((v->obs[i].began >= e->began && v->obs[i].began < e->ended) == inside &&
		    v->obs[i].one == one && v->obs[i].noise >= 0)
			x[n++] = v->obs[i].noise;
	if (n > 0)
		m = noise_rank_median(x, n);
	free(x);
	return m;
}

/* Whether obs a and b are of one stratum: kind and pair. */
static bool
episode_same(const struct timeline_obs *a, const struct timeline_obs *b)
{
	return a->one == b->one && a->cpu == b->cpu && a->load == b->load;
}

/* The runs of one stratum in the order they started, each with the
 * number of its host's set of cores among them, and those sets' counts. */
struct episode_runs {
	size_t *at;  /* index into the view */
	int *set;    /* 0 .. nsets */
	size_t *bad; /* places in at of its failures */
	size_t n, nbad;
	int64_t *runs, *fails; /* by set */
	int nsets;
};

/* A window of a stratum's runs: from its failure i to its failure j. */
struct episode_window {
	double p; /* Fisher's, the failures inside against outside */
	size_t stratum, i, j;
};

/* The runs of v of the stratum of v->obs[s] into x. */
static void
episode_runs(const struct timeline_view *v, size_t s, struct episode_runs *x)
{
	size_t i, j;

	x->at = xmalloc(sizeof *x->at * (v->n + 1));
	x->set = xmalloc(sizeof *x->set * (v->n + 1));
	x->bad = xmalloc(sizeof *x->bad * (v->n + 1));
	x->runs = xcalloc(v->n + 1, sizeof *x->runs);
	x->fails = xcalloc(v->n + 1, sizeof *x->fails);
	x->n = x->nbad = 0;
	x->nsets = 0;
	for (i = 0; i < v->n; i++) {
		const struct timeline_obs *o = &v->obs[i];

		if (!episode_same(o, &v->obs[s]))
			continue;
		for (j = 0; j < x->n; j++)
			if (v->obs[x->at[j]].host == o->host && v->obs[x->at[j]].cores == o->cores)
				break;
		x->set[x->n] = j < x->n ? x->set[j] : x->nsets++;
		x->runs[x->set[x->n]]++;
		x->fails[x->set[x->n]] += o->bad;
		if (o->bad)
			x->bad[x->nbad++] = x->n;
		x->at[x->n++] = i;
	}
}

static void
episode_runs_free(struct episode_runs *x)
{
	free(x->at);
	free(x->set);
	free(x->bad);
	free(x->runs);
	free(x->fails);
}

/* Adds to *w (*n of them) the windows of stratum x (number s), each with
 * its Fisher p-value. */
static void
episode_scan(const struct episode_runs *x, size_t s, struct episode_window **w, size_t *n)
{
	size_t i, j, step = x->nbad / EPISODE_ENDS + 1;

	for (i = 0; x->nbad >= EPISODE_MIN_BAD && i < x->nbad; i += step) {
		for (j = i + EPISODE_MIN_BAD - 1; j < x->nbad; j += step) {
			int64_t in = (int64_t)(x->bad[j] - x->bad[i] + 1), k = (int64_t)(j - i + 1);
			double greater;

			if (in == (int64_t)x->n)
				continue;
			/* Its failures inside the window against outside it. */
			stats_fisher((int64_t)x->nbad - k, (int64_t)x->n - in, k, in, NULL,
			             &greater);
			*w = xgrow(*w, *n, sizeof **w);
			(*w)[(*n)++] = (struct episode_window){greater, s, i, j};
		}
	}
}

/* The exact stratified p-value of window w of stratum x: its failures
 * inside against outside, within each set of cores (stats.h). */
static double
episode_within_cores(const struct timeline_view *v, const struct episode_runs *x,
                     const struct episode_window *w)
{
	struct stats_table *tab = xcalloc((size_t)x->nsets + 1, sizeof *tab);
	size_t m, n = 0;
	int c;
	double p;

	for (m = x->bad[w->i]; m <= x->bad[w->j]; m++) {
		tab[x->set[m]].n2++;
		tab[x->set[m]].k2 += v->obs[x->at[m]].bad;
	}
	/* A set whose runs all failed, or none did, holds its count fixed. */
	for (c = 0; c < x->nsets; c++) {
		if (x->fails[c] == 0 || x->fails[c] == x->runs[c] || tab[c].n2 == 0)
			continue;
		tab[n].k2 = tab[c].k2;
		tab[n].n2 = tab[c].n2;
		tab[n].k1 = x->fails[c] - tab[c].k2;
		tab[n].n1 = x->runs[c] - tab[c].n2;
		n++;
	}
	p = stats_strata_greater(tab, n);
	free(tab);
	return p;
}

static int
episode_window_cmp(const void *a, const void *b)
{
	const struct episode_window *x = a, *y = b;

	if (x->p != y->p)
		return x->p < y->p ? -1 : 1;
	if (x->stratum != y->stratum)
		return x->stratum < y->stratum ? -1 : 1;
	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return (x->j > y->j) - (x->j < y->j);
}

/* The window of w (n of them, windows of the strata x) with the smallest
 * p-value, the larger of Fisher's and the stratified test's, into *best;
 * returns that p-value times n. A window whose Fisher p-value alone rules
 * it out is never tested within cores: most are. */
static double
episode_best(const struct timeline_view *v, const struct episode_runs *x, struct episode_window *w,
             size_t n, struct episode_window *best)
{
	double p = 2;
	size_t i;

	qsort(w, n, sizeof *w, episode_window_cmp);
	*best = w[0];
	for (i = 0; i < n && i < EPISODE_WITHIN && w[i].p * (double)n < CAUSES_ALPHA; i++) {
		double q = fmax(w[i].p, episode_within_cores(v, &x[w[i].stratum], &w[i]));

		if (q < p) {
			p = q;
			*best = w[i];
		}
		if (i + 1 < n && w[i + 1].p >= p)
			break;
	}
	return fmin(1, (p <= 1 ? p : w[0].p) * (double)n);
}

/* Fills e from its window: the runs from v->obs[from] to v->obs[to - 1]
 * of the stratum of the first. */
static void
episode_window(const struct timeline_view *v, size_t from, size_t to, struct episode *e)
{
	bool one = v->obs[from].one;
	size_t i;

	/* The window in time, and every run of the kind that started in it. */
	e->began = v->obs[from].began;
	e->ended = v->obs[from].ended;
	for (i = from; i < to; i++)
		if (episode_same(&v->obs[i], &v->obs[from]) && v->obs[i].ended > e->ended)
			e->ended = v->obs[i].ended;
	for (i = 0; i < v->n; i++) {
		bool in = v->obs[i].began >= e->began && v->obs[i].began < e->ended;

		if (v->obs[i].one != one)
			continue;
		if (in) {
			e->k += v->obs[i].bad;
			e->w++;
		} else {
			e->k_out += v->obs[i].bad;
			e->n_out++;
		}
	}
	e->noise_in = episode_noise(v, e, true, one);
	e->noise_out = episode_noise(v, e, false, one);
}

void
episode_find(const struct timeline_view *v, struct episode *e)
{
	struct episode_runs *x;
	struct episode_window *w = NULL, best;
	size_t i, j, nx = 0, nw = 0, from, to;

	memset(e, 0, sizeof *e);
	e->p = -1;
	if (v->untimed > 0)
		return;
	/* Like with like, pair by pair: the confirm phase runs after the
	 * sweep, and a lane may run one pair's runs together, so a test that
	 * fails in its sweep runs only, or at one pair only, would look
	 * clustered. */
	x = xmalloc(sizeof *x * (v->n + 1));
	for (i = 0; i < v->n; i++) {
		for (j = 0; j < i && !episode_same(&v->obs[j], &v->obs[i]); j++)
			;
		if (j < i)
			continue;
		episode_runs(v, i, &x[nx]);
		episode_scan(&x[nx], nx, &w, &nw);
		nx++;
	}
	if (nw > 0) {
		e->p = episode_best(v, x, w, nw, &best);
		from = x[best.stratum].at[x[best.stratum].bad[best.i]];
		to = x[best.stratum].at[x[best.stratum].bad[best.j]] + 1;
		episode_window(v, from, to, e);
	}
	for (i = 0; i < nx; i++)
		episode_runs_free(&x[i]);
	free(x);
	free(w);
}

bool
episode_pair_concentrated(const struct timeline_view *v, int *cpu, int *load, double *share)
{
	int64_t first, last;
	size_t i, j;
	bool found = false;

	if (v->n < 2 || v->untimed > 0)
		return false;
	first = v->obs[0].began;
	last = v->obs[0].ended;
	for (i = 0; i < v->n; i++)
		last = v->obs[i].ended > last ? v->obs[i].ended : last;
	if (last <= first)
		return false;
	*share = 0.5;
	for (i = 0; i < v->n; i++) {
		int64_t lo = v->obs[i].began, hi = v->obs[i].ended, n = 0;
		double s;

		for (j = 0; j < i; j++)
			if (v->obs[j].cpu == v->obs[i].cpu && v->obs[j].load == v->obs[i].load)
				break;
		if (j < i)
			continue;
		for (j = i; j < v->n; j++) {
			if (v->obs[j].cpu != v->obs[i].cpu || v->obs[j].load != v->obs[i].load)
				continue;
			n++;
			hi = v->obs[j].ended > hi ? v->obs[j].ended : hi;
		}
		s = (double)(hi - lo) / (double)(last - first);
		if (n >= 5 && s < *share) {
			*share = s;
			*cpu = v->obs[i].cpu;
			*load = v->obs[i].load;
			found = true;
		}
	}
	return found;
}
