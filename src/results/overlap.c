/* SPDX-License-Identifier: MIT */
/*
 * overlap.c: interference from the timeline. For each of a test's runs the
 * timeline gives whether another run was alive at some moment of its life
 * and the packages of those runs. Within each stratum (whole-package runs
 * or runs of the test by itself, at one cpu and load) the failures of
 * overlapped runs are compared with those of runs alone, and for the few
 * packages most failures overlapped, runs that overlapped a run of the
 * package with runs that did not: a sweep's runs vary in which packages
 * overlap them, and that variation is the evidence across packages. Each
 * comparison is the exact stratified test (stats.h). It never reads or
 * writes files.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/overlap.h"
#include "results/interference.h"
#include "results/stats.h"
#include "results/timeline.h"
#include "base/util.h"

/* The stratum of each obs of v, numbered from 0, by pair, and by kind
 * too when by_kind; *n gets how many. */
static int *
overlap_strata(const struct timeline_view *v, bool by_kind, size_t *n)
{
	int *s = xmalloc(sizeof *s * (v->n + 1));
	size_t i, j;

	*n = 0;
	for (i = 0; i < v->n; i++) {
		const struct timeline_obs *o = &v->obs[i];

		for (j = 0; j < i; j++)
			if ((!by_kind || v->obs[j].one == o->one) && v->obs[j].cpu == o->cpu &&
			    v->obs[j].load == o->load)
				break;
		s[i] = j < i ? s[j] : (int)(*n)++;
	}
	return s;
}

/* The exact stratified p-value that runs with side() fail more than the
 * others, pkg being side's argument (-1: overlapped at all). */
static double
overlap_test(const struct timeline_view *v, const int *stratum, size_t nstrata, int pkg)
{
	struct stats_table *x = xcalloc(nstrata + 1, sizeof *x);
	size_t i;
	double p;

	for (i = 0; i < v->n; i++) {
		const struct timeline_obs *o = &v->obs[i];
		struct stats_table *t = &x[stratum[i]];
		bool with = pkg < 0 ? o->overlapped : timeline_obs_with(v, o, pkg);

		if (with) {
			t->k2 += o->bad;
			t->n2++;
		} else {
			t->k1 += o->bad;
			t->n1++;
		}
	}
	p = stats_strata_greater(x, nstrata);
	free(x);
	return p;
}

/* The packages the most failures of v overlapped, best first, at most
 * OVERLAP_PARTNERS, with those counts; returns how many. */
static size_t
overlap_candidates(const struct timeline_view *v, int *pkg, int64_t *count)
{
	int *all = NULL;
	int64_t *n = NULL;
	size_t i, j, nall = 0, m = 0;

	for (i = 0; i < v->n; i++) {
		const struct timeline_obs *o = &v->obs[i];

		for (j = 0; o->bad && j < o->npartners; j++) {
			int p = v->partners[o->first + j];
			size_t k;

			for (k = 0; k < nall && all[k] != p; k++)
				;
			if (k == nall) {
				all = xrealloc(all, sizeof *all * (nall + 1));
				n = xrealloc(n, sizeof *n * (nall + 1));
				all[nall] = p;
				n[nall++] = 0;
			}
			n[k]++;
		}
	}
	while (m < OVERLAP_PARTNERS && m < nall) {
		size_t best = 0;

		for (j = 1; j < nall; j++)
			if (n[j] > n[best] || (n[j] == n[best] && all[j] < all[best]))
				best = j;
		if (n[best] == 0)
			break;
		pkg[m] = all[best];
		count[m++] = n[best];
		n[best] = 0;
	}
	free(all);
	free(n);
	return m;
}

/* Results without a timeline (read from results.json, which keeps no
 * runs): the cells' overlap with runs of the test's own package. */
static void
overlap_from_cells(const struct results_test *t, struct overlap *ov)
{
	struct stats_table sum;

	interference_totals(t, &sum);
	ov->known = true;
	ov->k_over = sum.k2;
	ov->n_over = sum.n2;
	ov->k_alone = sum.k1;
	ov->n_alone = sum.n1;
	ov->bad = sum.k1 + sum.k2;
	/* The overlaps the cells know are with the test's own package. */
	ov->partner = t->pkg;
	ov->bad_with = sum.k2;
	ov->n_with = sum.n2;
	ov->k_without = sum.k1;
	ov->n_without = sum.n1;
	if (sum.n1 > 0 && sum.n2 > 0)
		ov->p = interference_p(t);
}

void
overlap_judge(const struct results *r, const struct results_test *t, struct overlap *ov)
{
	struct timeline_view v;

	timeline_view(r, t, &v);
	overlap_judge_view(r, t, &v, ov);
	timeline_view_free(&v);
}

void
overlap_judge_view(const struct results *r, const struct results_test *t,
                   const struct timeline_view *view, struct overlap *ov)
{
	const struct timeline_view v = *view;
	int pkg[OVERLAP_PARTNERS];
	int64_t count[OVERLAP_PARTNERS];
	double p_any, p_best = 1, ptest[OVERLAP_PARTNERS];
	size_t i, m, nstrata, best = 0;
	int *stratum;

	memset(ov, 0, sizeof *ov);
	ov->partner = -1;
	ov->p = -1;
	if (r->timeline == NULL) {
		overlap_from_cells(t, ov);
		return;
	}
	if (v.n == 0 || v.untimed > 0)
		return;
	ov->known = true;
	for (i = 0; i < v.n; i++) {
		const struct timeline_obs *o = &v.obs[i];

		ov->bad += o->bad;
		if (o->overlapped) {
			ov->k_over += o->bad;
			ov->n_over++;
		} else {
			ov->k_alone += o->bad;
			ov->n_alone++;
		}
	}
	/* A test that looks order-dependent fails after other tests of its
	 * shuffled runs: its runs by itself are another kind. Without a
	 * shuffled order, the tests before it are the same in every run. */
	stratum = overlap_strata(&v, results_order_dependent(t), &nstrata);
	p_any = overlap_test(&v, stratum, nstrata, -1);
	m = overlap_candidates(&v, pkg, count);
	for (i = 0; i < m; i++) {
		ptest[i] = overlap_test(&v, stratum, nstrata, pkg[i]);
		if (ptest[i] < p_best) {
			p_best = ptest[i];
			best = i;
		}
	}
	ov->p = fmin(1, fmin(p_any, p_best) * (double)(m + 1));
	if (m > 0 && p_best * (double)(m + 1) < OVERLAP_ALPHA && 2 * count[best] > ov->bad) {
		ov->partner = pkg[best];
		ov->bad_with = count[best];
		for (i = 0; i < v.n; i++) {
			if (timeline_obs_with(&v, &v.obs[i], pkg[best])) {
				ov->n_with++;
				continue;
			}
			ov->k_without += v.obs[i].bad;
			ov->n_without++;
		}
	}
	free(stratum);
}
