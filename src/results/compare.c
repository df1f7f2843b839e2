/* SPDX-License-Identifier: MIT */
/*
 * compare.c: per test and pair, Fisher's exact test of before's and
 * after's failure rates, a Benjamini-Hochberg control over every pair
 * compared, and the verdict rules of man 1 flakesweep (COMPARE). Sweep and
 * confirm cells of a pair are summed: a pair's rate does not depend on the
 * phase that measured it. It never reads files or prints.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/compare-duration.h"
#include "results/compare.h"
#include "results/results.h"
#include "base/sanitize.h"
#include "results/stats.h"
#include "base/util.h"

/* Runs needed are searched up to this many; past it the flake is too rare
 * for the level to be shown at all. */
#define COMPARE_RUNS_MAX 100000000LL

void
compare_options_default(struct compare_options *o)
{
	o->alpha = 0.05;
	o->level = -1;
	o->margin = 0.2;
}

static struct compare_pair *
compare_get_pair(struct compare_test *t, int cpu, int load)
{
	struct compare_pair *p;
	int i;

	for (i = 0; i < t->npairs; i++)
		if (t->pairs[i].cpu == cpu && t->pairs[i].load == load)
			return &t->pairs[i];
	t->pairs = xrealloc(t->pairs, sizeof *t->pairs * (size_t)(t->npairs + 1));
	p = &t->pairs[t->npairs++];
	memset(p, 0, sizeof *p);
	p->cpu = cpu;
	p->load = load;
	p->p_lower = p->p_higher = p->q = 1;
	return p;
}

static void
compare_add_cells(struct compare_test *ct, const struct results_test *rt, bool after)
{
	int i;

	for (i = 0; i < rt->ncells; i++) {
		const struct results_cell *c = &rt->cells[i];
		struct compare_pair *p = compare_get_pair(ct, c->cpu, c->load);
		struct compare_counts *k = after ? &p->after : &p->before;

		k->runs += c->runs;
		k->failures += c->failures + c->hangs;
	}
}

static int
compare_test_cmp(const void *a, const void *b)
{
	return strcmp(((const struct compare_test *)a)->id, ((const struct compare_test *)b)->id);
}

static int
compare_pair_cmp(const void *a, const void *b)
{
	const struct compare_pair *x = a, *y = b;

	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->load < y->load ? -1 : x->load > y->load;
}

const struct compare_test *
compare_find(const struct compare *c, const char *id)
{
	struct compare_test key = {.id = (char *)id};

	if (c->ntests == 0)
		return NULL;
	return bsearch(&key, c->tests, c->ntests, sizeof *c->tests, compare_test_cmp);
}

/* The runs of one side of t over every pair. */
static int64_t
compare_side_runs(const struct compare_test *t, bool after)
{
	int64_t n = 0;
	int i;

	for (i = 0; i < t->npairs; i++)
		n += after ? t->pairs[i].after.runs : t->pairs[i].before.runs;
	return n;
}

/* The verdict at a pair from its counts and q-value, before any runs are
 * projected. */
static enum compare_verdict
compare_decide(const struct compare_options *o, const struct compare_pair *p, double q)
{
	const struct compare_counts *b = &p->before, *a = &p->after;
	double rb, ra, blo, bhi, alo, ahi, d, lo, hi, band;

	if (b->failures == 0 && a->failures == 0)
		return COMPARE_UNCHANGED;
	rb = (double)b->failures / (double)b->runs;
	ra = (double)a->failures / (double)a->runs;
	if (q < o->alpha && ra > rb)
		return COMPARE_WORSE;
	if (b->failures == 0)
		return COMPARE_NEW;
	results_wilson(b->failures, b->runs, &blo, &bhi);
	results_wilson(a->failures, a->runs, &alo, &ahi);
	if (q < o->alpha && ra < rb)
		return ahi < p->level ? COMPARE_FIXED : COMPARE_RARER;
	/* Unchanged: Newcombe's hybrid score interval of the difference lies
	 * within the margin around before's rate. */
	d = ra - rb;
	lo = d - sqrt((ra - alo) * (ra - alo) + (bhi - rb) * (bhi - rb));
	hi = d + sqrt((ahi - ra) * (ahi - ra) + (rb - blo) * (rb - blo));
	band = o->margin * rb;
	if (lo > -band && hi < band)
		return COMPARE_UNCHANGED;
	return COMPARE_INCONCLUSIVE;
}

/* After runs, all passing, that would make the pair fixed at the
 * unadjusted alpha: the smallest n with Fisher's p below alpha and the
 * upper bound of 0 in n below the level. 0 when no count up to
 * COMPARE_RUNS_MAX does. */
static int64_t
compare_runs_needed(const struct compare_options *o, const struct compare_pair *p)
{
	struct compare_pair try = *p;
	int64_t lo = 1, hi = 1;

	for (;;) {
		try.after.runs = hi;
		try.after.failures = 0;
		stats_fisher(p->before.failures, p->before.runs, 0, hi, &try.p_lower, NULL);
		if (compare_decide(o, &try, try.p_lower) == COMPARE_FIXED)
			break;
		if (hi >= COMPARE_RUNS_MAX)
			return 0;
		lo = hi + 1;
		hi *= 2;
	}
	while (lo < hi) {
		int64_t mid = lo + (hi - lo) / 2;

		try.after.runs = mid;
		stats_fisher(p->before.failures, p->before.runs, 0, mid, &try.p_lower, NULL);
		if (compare_decide(o, &try, try.p_lower) == COMPARE_FIXED)
			hi = mid;
		else
			lo = mid + 1;
	}
	return hi;
}

/* The test's verdict from its pairs: failures where it never failed before make it new,
 * a pair that got significantly worse makes it worse; otherwise the pair where before failed most
 * surely (the highest lower bound) measured on both sides decides, because that is where a fix has
 * to show. */
static void
compare_test_pairs_verdict(struct compare_test *t)
{
	double best = -1;
	int i;
	bool failed_before = false, failed_after = false;

	t->decisive = -1;
	for (i = 0; i < t->npairs; i++) {
		const struct compare_pair *p = &t->pairs[i];

		failed_before |= p->before.failures > 0;
		failed_after |= p->after.failures > 0;
	}
	for (i = 0; failed_before && i < t->npairs; i++)
		if (t->pairs[i].compared && t->pairs[i].verdict == COMPARE_WORSE) {
			t->verdict = COMPARE_WORSE;
			t->decisive = i;
			return;
		}
	if (!failed_before) {
		t->verdict = failed_after ? COMPARE_NEW : COMPARE_UNCHANGED;
		for (i = 0; failed_after && i < t->npairs; i++)
			if (t->pairs[i].after.failures > 0) {
				t->decisive = i;
				break;
			}
		return;
	}
	for (i = 0; i < t->npairs; i++) {
		const struct compare_pair *p = &t->pairs[i];
		double lo, hi;

		if (p->before.failures == 0)
			continue;
		results_wilson(p->before.failures, p->before.runs, &lo, &hi);
		/* A pair after did not measure decides only when no measured one
		 * can: then the test is inconclusive there. */
		if (p->compared)
			lo += 2;
		if (lo > best) {
			best = lo;
			t->decisive = i;
		}
	}
	t->verdict = t->pairs[t->decisive].verdict;
	t->runs_needed = t->pairs[t->decisive].runs_needed;
}

/* A test after never ran is not run, whatever before measured: it cannot
 * be unchanged. Its decisive pair still shows before's worst. One before
 * never ran is new when it failed after, else not run too. */
static void
compare_test_verdict(struct compare_test *t)
{
	compare_test_pairs_verdict(t);
	if (compare_side_runs(t, true) == 0 ||
	    (compare_side_runs(t, false) == 0 && t->verdict == COMPARE_UNCHANGED))
		t->verdict = COMPARE_NOT_RUN;
}

struct compare *
compare_new(const struct results *before, const struct results *after,
            const struct compare_options *opts)
{
	struct compare *c = xcalloc(1, sizeof *c);
	struct compare_pair **fam;
	double *p, *q;
	size_t i, n = 0, nfam = 0;
	int k;

	c->opts = *opts;
	c->tests = xcalloc(before->ntests + after->ntests + 1, sizeof *c->tests);
	for (i = 0; i < before->ntests; i++) {
		struct compare_test *t = &c->tests[n++];

		t->id = xstrdup(before->tests[i].id);
		compare_add_cells(t, &before->tests[i], false);
	}
	c->ntests = n;
	qsort(c->tests, c->ntests, sizeof *c->tests, compare_test_cmp);
	for (i = 0; i < after->ntests; i++) {
		struct compare_test *t = (struct compare_test *)compare_find(c, after->tests[i].id);

		if (t == NULL) {
			t = &c->tests[n++];
			t->id = xstrdup(after->tests[i].id);
		}
		compare_add_cells(t, &after->tests[i], true);
	}
	c->ntests = n;
	qsort(c->tests, c->ntests, sizeof *c->tests, compare_test_cmp);

	/* One family of hypotheses: every pair measured on both sides where
	 * either side failed. */
	for (i = 0; i < c->ntests; i++)
		nfam += (size_t)c->tests[i].npairs;
	fam = xcalloc(nfam + 1, sizeof *fam);
	p = xcalloc(nfam + 1, sizeof *p);
	q = xcalloc(nfam + 1, sizeof *q);
	nfam = 0;
	for (i = 0; i < c->ntests; i++) {
		struct compare_test *t = &c->tests[i];

		/* A test without cells has no pairs: pairs is NULL. */
		if (t->npairs > 1)
			qsort(t->pairs, (size_t)t->npairs, sizeof *t->pairs, compare_pair_cmp);
		for (k = 0; k < t->npairs; k++) {
			struct compare_pair *pp = &t->pairs[k];
			double blo, bhi;

			results_wilson(pp->before.failures, pp->before.runs, &blo, &bhi);
			pp->level = opts->level >= 0 ? opts->level : blo / 10;
			pp->compared =
			    pp->after.runs > 0 && (pp->before.runs > 0 || pp->after.failures > 0);
			if (pp->before.runs == 0 || pp->after.runs == 0)
				continue;
			if (pp->before.failures == 0 && pp->after.failures == 0)
				continue;
			stats_fisher(pp->before.failures, pp->before.runs, pp->after.failures,
			             pp->after.runs, &pp->p_lower, &pp->p_higher);
			/* Both directions are asked: double the smaller tail. */
			p[nfam] = 2 * (pp->p_lower < pp->p_higher ? pp->p_lower : pp->p_higher);
			if (p[nfam] > 1)
				p[nfam] = 1;
			fam[nfam++] = pp;
		}
	}
	stats_bh(p, nfam, q);
	for (i = 0; i < nfam; i++)
		fam[i]->q = q[i];
	for (i = 0; i < c->ntests; i++) {
		struct compare_test *t = &c->tests[i];

		for (k = 0; k < t->npairs; k++) {
			struct compare_pair *pp = &t->pairs[k];

			if (!pp->compared) {
				pp->verdict = COMPARE_INCONCLUSIVE;
				if (pp->before.failures > 0)
					pp->runs_needed = compare_runs_needed(opts, pp);
				continue;
			}
			if (pp->before.runs == 0) {
				pp->verdict = COMPARE_NEW;
				continue;
			}
			pp->verdict = compare_decide(opts, pp, pp->q);
			if (pp->verdict == COMPARE_INCONCLUSIVE)
				pp->runs_needed = compare_runs_needed(opts, pp);
		}
		compare_test_verdict(t);
	}
	free(fam);
	free(p);
	free(q);
	compare_durations(c, before, after);
	return c;
}

void
compare_free(struct compare *c)
{
	size_t i;

	if (c == NULL)
		return;
	for (i = 0; i < c->ntests; i++) {
		free(c->tests[i].id);
		free(c->tests[i].pairs);
		bandaid_list_free(&c->tests[i].bandaids);
	}
	free(c->tests);
	free(c);
}

const char *
compare_verdict_name(enum compare_verdict v)
{
	switch (v) {
	case COMPARE_FIXED:
		return "fixed";
	case COMPARE_RARER:
		return "rarer";
	case COMPARE_UNCHANGED:
		return "unchanged";
	case COMPARE_WORSE:
		return "worse";
	case COMPARE_NEW:
		return "new";
	case COMPARE_NOT_RUN:
		return "not run";
	case COMPARE_MASKED:
		return "masked";
	case COMPARE_SKIPPED:
		return "skipped";
	case COMPARE_INCONCLUSIVE:
		break;
	}
	return "inconclusive";
}

static cJSON *
compare_counts_json(const struct compare_counts *k)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "runs", (double)k->runs);
	cJSON_AddNumberToObject(o, "failures", (double)k->failures);
	return o;
}

cJSON *
compare_bandaids_json(const struct compare_test *t)
{
	cJSON *list = cJSON_CreateArray();
	size_t i;

	for (i = 0; i < t->bandaids.n; i++) {
		const struct bandaid *b = &t->bandaids.items[i];
		cJSON *o = cJSON_CreateObject();

		cJSON_AddStringToObject(o, "kind", b->kind);
		cJSON_AddStringToObject(o, "file", b->file);
		cJSON_AddNumberToObject(o, "line", b->line);
		cJSON_AddStringToObject(o, "text", b->text);
		cJSON_AddItemToArray(list, o);
	}
	return list;
}

cJSON *
compare_to_json(const struct compare *c, const char *before, const char *after)
{
	cJSON *root = cJSON_CreateObject(), *o, *tests, *sum;
	int64_t counts[COMPARE_VERDICTS] = {0};
	size_t i;
	int k;

	cJSON_AddStringToObject(root, "schema", "flakesweep/compare/v1");
	cJSON_AddStringToObject(root, "before", before);
	cJSON_AddStringToObject(root, "after", after);
	o = cJSON_AddObjectToObject(root, "options");
	cJSON_AddNumberToObject(o, "alpha", c->opts.alpha);
	if (c->opts.level >= 0)
		cJSON_AddNumberToObject(o, "level", c->opts.level);
	else
		cJSON_AddNullToObject(o, "level");
	cJSON_AddNumberToObject(o, "margin", c->opts.margin);
	tests = cJSON_AddArrayToObject(root, "tests");
	for (i = 0; i < c->ntests; i++) {
		const struct compare_test *t = &c->tests[i];
		cJSON *jt = cJSON_CreateObject(), *pairs, *dur;

		counts[t->verdict]++;
		cJSON_AddStringToObject(jt, "id", t->id);
		cJSON_AddStringToObject(jt, "verdict", compare_verdict_name(t->verdict));
		if (t->decisive >= 0) {
			cJSON *d = cJSON_AddObjectToObject(jt, "pair");
			cJSON_AddNumberToObject(d, "cpu", t->pairs[t->decisive].cpu);
			cJSON_AddNumberToObject(d, "load", t->pairs[t->decisive].load);
		} else {
			cJSON_AddNullToObject(jt, "pair");
		}
		cJSON_AddNumberToObject(jt, "runs_needed", (double)t->runs_needed);
		if (t->checked)
			cJSON_AddItemToObject(jt, "bandaids", compare_bandaids_json(t));
		if (t->verdict != t->measured && t->checked)
			cJSON_AddStringToObject(jt, "measured", compare_verdict_name(t->measured));
		if ((dur = compare_duration_json(t)) != NULL)
			cJSON_AddItemToObject(jt, "duration", dur);
		pairs = cJSON_AddArrayToObject(jt, "pairs");
		for (k = 0; k < t->npairs; k++) {
			const struct compare_pair *p = &t->pairs[k];
			cJSON *jp = cJSON_CreateObject();

			cJSON_AddNumberToObject(jp, "cpu", p->cpu);
			cJSON_AddNumberToObject(jp, "load", p->load);
			cJSON_AddItemToObject(jp, "before", compare_counts_json(&p->before));
			cJSON_AddItemToObject(jp, "after", compare_counts_json(&p->after));
			cJSON_AddNumberToObject(jp, "p_lower", p->p_lower);
			cJSON_AddNumberToObject(jp, "p_higher", p->p_higher);
			cJSON_AddNumberToObject(jp, "q", p->q);
			cJSON_AddNumberToObject(jp, "level", p->level);
			cJSON_AddStringToObject(jp, "verdict", compare_verdict_name(p->verdict));
			cJSON_AddNumberToObject(jp, "runs_needed", (double)p->runs_needed);
			cJSON_AddItemToArray(pairs, jp);
		}
		cJSON_AddItemToArray(tests, jt);
	}
	sum = cJSON_AddObjectToObject(root, "summary");
	for (k = 0; k < COMPARE_VERDICTS; k++)
		cJSON_AddNumberToObject(sum, compare_verdict_name((enum compare_verdict)k),
		                        (double)counts[k]);
	return root;
}

static void
compare_text_counts(struct buf *b, const char *side, const struct compare_counts *k)
{
	if (k->runs == 0)
		buf_printf(b, _("%s not run"), side);
	else
		buf_printf(b, "%s %lld/%lld (%.1f%%)", side, (long long)k->failures,
		           (long long)k->runs, 100.0 * (double)k->failures / (double)k->runs);
}

static void
compare_text_test(struct buf *b, const struct compare_test *t)
{
	char *id = sanitize_text(t->id, strlen(t->id));
	size_t i;

	buf_printf(b, "%-12s %s", compare_verdict_name(t->verdict), id);
	free(id);
	if (t->decisive >= 0) {
		const struct compare_pair *p = &t->pairs[t->decisive];

		buf_printf(b, _(" at cpu %d load %d: "), p->cpu, p->load);
		compare_text_counts(b, _("before"), &p->before);
		buf_printf(b, ", ");
		compare_text_counts(b, _("after"), &p->after);
	}
	if (t->verdict == COMPARE_INCONCLUSIVE) {
		if (t->runs_needed > 0)
			buf_printf(b, _("; %lld passing runs after would show it fixed"),
			           (long long)t->runs_needed);
		else
			buf_printf(b, "%s", _("; too rare to show fixed at this level"));
	}
	if (t->checked && t->verdict != t->measured)
		buf_printf(b, _("; %s by the rates"), compare_verdict_name(t->measured));
	buf_printf(b, "\n");
	for (i = 0; i < t->bandaids.n; i++) {
		const struct bandaid *ba = &t->bandaids.items[i];
		char *where = xasprintf("%s:%d: %s", ba->file, ba->line, ba->text), *clean;

		clean = sanitize_text(where, strlen(where));
		buf_printf(b, _("%-12s band-aid %s at %s\n"), "", ba->kind, clean);
		free(clean);
		free(where);
	}
	compare_duration_text(b, t);
}

char *
compare_to_text(const struct compare *c, char *const *ids, size_t nids)
{
	int64_t counts[COMPARE_VERDICTS] = {0};
	struct buf b;
	size_t i, shown = 0;
	int k;

	buf_init(&b);
	for (i = 0; i < (nids > 0 ? nids : c->ntests); i++) {
		const struct compare_test *t = nids > 0 ? compare_find(c, ids[i]) : &c->tests[i];

		if (t == NULL) {
			char *id = sanitize_text(ids[i], strlen(ids[i]));

			buf_printf(&b, "%-12s %s%s\n", _("missing"), id, _(": in neither results"));
			free(id);
			continue;
		}
		counts[t->verdict]++;
		shown++;
		compare_text_test(&b, t);
	}
	buf_printf(&b, ngettext("%zu test:", "%zu tests:", shown), shown);
	for (k = 0; k <= COMPARE_INCONCLUSIVE; k++)
		buf_printf(&b, " %lld %s%s", (long long)counts[k],
		           compare_verdict_name((enum compare_verdict)k),
		           k < COMPARE_INCONCLUSIVE ? "," : "");
	/* Counted only when some test was not run, so the line of a compare of
	 * the same tests stays as it was. */
	for (k = COMPARE_NOT_RUN; k < COMPARE_VERDICTS; k++)
		if (counts[k] > 0)
			buf_printf(&b, ", %lld %s", (long long)counts[k],
			           compare_verdict_name((enum compare_verdict)k));
	buf_printf(&b, "\n");
	return buf_steal(&b);
}

void
compare_set_bandaids(struct compare *c, const char *id, struct bandaid_list *l)
{
	struct compare_test *t = (struct compare_test *)compare_find(c, id);

	if (t == NULL) {
		bandaid_list_free(l);
		return;
	}
	bandaid_list_free(&t->bandaids);
	t->bandaids = *l;
	memset(l, 0, sizeof *l);
	t->checked = true;
	t->measured = t->verdict;
	if (bandaid_skipped(&t->bandaids))
		t->verdict = COMPARE_SKIPPED;
	else if (t->bandaids.n > 0 && !t->bandaids.sync &&
	         (t->verdict == COMPARE_FIXED || t->verdict == COMPARE_RARER ||
	          t->verdict == COMPARE_INCONCLUSIVE))
		t->verdict = COMPARE_MASKED;
}

size_t
compare_ran_after(const struct compare *c, size_t *nbefore)
{
	size_t i, ran = 0;

	*nbefore = 0;
	for (i = 0; i < c->ntests; i++) {
		if (compare_side_runs(&c->tests[i], false) == 0)
			continue;
		(*nbefore)++;
		ran += c->tests[i].verdict != COMPARE_NOT_RUN;
	}
	return ran;
}

int
compare_exit_status(const struct compare *c, char *const *ids, size_t nids)
{
	size_t i, nbefore;

	if (compare_ran_after(c, &nbefore) == 0 && nbefore > 0)
		return 2;

	for (i = 0; i < nids; i++) {
		const struct compare_test *t = compare_find(c, ids[i]);

		if (t == NULL || t->verdict != COMPARE_FIXED)
			return 1;
	}
	for (i = 0; nids == 0 && i < c->ntests; i++)
		if (c->tests[i].verdict == COMPARE_WORSE || c->tests[i].verdict == COMPARE_NEW)
			return 1;
	return 0;
}
