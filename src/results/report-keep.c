/* SPDX-License-Identifier: MIT */
/*
 * report-keep.c: keeps, between rewrites of results.json and report.txt,
 * what each test's texts were made of, and the texts. Everything a test's
 * texts read is compared here: its own results by value, what other tests
 * or the meta make of it (verdict, cascade root, causes, the cascades that
 * follow it) as the derived values. It never renders a test.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "results/causes.h"
#include "results/report-keep.h"
#include "results/report-writer.h"
#include "base/util.h"

/* What a test's texts were made of, and the texts. */
struct report_keep_test {
	struct report_kept kept;
	char *id;
	int pkg;
	bool provisional;
	struct results_cell *cells;
	int ncells;
	struct results_core *cores;
	int ncores;
	const struct results_failure *first; /* set once, never replaced */
	int64_t sweep_bad;
	long candidates[RESULTS_CANDIDATES];
	int ncandidates;
	size_t nchannels;
	char *polluter; /* its fields in one string, or NULL */
	const char *root;
	void *causes;
	size_t causes_len;
	int64_t *follow; /* (test, sweep failures, runs alone) of each cascade after it */
	size_t nfollow;
};

struct report_keep {
	struct report_keep_test *t; /* by test index */
	size_t n;
	const struct quarantine *quarantine;
	const char *quarantine_text; /* its file's bytes, replaced when it changes */
	size_t quarantine_entries;
	bool all_changed;
	report_reproduce_cb reproduce;
	void *arg;
	char *status;
	struct buf json;        /* results.json's text */
	struct jsonw_refs refs; /* the kept texts json refers to */
	struct report_writer *writer;
	int64_t counts[3];          /* passed, flaky, failing */
	int64_t harness_unexpected; /* the canaries' misbehaviour: it changes every class */
};

struct report_keep *
report_keep_new(void)
{
	struct report_keep *k = xcalloc(1, sizeof *k);

	buf_init(&k->json);
	k->writer = report_writer_new();
	return k;
}

static void
report_keep_clear(struct report_keep_test *e)
{
	free(e->kept.json);
	free(e->kept.text);
	free(e->id);
	free(e->cells);
	free(e->cores);
	free(e->polluter);
	free(e->causes);
	free(e->follow);
	memset(e, 0, sizeof *e);
}

void
report_keep_free(struct report_keep *k)
{
	size_t i;

	if (k == NULL)
		return;
	for (i = 0; i < k->n; i++)
		report_keep_clear(&k->t[i]);
	/* The writer may still be writing json. */
	report_writer_free(k->writer);
	free(k->refs.v);
	free(k->t);
	free(k->status);
	buf_free(&k->json);
	free(k);
}

static char *
report_keep_polluter(const struct results_test *t)
{
	const struct results_polluter *p = t->polluter;
	struct buf b;
	size_t i;

	if (p == NULL)
		return NULL;
	/* Its fields apart by a unit separator, a 1 or 0 before a string
	 * that may be NULL: strcmp compares them all. */
	buf_init(&b);
	buf_printf(&b, "%d%s\x1f%s\x1f%d%s\x1f%lld\x1f%lld", p->test != NULL,
	           p->test != NULL ? p->test : "", p->seed != NULL ? p->seed : "",
	           p->command != NULL, p->command != NULL ? p->command : "", (long long)p->runs,
	           (long long)p->search_runs);
	for (i = 0; i < p->nmore; i++)
		buf_printf(&b, "\x1f%s\x1f%s\x1f%d%s", p->more[i].test, p->more[i].seed,
		           p->more[i].command != NULL,
		           p->more[i].command != NULL ? p->more[i].command : "");
	return buf_steal(&b);
}

static size_t
report_keep_nchannels(const struct results_test *t)
{
	size_t n = 0;

	while (t->channels != NULL && t->channels[n] != NULL)
		n++;
	return n;
}

static int
report_keep_cmp_rows(const void *a, const void *b)
{
	const int64_t *x = a, *y = b;

	if (x[0] != y[0])
		return x[0] < y[0] ? -1 : 1;
	return x[1] < y[1] ? -1 : x[1] > y[1];
}

/* The cascades that follow each test, as (root, test, sweep failures,
 * runs alone) rows sorted by root, then test: *nrows of them. */
static int64_t *
report_keep_follow(const struct results *r, const struct report_derived *d, size_t *nrows)
{
	int64_t *rows = xcalloc(d->ncascades * 4 + 1, sizeof *rows);
	size_t i, n = 0;
	int k;

	for (i = 0; i < d->ncascades; i++) {
		const struct results_test *c = d->cascades[i];
		const char *root = results_cascade_root(c);
		int64_t alone = 0;

		for (k = 0; k < c->ncells; k++)
			if (c->cells[k].phase != RESULTS_SWEEP)
				alone += c->cells[k].runs;
		for (k = 0; k < c->ncandidates; k++) {
			if (r->tests[c->candidates[k]].test != root)
				continue;
			rows[n * 4] = c->candidates[k];
			rows[n * 4 + 1] = c - r->tests;
			rows[n * 4 + 2] = c->sweep_bad;
			rows[n * 4 + 3] = alone;
			n++;
			break;
		}
	}
	qsort(rows, n, 4 * sizeof *rows, report_keep_cmp_rows);
	*nrows = n;
	return rows;
}

/* Test i's rows of follow (nrows of them, sorted by test): *n rows from
 * the returned one. *at is where the search starts, moved past test i's:
 * the tests asked in order, the rows are walked once. */
static const int64_t *
report_keep_follow_of(const int64_t *follow, size_t nrows, size_t i, size_t *at, size_t *n)
{
	const int64_t *first;

	while (*at < nrows && follow[*at * 4] < (int64_t)i)
		(*at)++;
	first = &follow[*at * 4];
	for (*n = 0; *at < nrows && follow[*at * 4] == (int64_t)i; (*at)++)
		(*n)++;
	return first;
}

/* Whether t's own results are what e was made of: what its causes'
 * p-values read too. */
static bool
report_keep_own_same(const struct report_keep_test *e, const struct results_test *t,
                     bool provisional, const char *polluter)
{
	return e->id != NULL && e->pkg == t->pkg && e->provisional == provisional &&
	       e->ncells == t->ncells && e->ncores == t->ncores && e->first == t->first &&
	       e->sweep_bad == t->sweep_bad && e->ncandidates == t->ncandidates &&
	       memcmp(e->candidates, t->candidates, sizeof e->candidates) == 0 &&
	       e->nchannels == report_keep_nchannels(t) && strcmp(e->id, t->id) == 0 &&
	       (t->ncells == 0 ||
	        memcmp(e->cells, t->cells, sizeof *t->cells * (size_t)t->ncells) == 0) &&
	       (t->ncores == 0 ||
	        memcmp(e->cores, t->cores, sizeof *t->cores * (size_t)t->ncores) == 0) &&
	       (e->polluter == NULL) == (polluter == NULL) &&
	       (polluter == NULL || strcmp(e->polluter, polluter) == 0);
}

/* Whether what other tests make of t is what e was made of. Its verdict
 * and cascade root are worked out again only when they read other tests
 * (its cascade candidates): else they follow from its cells. */
static bool
report_keep_derived_same(const struct report_keep_test *e, const struct results_test *t,
                         const void *causes, size_t causes_len, const int64_t *follow,
                         size_t nfollow)
{
	return (t->ncandidates == 0 ||
	        (e->kept.verdict == results_verdict(t) && e->root == results_cascade_root(t))) &&
	       e->causes_len == causes_len &&
	       (causes_len == 0 || memcmp(e->causes, causes, causes_len) == 0) &&
	       e->nfollow == nfollow &&
	       (nfollow == 0 || memcmp(e->follow, follow, nfollow * 4 * sizeof *follow) == 0);
}

static void *
report_keep_dup(const void *p, size_t n)
{
	void *q = xmalloc(n + 1);

	if (n > 0)
		memcpy(q, p, n);
	return q;
}

static void
report_keep_store(struct report_keep_test *e, const struct results_test *t,
                  const struct quarantine *q, bool provisional, const void *causes,
                  size_t causes_len, const int64_t *follow, size_t nfollow)
{
	report_keep_clear(e);
	e->id = xstrdup(t->id);
	e->pkg = t->pkg;
	e->provisional = provisional;
	e->ncells = t->ncells;
	e->cells = report_keep_dup(t->cells, sizeof *t->cells * (size_t)t->ncells);
	e->ncores = t->ncores;
	e->cores = report_keep_dup(t->cores, sizeof *t->cores * (size_t)t->ncores);
	e->first = t->first;
	e->sweep_bad = t->sweep_bad;
	memcpy(e->candidates, t->candidates, sizeof e->candidates);
	e->ncandidates = t->ncandidates;
	e->nchannels = report_keep_nchannels(t);
	e->polluter = report_keep_polluter(t);
	e->root = results_cascade_root(t);
	e->causes = report_keep_dup(causes, causes_len);
	e->causes_len = causes_len;
	e->follow = report_keep_dup(follow, nfollow * 4 * sizeof *follow);
	e->nfollow = nfollow;
	e->kept.verdict = results_verdict(t);
	e->kept.quarantined = q != NULL && quarantine_has_test(q, t->id);
}

/* What every text reads: a new one of them changes every test. */
static void
report_keep_meta(struct report_keep *k, const struct results *r, const struct report_meta *m)
{
	const char *qtext = m->quarantine != NULL ? m->quarantine->text : NULL;
	size_t i, qentries = m->quarantine != NULL ? m->quarantine->nentries : 0;

	k->all_changed = k->quarantine != m->quarantine || k->quarantine_text != qtext ||
	                 k->quarantine_entries != qentries || k->reproduce != m->reproduce ||
	                 k->arg != m->arg || k->status == NULL ||
	                 strcmp(k->status, m->status) != 0 ||
	                 k->harness_unexpected != r->harness.unexpected;
	if (k->all_changed) {
		k->harness_unexpected = r->harness.unexpected;
		for (i = 0; i < k->n; i++)
			report_keep_clear(&k->t[i]);
		k->quarantine = m->quarantine;
		k->quarantine_text = qtext;
		k->quarantine_entries = qentries;
		k->reproduce = m->reproduce;
		k->arg = m->arg;
		free(k->status);
		k->status = xstrdup(m->status);
	}
	if (r->ntests > k->n) {
		k->t = xrealloc(k->t, r->ntests * sizeof *k->t);
		memset(k->t + k->n, 0, (r->ntests - k->n) * sizeof *k->t);
		k->n = r->ntests;
	}
}

/* Judges each quarantine entry on the very results it joins: only the
 * entries of tests whose results changed gather their evidence again,
 * and every entry is judged again, as the clock moves. */
static void
report_keep_judge(struct report_keep *k, const struct results *r, const struct report_meta *m)
{
	size_t i;

	if (m->quarantine == NULL)
		return;
	if (k->all_changed) {
		quarantine_evaluate(m->quarantine, r, NULL, QUARANTINE_DEFAULT_MIN_RUNS, m->now_ms);
		return;
	}
	for (i = 0; i < r->ntests; i++) {
		if (k->t[i].kept.changed)
			quarantine_evaluate_test(m->quarantine, &r->tests[i]);
	}
	quarantine_judge_all(m->quarantine, QUARANTINE_DEFAULT_MIN_RUNS, m->now_ms);
}

void
report_keep_derive(struct report_keep *k, const struct results *r, const struct report_meta *m,
                   struct report_derived *d)
{
	const void **kept = xcalloc(r->ntests + 1, sizeof *kept);
	bool *own = xcalloc(r->ntests + 1, sizeof *own), *provisional;
	size_t i, nrows, nfollow, causes_len, at = 0;
	int64_t *follow;

	/* The writer may still be writing texts this frees (a report made
	 * between two rewrites). */
	report_writer_idle(k->writer);
	report_keep_meta(k, r, m);
	provisional = xcalloc(r->ntests + 1, sizeof *provisional);
	for (i = 0; i < r->ntests; i++) {
		const struct results_test *t = &r->tests[i];
		struct report_keep_test *e = &k->t[i];
		char *polluter = report_keep_polluter(t);

		provisional[i] = strcmp(m->status, "complete") != 0 &&
		                 (m->provisional == NULL || m->provisional(m->arg, t));
		own[i] = report_keep_own_same(e, t, provisional[i], polluter);
		if (own[i] && e->causes_len > 0)
			kept[i] = e->causes;
		free(polluter);
	}
	/* The causes of a test whose results did not change are not tested
	 * again; their q-values are adjusted anew over every test. */
	d->causes = causes_new_kept(r, kept);
	d->cascades = results_cascades(r, &d->ncascades);
	follow = report_keep_follow(r, d, &nrows);
	memset(k->counts, 0, sizeof k->counts);
	for (i = 0; i < r->ntests; i++) {
		const struct results_test *t = &r->tests[i];
		struct report_keep_test *e = &k->t[i];
		const void *causes = causes_key(d->causes, i, &causes_len);
		const int64_t *mine = report_keep_follow_of(follow, nrows, i, &at, &nfollow);
		bool changed =
		    !own[i] || !report_keep_derived_same(e, t, causes, causes_len, mine, nfollow);

		if (changed)
			report_keep_store(e, t, m->quarantine, provisional[i], causes, causes_len,
			                  mine, nfollow);
		e->kept.changed = changed;
		if (e->kept.verdict == RESULTS_PASSED)
			k->counts[0]++;
		else if (e->kept.verdict == RESULTS_FLAKY)
			k->counts[1]++;
		else if (e->kept.verdict == RESULTS_FAILING)
			k->counts[2]++;
	}
	report_keep_judge(k, r, m);
	free(follow);
	free(provisional);
	free(own);
	free(kept);
}

struct report_kept *
report_keep_at(struct report_keep *k, size_t i)
{
	return &k->t[i].kept;
}

bool
report_keep_provisional(const struct report_keep *k, size_t i)
{
	return k->t[i].provisional;
}

void
report_keep_counts(const struct report_keep *k, int64_t *passed, int64_t *flaky, int64_t *failing)
{
	*passed = k->counts[0];
	*flaky = k->counts[1];
	*failing = k->counts[2];
}

struct buf *
report_keep_json_buf(struct report_keep *k)
{
	return &k->json;
}

struct jsonw_refs *
report_keep_json_refs(struct report_keep *k)
{
	return &k->refs;
}

struct report_writer *
report_keep_writer(struct report_keep *k)
{
	return k->writer;
}
