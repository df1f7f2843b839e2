/* SPDX-License-Identifier: MIT */
/*
 * timeline.c: the sweep's runs on the wall clock. Each run keeps its span
 * (package, phase, pair, start, end, noise, cores), the set of tests that ran in
 * it (sets are shared: most runs of a package run the same tests) and the
 * tests that failed or hung. The runs are kept in the order they started,
 * so the runs alive while one ran are found from the longest run's length
 * back. It never reads or writes files.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "results/timeline.h"
#include "base/strmap.h"
#include "base/util.h"

struct timeline_set {
	long *tests; /* ascending */
	size_t n;
};

struct timeline_run {
	struct timeline_span sp;
	int host;         /* 0, or the shard it came from */
	int cores;        /* 1 + index into core_sets, or 0: unknown */
	size_t set;       /* index into sets */
	size_t bad, nbad; /* bads[bad .. bad + nbad) */
};

struct timeline {
	struct timeline_run *runs;
	size_t nruns;
	size_t *order;   /* runs by start, ascending */
	int64_t longest; /* the longest run, ms */
	struct timeline_set *sets;
	size_t nsets;
	struct strmap *set_index;
	char **core_sets; /* "0,1," */
	size_t ncore_sets;
	struct strmap *core_index;
	long *bads;
	size_t nbads;
	int hosts; /* the hosts numbered so far */
	int host;  /* the host of the runs added now */
};

void
timeline_free(struct timeline *tl)
{
	size_t i;

	if (tl == NULL)
		return;
	for (i = 0; i < tl->nsets; i++)
		free(tl->sets[i].tests);
	free(tl->sets);
	strmap_free(tl->set_index);
	for (i = 0; i < tl->ncore_sets; i++)
		free(tl->core_sets[i]);
	free(tl->core_sets);
	strmap_free(tl->core_index);
	free(tl->runs);
	free(tl->order);
	free(tl->bads);
	free(tl);
}

static int
timeline_cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* The index of the set of tests ran[] (sorted in place), added when new. */
static size_t
timeline_intern(struct timeline *tl, long *ran, size_t n)
{
	struct buf key;
	long at;
	size_t i;

	qsort(ran, n, sizeof *ran, timeline_cmp_long);
	buf_init(&key);
	for (i = 0; i < n; i++)
		buf_printf(&key, "%ld,", ran[i]);
	at = strmap_get(tl->set_index, key.data != NULL ? key.data : "");
	if (at < 0) {
		tl->sets = xrealloc(tl->sets, sizeof *tl->sets * (tl->nsets + 1));
		tl->sets[tl->nsets].tests = xmalloc(sizeof *ran * (n + 1));
		memcpy(tl->sets[tl->nsets].tests, ran, sizeof *ran * n);
		tl->sets[tl->nsets].n = n;
		at = (long)tl->nsets++;
		strmap_set(tl->set_index, key.data != NULL ? key.data : "", at);
	}
	buf_free(&key);
	return (size_t)at;
}

/* The number of the set of cores named key ("0,1,"), added when new. */
static int
timeline_intern_cores(struct timeline *tl, const char *key)
{
	long at = strmap_get(tl->core_index, key);

	if (at < 0) {
		tl->core_sets = xgrow(tl->core_sets, tl->ncore_sets, sizeof *tl->core_sets);
		tl->core_sets[tl->ncore_sets] = xstrdup(key);
		at = (long)tl->ncore_sets++;
		strmap_set(tl->core_index, key, at);
	}
	return (int)at + 1;
}

/* The number of the set of the cores sp was pinned to, 0 for none. */
static int
timeline_cores(struct timeline *tl, const struct timeline_span *sp)
{
	struct buf key;
	int i, at;

	if (sp->ncores <= 0)
		return 0;
	buf_init(&key);
	for (i = 0; i < sp->ncores; i++)
		buf_printf(&key, "%d,", sp->cores[i]);
	at = timeline_intern_cores(tl, key.data);
	buf_free(&key);
	return at;
}

static struct timeline *
timeline_of(struct results *r)
{
	if (r->timeline == NULL) {
		r->timeline = xcalloc(1, sizeof *r->timeline);
		r->timeline->set_index = strmap_new();
		r->timeline->core_index = strmap_new();
	}
	return r->timeline;
}

/* Adds a run at host on the set of cores numbered cores with the tests
 * ran[] (sorted in place) and bad[]. */
static void
timeline_add(struct timeline *tl, const struct timeline_span *sp, int host, int cores, long *ran,
             size_t nran, const long *bad, size_t nbad)
{
	struct timeline_run *x;
	size_t i;

	/* Doubled as they fill: one more run each time made every run copy
	 * all those before it. */
	tl->runs = xgrow(tl->runs, tl->nruns, sizeof *tl->runs);
	tl->order = xgrow(tl->order, tl->nruns, sizeof *tl->order);
	x = &tl->runs[tl->nruns];
	x->sp = *sp;
	x->sp.cores = NULL;
	x->sp.ncores = 0;
	x->cores = cores;
	if (x->sp.began <= 0 || x->sp.ended < x->sp.began)
		x->sp.began = x->sp.ended = 0;
	x->host = host;
	x->set = timeline_intern(tl, ran, nran);
	x->bad = tl->nbads;
	x->nbad = nbad;
	for (i = 0; i < nbad; i++) {
		tl->bads = xgrow(tl->bads, tl->nbads, sizeof *tl->bads);
		tl->bads[tl->nbads++] = bad[i];
	}
	if (x->sp.ended - x->sp.began > tl->longest)
		tl->longest = x->sp.ended - x->sp.began;
	/* Runs end about in the order they started: the place is near the
	 * end. */
	for (i = tl->nruns; i > 0 && tl->runs[tl->order[i - 1]].sp.began > x->sp.began; i--)
		tl->order[i] = tl->order[i - 1];
	tl->order[i] = tl->nruns++;
}

void
timeline_add_outcome(struct results *r, const struct timeline_span *sp, const struct outcome *o)
{
	long *ran = xmalloc(sizeof *ran * (o->ntests + 1));
	long *bad = xmalloc(sizeof *bad * (o->ntests + 1));
	struct timeline *tl = timeline_of(r);
	size_t i, nran = 0, nbad = 0;

	for (i = 0; !o->unreliable && i < o->ntests; i++) {
		char *id;
		const struct results_test *t;

		if (o->tests[i].status == OUTCOME_SKIP)
			continue;
		id = xasprintf("%s::%s", r->pkgs[sp->pkg].name, o->tests[i].name);
		t = results_find(r, id);
		free(id);
		if (t == NULL)
			continue;
		ran[nran++] = t - r->tests;
		if (o->tests[i].status == OUTCOME_FAIL || o->tests[i].status == OUTCOME_HANG)
			bad[nbad++] = t - r->tests;
	}
	timeline_add(tl, sp, tl->host, timeline_cores(tl, sp), ran, nran, bad, nbad);
	free(ran);
	free(bad);
}

void
timeline_add_passed(struct results *r, const struct timeline_span *sp, const long *ran, size_t nran)
{
	long *copy = xmalloc(sizeof *copy * (nran + 1));
	struct timeline *tl = timeline_of(r);

	if (nran > 0)
		memcpy(copy, ran, sizeof *copy * nran);
	timeline_add(tl, sp, tl->host, timeline_cores(tl, sp), copy, nran, NULL, 0);
	free(copy);
}

void
timeline_new_host(struct results *r)
{
	struct timeline *tl = timeline_of(r);

	tl->host = ++tl->hosts;
}

/* The index in dst of src's test i, or -1. */
static long
timeline_test_in(const struct results *dst, const struct results *src, long i)
{
	const struct results_test *t = results_find(dst, src->tests[i].id);

	return t != NULL ? t - dst->tests : -1;
}

void
timeline_absorb(struct results *dst, const struct results *src)
{
	const struct timeline *st = src->timeline;
	struct timeline *tl;
	size_t i, j, k;
	int host;

	if (st == NULL)
		return;
	tl = timeline_of(dst);
	host = ++tl->hosts;
	for (i = 0; i < st->nruns; i++) {
		const struct timeline_run *x = &st->runs[i];
		const struct timeline_set *set = &st->sets[x->set];
		struct timeline_span sp = x->sp;
		long *ran = xmalloc(sizeof *ran * (set->n + 1));
		long *bad = xmalloc(sizeof *bad * (x->nbad + 1));
		size_t nran = 0, nbad = 0;

		sp.pkg = 0;
		for (k = 0; k < dst->npkgs; k++)
			if (strcmp(dst->pkgs[k].name, src->pkgs[x->sp.pkg].name) == 0)
				sp.pkg = (int)k;
		for (j = 0; j < set->n; j++)
			if ((ran[nran] = timeline_test_in(dst, src, set->tests[j])) >= 0)
				nran++;
		for (j = 0; j < x->nbad; j++)
			if ((bad[nbad] = timeline_test_in(dst, src, st->bads[x->bad + j])) >= 0)
				nbad++;
		timeline_add(tl, &sp, host,
		             x->cores > 0 ? timeline_intern_cores(tl, st->core_sets[x->cores - 1])
		                          : 0,
		             ran, nran, bad, nbad);
		free(ran);
		free(bad);
	}
}

static bool
timeline_has(const struct timeline_set *set, long test)
{
	return bsearch(&test, set->tests, set->n, sizeof test, timeline_cmp_long) != NULL;
}

/* The first place in tl->order whose run started at or after ms. */
static size_t
timeline_from(const struct timeline *tl, int64_t ms)
{
	size_t lo = 0, hi = tl->nruns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tl->runs[tl->order[mid]].sp.began < ms)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* Fills o's overlap from the runs of tl alive while run x (at place at of
 * tl->order) was, adding their packages to v->partners. */
static void
timeline_overlap(const struct timeline *tl, size_t at, struct timeline_view *v,
                 struct timeline_obs *o)
{
	const struct timeline_run *x = &tl->runs[tl->order[at]];
	size_t i, j, k;

	o->first = 0;
	o->npartners = 0;
	o->overlapped = false;
	if (x->sp.began == 0)
		return;
	o->first = v->npartners;
	for (i = timeline_from(tl, x->sp.began - tl->longest); i < tl->nruns; i++) {
		const struct timeline_run *y = &tl->runs[tl->order[i]];
		int *p;

		if (y->sp.began >= x->sp.ended)
			break;
		if (i == at || y->host != x->host || y->sp.began == 0 ||
		    y->sp.ended <= x->sp.began || y->sp.began >= x->sp.ended)
			continue;
		o->overlapped = true;
		p = v->partners + o->first;
		for (j = 0; j < o->npartners && p[j] < y->sp.pkg; j++)
			;
		if (j < o->npartners && p[j] == y->sp.pkg)
			continue;
		v->partners =
		    xrealloc(v->partners, sizeof *v->partners * (o->first + o->npartners + 1));
		p = v->partners + o->first;
		for (k = o->npartners; k > j; k--)
			p[k] = p[k - 1];
		p[j] = y->sp.pkg;
		o->npartners++;
		v->npartners++;
	}
}

/* Whether names a and b are one test, or one a subtest of the other. */
static bool
timeline_related(const char *a, const char *b)
{
	size_t na = strlen(a), nb = strlen(b);

	if (na > nb)
		return timeline_related(b, a);
	return strncmp(a, b, na) == 0 && (b[na] == '\0' || b[na] == '/');
}

/* For each set of tl, whether a test unrelated to t ran in it too (a run
 * of the whole package, not of t by itself); a new array. */
static bool *
timeline_with_others(const struct results *r, const struct timeline *tl,
                     const struct results_test *t)
{
	bool *others = xcalloc(tl->nsets + 1, sizeof *others);
	size_t i, j;

	for (i = 0; i < tl->nsets; i++)
		for (j = 0; j < tl->sets[i].n && !others[i]; j++)
			others[i] = !timeline_related(r->tests[tl->sets[i].tests[j]].test, t->test);
	return others;
}

void
timeline_view(const struct results *r, const struct results_test *t, struct timeline_view *v)
{
	const struct timeline *tl = r->timeline;
	long ti = t - r->tests;
	bool *others;
	size_t i, j;

	memset(v, 0, sizeof *v);
	if (tl == NULL)
		return;
	others = timeline_with_others(r, tl, t);
	for (i = 0; i < tl->nruns; i++) {
		const struct timeline_run *x = &tl->runs[tl->order[i]];
		struct timeline_obs *o;

		if (x->sp.pkg != t->pkg || !timeline_has(&tl->sets[x->set], ti))
			continue;
		v->obs = xrealloc(v->obs, sizeof *v->obs * (v->n + 1));
		o = &v->obs[v->n];
		memset(o, 0, sizeof *o);
		o->began = x->sp.began;
		o->ended = x->sp.ended;
		o->one = !others[x->set];
		o->cpu = x->sp.cpu;
		o->load = x->sp.load;
		o->host = x->host;
		o->cores = x->cores;
		o->ms = x->sp.ms;
		o->noise = x->sp.noise;
		for (j = 0; j < x->nbad; j++)
			o->bad = o->bad || tl->bads[x->bad + j] == ti;
		timeline_overlap(tl, i, v, o);
		v->untimed += o->began == 0;
		v->n++;
	}
	free(others);
}

void
timeline_view_free(struct timeline_view *v)
{
	free(v->obs);
	free(v->partners);
	memset(v, 0, sizeof *v);
}

bool
timeline_obs_with(const struct timeline_view *v, const struct timeline_obs *o, int pkg)
{
	size_t i;

	for (i = 0; i < o->npartners; i++)
		if (v->partners[o->first + i] == pkg)
			return true;
	return false;
}
