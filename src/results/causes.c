/* SPDX-License-Identifier: MIT */
/*
 * causes.c: names the causes of each failing test. For cpu and load, each
 * value is tested against the others (failures and hangs over runs, sweep
 * and confirm cells together) and the smallest p, times the number of
 * values (Bonferroni), stands for the dimension; noise tests the runs
 * above NOISE_NOISY against the rest within each pair (strata.h), or when
 * none or all are, ranks the noise of failing runs against passing ones
 * (noise-rank.h); interference and its partner come from overlap.h,
 * episode from episode.h, on the timeline of the sweep's runs.
 * Those p-values, over every test of the sweep, get Benjamini-Hochberg
 * q-values. Order comes from results_order_dependent, with the polluter
 * when its search found one. When nothing else is named, timing is named
 * only where the other tests could have named their cause (causes_gap):
 * else the cause is unexplained, with what would decide. It never reads or
 * writes files.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/causes.h"
#include "results/interference.h"
#include "results/episode.h"
#include "results/noise-rank.h"
#include "results/overlap.h"
#include "results/timeline.h"
#include "base/timefmt.h"
#include "results/stats.h"
#include "results/strata.h"

enum causes_kind {
	CAUSES_CPU,
	CAUSES_LOAD,
	CAUSES_NOISE,
	CAUSES_INTERFERENCE,
	CAUSES_EPISODE,
	CAUSES_TESTED, /* the kinds above have a p-value */
	CAUSES_ORDER = CAUSES_TESTED,
	CAUSES_TIMING,
	CAUSES_UNEXPLAINED,
};

static const char *const causes_names[] = {"cpu",     "load",  "noise",  "interference",
                                           "episode", "order", "timing", "unexplained"};

/* Timing needs at least this many failures: fewer, whatever the pairs,
 * cannot show that failures do not cluster in time or in overlaps. */
#define CAUSES_MIN_BAD 3

/* Why timing cannot be named when no other cause is: "fails alike at
 * every pair, alone or not" needs pairs to compare, failures enough that
 * a cpu or load effect would have shown, and failures in runs alone. */
enum causes_gap {
	CAUSES_GAP_NONE,
	CAUSES_GAP_PAIRS,   /* measured at one pair */
	CAUSES_GAP_FEW,     /* too few failures for the cpu or load test to name one */
	CAUSES_GAP_ALONE,   /* no failure in a run alone */
	CAUSES_GAP_UNTIMED, /* runs without a start and an end: what overlapped is unknown */
};

struct causes_test {
	bool failed;
	double p[CAUSES_TESTED], q[CAUSES_TESTED]; /* p < 0: not testable */
	int value[2];                              /* the worst cpu and load */
	int64_t k1[CAUSES_TESTED], n1[CAUSES_TESTED], k2[CAUSES_TESTED], n2[CAUSES_TESTED];
	const struct results_polluter *polluter; /* the test's, or NULL */
	enum causes_gap gap;
	bool gap_untimed;              /* a run of it has no start and end */
	int64_t bad, runs;             /* failures and hangs, runs: every cell */
	int64_t alone_bad, alone_runs; /* those in runs that nothing overlapped */
	int64_t more;                  /* CAUSES_GAP_FEW: about this many more runs decide */
	/* The package interference's failures overlap (overlap.h), or -1,
	 * with its counts and its name (r's, borrowed). */
	int partner;
	bool partner_own; /* the partner is its own package */
	int64_t bad_with, n_with, k_without, n_without;
	const char *partner_name;
	struct noise_rank rank; /* the noise of failing runs against passing ones */
	bool noise_ranked;      /* the noise cause's p is the ranks' */
	struct episode episode; /* where its failures cluster in time */
	/* A pair whose runs sat in a small part of the sweep's time. */
	bool concentrated;
	int conc_cpu, conc_load;
	double conc_share;
};

struct causes {
	const struct results *r;
	struct causes_test *t;
};

/* The cpu count (dim 0) or load (dim 1) at which t fails most against the
 * others. *best gets the smallest p-value any value could have had, all of
 * t's failures there, or as many as it has runs (Bonferroni too): the test's power; 0 when the
 * dimension has one value (there is nothing to tell apart). *need gets about how many failures, at
 * the same spread of runs, would bring that below CAUSES_ALPHA. */
static void
causes_dimension(const struct results_test *t, int dim, struct causes_test *ct, double *best,
                 int64_t *need)
{
	int64_t runs, fails, hangs, bad;
	int i, j, nvalues = 0;
	double lowest = 1, share = 1;

	results_test_totals(t, &runs, &fails, &hangs);
	bad = fails + hangs;
	ct->p[dim] = -1;
	for (i = 0; i < t->ncells; i++) {
		int v = dim == 0 ? t->cells[i].cpu : t->cells[i].load;
		int64_t k = 0, n = 0;
		double greater;
		bool seen = false;

		for (j = 0; j < i; j++)
			seen = seen || v == (dim == 0 ? t->cells[j].cpu : t->cells[j].load);
		if (seen)
			continue;
		nvalues++;
		for (j = 0; j < t->ncells; j++) {
			if (v != (dim == 0 ? t->cells[j].cpu : t->cells[j].load))
				continue;
			k += t->cells[j].failures + t->cells[j].hangs;
			n += t->cells[j].runs;
		}
		if (n == runs)
			continue;
		share = fmin(share, (double)n / (double)runs);
		/* The most extreme table: as many failures at v as it has runs. */
		stats_fisher(bad - (bad < n ? bad : n), runs - n, bad < n ? bad : n, n, NULL,
		             &greater);
		lowest = fmin(lowest, greater);
		stats_fisher(bad - k, runs - n, k, n, NULL, &greater);
		if (ct->p[dim] < 0 || greater < ct->p[dim]) {
			ct->p[dim] = greater;
			ct->value[dim] = v;
			ct->k1[dim] = k;
			ct->n1[dim] = n;
			ct->k2[dim] = bad - k;
			ct->n2[dim] = runs - n;
		}
	}
	if (ct->p[dim] >= 0)
		ct->p[dim] = fmin(1, ct->p[dim] * nvalues);
	*best = nvalues > 1 ? fmin(1, lowest * nvalues) : 0;
	/* All of k failures at the smallest value: about share^k, times the
	 * values tested. */
	*need =
	    nvalues > 1 && share < 1 ? (int64_t)ceil(log(CAUSES_ALPHA / nvalues) / log(share)) : 0;
}

/* Whether timing may be named for ct when nothing else is, and if not,
 * why: best[] is each dimension's power (causes_dimension). */
static void
causes_gap(const struct results_test *t, struct causes_test *ct, const double best[2],
           const int64_t need[2])
{
	int i, j, npairs = 0;
	int64_t k = 0;

	for (i = 0; i < t->ncells; i++) {
		bool seen = false;

		for (j = 0; j < i; j++)
			seen = seen || (t->cells[j].cpu == t->cells[i].cpu &&
			                t->cells[j].load == t->cells[i].load);
		npairs += !seen && t->cells[i].runs > 0;
	}
	ct->gap = CAUSES_GAP_NONE;
	if (npairs < 2) {
		ct->gap = CAUSES_GAP_PAIRS;
	} else if (best[0] >= CAUSES_ALPHA || best[1] >= CAUSES_ALPHA || ct->bad < CAUSES_MIN_BAD) {
		/* The failures both tests need, at the rate measured. */
		ct->gap = CAUSES_GAP_FEW;
		for (i = 0; i < 2; i++)
			if (best[i] >= CAUSES_ALPHA && need[i] > k)
				k = need[i];
		ct->more =
		    k > ct->bad && ct->bad > 0
		        ? (int64_t)ceil((double)(k - ct->bad) * (double)ct->runs / (double)ct->bad)
		        : 0;
	} else if (ct->gap_untimed) {
		ct->gap = CAUSES_GAP_UNTIMED;
	} else if (ct->alone_bad == 0) {
		ct->gap = CAUSES_GAP_ALONE;
	}
}

/* Adds cell c's runs to x: quiet ones on side 1, noisy ones on side 2. */
static void
causes_noise_cell(struct stats_table *x, const struct results_cell *c)
{
	x->k1 += c->failures + c->hangs - c->noisy_bad;
	x->n1 += c->runs - c->noisy_runs;
	x->k2 += c->noisy_bad;
	x->n2 += c->noisy_runs;
}

static void
causes_noise(const struct results_test *t, const struct timeline_view *v, struct causes_test *ct)
{
	struct stats_table sum;

	noise_rank(v, &ct->rank);
	ct->noise_ranked = false;
	if (v->n > 0) {
		/* The runs themselves, those long enough to be measured. */
		ct->p[CAUSES_NOISE] = noise_split(v, &sum);
	} else {
		/* A results file read back without its journal: its cells. */
		strata_totals(t, causes_noise_cell, &sum);
		ct->p[CAUSES_NOISE] = -1;
		if (sum.n1 > 0 && sum.n2 > 0)
			ct->p[CAUSES_NOISE] = strata_pairs_greater(t, causes_noise_cell);
	}
	ct->k1[CAUSES_NOISE] = sum.k2;
	ct->n1[CAUSES_NOISE] = sum.n2;
	ct->k2[CAUSES_NOISE] = sum.k1;
	ct->n2[CAUSES_NOISE] = sum.n1;
	/* No run, or every run, above the threshold: the ranks decide. Else
	 * the ranks are heard too, at half the level, where the threshold's
	 * split is too lopsided to decide (most runs noisy, or most quiet). */
	if (ct->p[CAUSES_NOISE] < 0 || (ct->p[CAUSES_NOISE] >= CAUSES_ALPHA && ct->rank.p >= 0 &&
	                                2 * ct->rank.p < ct->p[CAUSES_NOISE])) {
		ct->noise_ranked = true;
		ct->p[CAUSES_NOISE] =
		    ct->p[CAUSES_NOISE] < 0 || ct->rank.p < 0 ? ct->rank.p : 2 * ct->rank.p;
	}
}

/* Tests t for each cause into ct; false when it has no flaky cause to
 * find (it never failed, or failed every run). */
static bool
causes_test(const struct results *r, const struct results_test *t, struct causes_test *ct)
{
	struct overlap ov;
	struct timeline_view v;
	int64_t runs, fails, hangs;
	double best[2];
	int64_t need[2];

	results_test_totals(t, &runs, &fails, &hangs);
	ct->failed = fails + hangs > 0 && fails + hangs < runs;
	if (!ct->failed)
		return false;
	timeline_view(r, t, &v);
	ct->polluter = t->polluter;
	ct->bad = fails + hangs;
	ct->runs = runs;
	causes_dimension(t, 0, ct, &best[0], &need[0]);
	causes_dimension(t, 1, ct, &best[1], &need[1]);
	causes_noise(t, &v, ct);
	episode_find(&v, &ct->episode);
	ct->p[CAUSES_EPISODE] = ct->episode.p;
	ct->concentrated =
	    episode_pair_concentrated(&v, &ct->conc_cpu, &ct->conc_load, &ct->conc_share);
	ct->p[CAUSES_INTERFERENCE] = -1;
	if (r->timeline != NULL)
		overlap_judge_view(r, t, &v, &ov);
	else
		overlap_judge(r, t, &ov);
	timeline_view_free(&v);
	ct->gap_untimed = !ov.known;
	ct->alone_bad = ov.k_alone;
	ct->alone_runs = ov.n_alone;
	causes_gap(t, ct, best, need);
	ct->partner = -1;
	if (ov.p >= 0) {
		/* 1 when not named (failures on one core), so that its q is
		 * never below CAUSES_ALPHA. */
		ct->p[CAUSES_INTERFERENCE] = interference_named_by(t, &ov) ? ov.p : 1;
		ct->k1[CAUSES_INTERFERENCE] = ov.k_over;
		ct->n1[CAUSES_INTERFERENCE] = ov.n_over;
		ct->k2[CAUSES_INTERFERENCE] = ov.k_alone;
		ct->n2[CAUSES_INTERFERENCE] = ov.n_alone;
		ct->partner = ov.partner;
		ct->partner_own = ov.partner == t->pkg;
		ct->bad_with = ov.bad_with;
		ct->n_with = ov.n_with;
		ct->k_without = ov.k_without;
		ct->n_without = ov.n_without;
	}
	ct->partner_name = ct->partner >= 0 ? r->pkgs[ct->partner].name : NULL;
	return true;
}

struct causes *
causes_new(const struct results *r)
{
	return causes_new_kept(r, NULL);
}

struct causes *
causes_new_kept(const struct results *r, const void *const *kept)
{
	struct causes *c = xcalloc(1, sizeof *c);
	double *p = xcalloc(r->ntests * CAUSES_TESTED + 1, sizeof *p);
	size_t i, np = 0;
	int k;

	c->r = r;
	c->t = xcalloc(r->ntests + 1, sizeof *c->t);
	for (i = 0; i < r->ntests; i++) {
		struct causes_test *ct = &c->t[i];

		if (kept != NULL && kept[i] != NULL) {
			memcpy(ct, kept[i], sizeof *ct);
			/* The same polluter, perhaps found again; the
			 * partner's name where r keeps it now. */
			ct->polluter = r->tests[i].polluter;
			ct->partner_name = ct->partner >= 0 ? r->pkgs[ct->partner].name : NULL;
		} else if (!causes_test(r, &r->tests[i], ct)) {
			continue;
		}
		for (k = 0; k < CAUSES_TESTED; k++)
			if (ct->p[k] >= 0)
				p[np++] = ct->p[k];
	}
	stats_bh(p, np, p);
	for (i = 0, np = 0; i < r->ntests; i++)
		for (k = 0; c->t[i].failed && k < CAUSES_TESTED; k++)
			c->t[i].q[k] = c->t[i].p[k] >= 0 ? p[np++] : -1;
	free(p);
	return c;
}

void
causes_free(struct causes *c)
{
	if (c == NULL)
		return;
	free(c->t);
	free(c);
}

/* Why no cause is named for ct, and what would decide. */
static char *
causes_unexplained(const struct causes_test *ct)
{
	long long bad = ct->bad, runs = ct->runs;

	switch (ct->gap) {
	case CAUSES_GAP_PAIRS:
		return xasprintf(
		    _("%lld of %lld runs failed, all at one pair: cpu, load and timing "
		      "cannot be told apart; runs at other pairs would decide"),
		    bad, runs);
	case CAUSES_GAP_FEW:
		if (ct->more > 0)
			return xasprintf(
			    _("%lld of %lld runs failed: too few for the cpu and load "
			      "tests to name a cause; about %lld more runs would decide"),
			    bad, runs, (long long)ct->more);
		return xasprintf(_("%lld of %lld runs failed: too few for the cpu and load tests "
		                   "to name a cause; more runs would decide"),
		                 bad, runs);
	case CAUSES_GAP_UNTIMED:
		return xasprintf(
		    _("%lld of %lld runs failed; its runs have no start and end in the "
		      "journal, so what ran beside them is unknown: a sweep that "
		      "records them would tell timing from interference"),
		    bad, runs);
	default:
		if (ct->alone_runs == 0)
			return xasprintf(_("%lld of %lld runs failed, none ran alone (another run "
			                   "overlapped each): runs alone would tell timing from "
			                   "interference"),
			                 bad, runs);
		return xasprintf(_("%lld of %lld runs failed, none of the %lld that nothing "
		                   "overlapped: more runs alone would tell timing from "
		                   "interference"),
		                 bad, runs, (long long)ct->alone_runs);
	}
}

/* The evidence of an episode: its window, its counts, its noise. */
static char *
causes_episode(const struct causes_test *ct)
{
	const struct episode *e = &ct->episode;
	char from[40], to[40];
	struct buf b;

	timefmt_format_rfc3339(e->began, from, sizeof from);
	timefmt_format_rfc3339(e->ended, to, sizeof to);
	buf_init(&b);
	buf_printf(&b,
	           _("failures cluster in time: %lld of its %lld runs from %s to %s failed, "
	             "%lld of the %lld others"),
	           (long long)e->k, (long long)e->w, from, to, (long long)e->k_out,
	           (long long)e->n_out);
	if (e->noise_in >= 0 && e->noise_out >= 0)
		buf_printf(&b, _("; median host noise %.1f%% there, %.1f%% elsewhere"),
		           e->noise_in * 100, e->noise_out * 100);
	return buf_steal(&b);
}

/* The order cause's evidence when its polluter search found one or more. */
static char *
causes_order_evidence(const struct results_polluter *p)
{
	struct buf b;
	size_t i;

	buf_init(&b);
	buf_printf(&b,
	           _("fails after %s: under seed %s the two fail together, alone it passes "
	             "(%lld runs to find it)"),
	           p->test, p->seed, (long long)p->runs);
	for (i = 0; i < p->nmore; i++)
		buf_printf(&b, _("; also after %s, under seed %s"), p->more[i].test,
		           p->more[i].seed);
	return buf_steal(&b);
}

/* The evidence of cause k of ct in one sentence. */
static char *
causes_evidence(const struct causes_test *ct, int k)
{
	long long k1 = 0, n1 = 0, k2 = 0, n2 = 0;

	if (k < CAUSES_TESTED) {
		k1 = ct->k1[k];
		n1 = ct->n1[k];
		k2 = ct->k2[k];
		n2 = ct->n2[k];
	}

	switch (k) {
	case CAUSES_CPU:
		return xasprintf(k2 == 0 ? _("fails only at cpu %d: %lld/%lld against %lld/%lld at "
		                             "other cpu counts")
		                         : _("fails most at cpu %d: %lld/%lld against %lld/%lld at "
		                             "other cpu counts"),
		                 ct->value[0], k1, n1, k2, n2);
	case CAUSES_LOAD:
		return xasprintf(k2 == 0
		                     ? _("fails only at load %d: %lld/%lld against %lld/%lld at "
		                         "other loads")
		                     : _("fails most at load %d: %lld/%lld against %lld/%lld at "
		                         "other loads"),
		                 ct->value[1], k1, n1, k2, n2);
	case CAUSES_NOISE:
		if (ct->noise_ranked)
			return xasprintf(_("fails with more host noise: its failing runs' median "
			                   "noise %.1f%% against %.1f%% for its passing ones "
			                   "(%lld and %lld runs ranked within each pair)"),
			                 ct->rank.bad_median * 100, ct->rank.good_median * 100,
			                 (long long)ct->rank.nbad, (long long)ct->rank.ngood);
		return xasprintf(_("fails under host noise: %lld/%lld noisy runs against "
		                   "%lld/%lld quiet ones"),
		                 k1, n1, k2, n2);
	case CAUSES_EPISODE:
		return causes_episode(ct);
	case CAUSES_INTERFERENCE:
		if (ct->partner_own)
			return xasprintf(_("fails when runs of its package overlap: %lld/%lld "
			                   "overlapped against %lld/%lld alone"),
			                 (long long)ct->bad_with, (long long)ct->n_with,
			                 (long long)ct->k_without, (long long)ct->n_without);
		if (ct->partner_name != NULL && n2 > 0)
			return xasprintf(
			    _("fails while %s runs: %lld/%lld of its failures overlapped "
			      "a run of it, %lld/%lld alone"),
			    ct->partner_name, (long long)ct->bad_with, (long long)ct->bad, k2, n2);
		if (ct->partner_name != NULL)
			return xasprintf(
			    _("fails while %s runs: %lld/%lld of its failures overlapped "
			      "a run of it, %lld/%lld of the runs without it failed"),
			    ct->partner_name, (long long)ct->bad_with, (long long)ct->bad,
			    (long long)ct->k_without, (long long)ct->n_without);
		return xasprintf(_("fails when other runs overlap it: %lld/%lld overlapped "
		                   "against %lld/%lld alone"),
		                 k1, n1, k2, n2);
	case CAUSES_ORDER:
		if (ct->polluter != NULL && ct->polluter->test != NULL)
			return causes_order_evidence(ct->polluter);
		return xstrdup(_("fails only after other tests of its package in shuffled runs, "
		                 "never alone"));
	case CAUSES_TIMING:
		return xstrdup(_("fails alike at every pair, alone or not, quiet or not: a race "
		                 "or a time budget inside the test"));
	default:
		return causes_unexplained(ct);
	}
}

/* Calls fn for each cause of test i, in kind order; timing or unexplained
 * when no other. */
static void
causes_each(const struct causes *c, size_t i, void (*fn)(void *, const struct causes_test *, int),
            void *arg)
{
	const struct causes_test *ct = &c->t[i];
	bool any = false;
	int k;

	for (k = 0; k < CAUSES_TESTED; k++) {
		if (ct->q[k] >= 0 && ct->q[k] < CAUSES_ALPHA) {
			fn(arg, ct, k);
			any = true;
		}
	}
	if (results_order_dependent(&c->r->tests[i])) {
		fn(arg, ct, CAUSES_ORDER);
		any = true;
	}
	if (!any)
		fn(arg, ct, ct->gap == CAUSES_GAP_NONE ? CAUSES_TIMING : CAUSES_UNEXPLAINED);
}

/* results.json causes[].window of an episode. */
static cJSON *
causes_window_json(const struct episode *e)
{
	cJSON *w = cJSON_CreateObject();
	char at[40];

	timefmt_format_rfc3339(e->began, at, sizeof at);
	cJSON_AddStringToObject(w, "start", at);
	timefmt_format_rfc3339(e->ended, at, sizeof at);
	cJSON_AddStringToObject(w, "end", at);
	cJSON_AddNumberToObject(w, "runs", (double)e->w);
	cJSON_AddNumberToObject(w, "failures", (double)e->k);
	if (e->noise_in >= 0)
		cJSON_AddNumberToObject(w, "noise", util_round3(e->noise_in));
	else
		cJSON_AddNullToObject(w, "noise");
	return w;
}

static void
causes_add_json(void *arg, const struct causes_test *ct, int k)
{
	cJSON *o = cJSON_CreateObject();
	char *ev = causes_evidence(ct, k);

	cJSON_AddStringToObject(o, "cause", causes_names[k]);
	cJSON_AddStringToObject(o, "evidence", ev);
	if (k == CAUSES_INTERFERENCE && ct->partner_name != NULL)
		cJSON_AddStringToObject(o, "partner", ct->partner_name);
	if (k == CAUSES_EPISODE)
		cJSON_AddItemToObject(o, "window", causes_window_json(&ct->episode));
	if (k < CAUSES_TESTED) {
		cJSON_AddNumberToObject(o, "p", util_round3(ct->p[k]));
		cJSON_AddNumberToObject(o, "q", util_round3(ct->q[k]));
	} else {
		cJSON_AddNullToObject(o, "p");
		cJSON_AddNullToObject(o, "q");
	}
	cJSON_AddItemToArray(arg, o);
	free(ev);
}

cJSON *
causes_json(const struct causes *c, size_t i)
{
	cJSON *a;

	if (!c->t[i].failed)
		return NULL;
	a = cJSON_CreateArray();
	causes_each(c, i, causes_add_json, a);
	return a;
}

const void *
causes_key(const struct causes *c, size_t i, size_t *len)
{
	*len = c->t[i].failed ? sizeof c->t[i] : 0;
	return &c->t[i];
}

static void
causes_add_bit(void *arg, const struct causes_test *ct, int k)
{
	(void)ct;
	*(unsigned *)arg |= 1u << k;
}

unsigned
causes_named(const struct causes *c, size_t i, int *cpu, int *load)
{
	unsigned named = 0;

	*cpu = *load = 0;
	if (!c->t[i].failed)
		return 0;
	causes_each(c, i, causes_add_bit, &named);
	if (named & CAUSES_NAMED_CPU)
		*cpu = c->t[i].value[0];
	if (named & CAUSES_NAMED_LOAD)
		*load = c->t[i].value[1];
	return named;
}

static void
causes_add_text(void *arg, const struct causes_test *ct, int k)
{
	char *ev = causes_evidence(ct, k);

	if (k < CAUSES_TESTED)
		buf_printf(arg, _("  cause (%s): %s (q=%.2g)\n"), causes_names[k], ev, ct->q[k]);
	else
		buf_printf(arg, _("  cause (%s): %s\n"), causes_names[k], ev);
	if ((k == CAUSES_CPU || k == CAUSES_LOAD || k == CAUSES_EPISODE) && ct->concentrated)
		buf_printf(arg,
		           _("  its runs at cpu %d load %d fell within %.0f%% of the time its "
		             "runs took: a rate there is also that time's\n"),
		           ct->conc_cpu, ct->conc_load, ct->conc_share * 100);
	free(ev);
}

void
causes_text(struct buf *b, const struct causes *c, size_t i)
{
	if (c->t[i].failed)
		causes_each(c, i, causes_add_text, b);
}
