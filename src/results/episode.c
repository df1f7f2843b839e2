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

#include "results/episode.h"
#include "results/noise-rank.h"
#include "results/stats.h"
#include "base/util.h"

/* The windows tried, at most, about this many failures apart at each end. */
#define EPISODE_ENDS 64

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

/* Tries the windows of the runs of v of the stratum of v->obs[s] into
 * *best (the smallest p-value, its window [*from, *to) in v) and *tried. */
static void
episode_scan(const struct timeline_view *v, size_t s, double *best, size_t *from, size_t *to,
             double *tried)
{
	size_t *at = xmalloc(sizeof *at * (v->n + 1)), *bad = xmalloc(sizeof *bad * (v->n + 1));
	size_t i, j, n = 0, nbad = 0, step;

	for (i = 0; i < v->n; i++) {
		if (!episode_same(&v->obs[i], &v->obs[s]))
			continue;
		if (v->obs[i].bad)
			bad[nbad++] = n;
		at[n++] = i;
	}
	step = nbad / EPISODE_ENDS + 1;
	for (i = 0; nbad >= EPISODE_MIN_BAD && i < nbad; i += step) {
		for (j = i + EPISODE_MIN_BAD - 1; j < nbad; j += step) {
			int64_t w = (int64_t)(bad[j] - bad[i] + 1), k = (int64_t)(j - i + 1);
			double greater;

			if (w == (int64_t)n)
				continue;
			*tried += 1;
			/* Its failures inside the window against outside it. */
			stats_fisher((int64_t)nbad - k, (int64_t)n - w, k, w, NULL, &greater);
			if (greater < *best) {
				*best = greater;
				*from = at[bad[i]];
				*to = at[bad[j]] + 1;
			}
		}
	}
	free(at);
	free(bad);
}

void
episode_find(const struct timeline_view *v, struct episode *e)
{
	size_t i, j, from = 0, to = 0;
	double best = 2, tried = 0;
	bool one;

	memset(e, 0, sizeof *e);
	e->p = -1;
	if (v->untimed > 0)
		return;
	/* Like with like, pair by pair: the confirm phase runs after the
	 * sweep, and a lane may run one pair's runs together, so a test that
	 * fails in its sweep runs only, or at one pair only, would look
	 * clustered. */
	for (i = 0; i < v->n; i++) {
		for (j = 0; j < i && !episode_same(&v->obs[j], &v->obs[i]); j++)
			;
		if (j == i)
			episode_scan(v, i, &best, &from, &to, &tried);
	}
	if (tried == 0)
		return;
	e->p = fmin(1, best * tried);
	/* The window in time, and every run of the kind that started in it. */
	one = v->obs[from].one;
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
