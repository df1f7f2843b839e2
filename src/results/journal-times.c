/* SPDX-License-Identifier: MIT */
/*
 * journal-times.c: a run line's per-test times, encoded and decoded in the
 * order journal-times.h defines. It reads and writes nothing else of the
 * line.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/flatjson.h"
#include "base/util.h"
#include "results/journal-times.h"
#include "results/journal.h"

/* A passed or skipped test, for sorting. */
struct journal_times_key {
	const struct outcome_test *t;
	size_t i;
};

static int
journal_times_cmp(const void *a, const void *b)
{
	const struct outcome_test *x = ((const struct journal_times_key *)a)->t;
	const struct outcome_test *y = ((const struct journal_times_key *)b)->t;

	if (x->status != y->status)
		return x->status == OUTCOME_PASS ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* The tests of o in the times' order, as indexes into o->tests (caller
 * frees). */
static size_t *
journal_times_order(const struct outcome *o)
{
	static const enum outcome_status later[] = {OUTCOME_FAIL, OUTCOME_HANG};
	struct journal_times_key *keys = xmalloc(sizeof *keys * (o->ntests + 1));
	size_t *idx = xmalloc(sizeof *idx * (o->ntests + 1)), n = 0, i, k;

	for (i = 0; i < o->ntests; i++) {
		if (o->tests[i].status == OUTCOME_PASS || o->tests[i].status == OUTCOME_SKIP) {
			keys[n].t = &o->tests[i];
			keys[n++].i = i;
		}
	}
	qsort(keys, n, sizeof *keys, journal_times_cmp);
	for (i = 0; i < n; i++)
		idx[i] = keys[i].i;
	free(keys);
	for (k = 0; k < UTIL_ARRAY_LEN(later); k++)
		for (i = 0; i < o->ntests; i++)
			if (o->tests[i].status == later[k])
				idx[n++] = i;
	return idx;
}

void
journal_times_write(struct jsonw *w, const struct outcome *o)
{
	size_t *idx, i;
	bool any = false;

	for (i = 0; i < o->ntests && !any; i++)
		any = o->tests[i].ms >= 0;
	if (!any)
		return;
	idx = journal_times_order(o);
	jsonw_array(w, "times");
	for (i = 0; i < o->ntests; i++) {
		int64_t ms = o->tests[idx[i]].ms;

		jsonw_int(w, NULL, ms >= 0 ? ms : -1);
	}
	jsonw_end(w);
	free(idx);
}

void
journal_times_decode(const cJSON *a, struct outcome *o)
{
	const cJSON *v;
	size_t *idx, i = 0;

	if (!cJSON_IsArray(a))
		return;
	idx = journal_times_order(o);
	cJSON_ArrayForEach(v, a)
	{
		if (i >= o->ntests)
			break;
		o->tests[idx[i++]].ms = cJSON_IsNumber(v) && v->valuedouble >= 0 &&
		                                v->valuedouble <= (double)JOURNAL_NUM_MAX
		                            ? (int64_t)v->valuedouble
		                            : -1;
	}
	free(idx);
}

bool
journal_times_fast(const char *val, size_t vlen, struct outcome *o)
{
	const char *p = val, *end = val + vlen, *comma;
	size_t *idx = o != NULL ? journal_times_order(o) : NULL, i = 0;
	int64_t ms;
	bool ok = true;

	while (p < end) {
		comma = memchr(p, ',', (size_t)(end - p));
		if (!flatjson_int(p, (size_t)((comma != NULL ? comma : end) - p), -1,
		                  JOURNAL_NUM_MAX, &ms)) {
			ok = false;
			break;
		}
		if (o != NULL && i < o->ntests)
			o->tests[idx[i++]].ms = ms;
		if (comma == NULL)
			break;
		p = comma + 1;
		if (p == end) {
			ok = false;
			break;
		}
	}
	free(idx);
	return ok;
}
