/* SPDX-License-Identifier: MIT */
/*
 * junit-runs.c: reads a journal's run lines once more, after replay counted
 * them, for what the JUnit report shows of each test and results.h does not
 * keep: every failed and hung run (up to a cap), the spread of run
 * times and of the test's own times where the framework reported them. It never writes, and it
 * passes over what replay already refused.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/journal-times.h"
#include "results/journal.h"
#include "results/junit-runs.h"
#include "results/run-ids.h"

/* Run times under a second keep their millisecond; above, a bucket is
 * 1/100 of a decade wide, up to 10^10 ms. */
#define JUNIT_RUNS_EXACT_MS 1000
#define JUNIT_RUNS_PER_DECADE 100
#define JUNIT_RUNS_BUCKETS (JUNIT_RUNS_EXACT_MS + 7 * JUNIT_RUNS_PER_DECADE)

struct junit_runs_ctx {
	const char *path;
	const struct results *r;
	size_t cap;
	struct junit_runs *out;
	struct run_ids ids;
};

static int
junit_runs_bucket(int64_t ms)
{
	int b;

	if (ms < JUNIT_RUNS_EXACT_MS)
		return ms < 0 ? 0 : (int)ms;
	b = JUNIT_RUNS_EXACT_MS +
	    (int)(JUNIT_RUNS_PER_DECADE * log10((double)ms / JUNIT_RUNS_EXACT_MS));
	return b < JUNIT_RUNS_BUCKETS ? b : JUNIT_RUNS_BUCKETS - 1;
}

static int64_t
junit_runs_bucket_ms(int b)
{
	if (b < JUNIT_RUNS_EXACT_MS)
		return b;
	return llround(JUNIT_RUNS_EXACT_MS *
	               pow(10.0, (double)(b - JUNIT_RUNS_EXACT_MS) / JUNIT_RUNS_PER_DECADE));
}

/* Counts one time of ms into the buckets *times (*n of them, kept in
 * bucket order) and *runs. */
static void
junit_runs_add_time(struct junit_bucket **times, size_t *n, int64_t *runs, int64_t ms)
{
	int b = junit_runs_bucket(ms);
	size_t lo = 0, hi = *n;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if ((*times)[mid].bucket < b)
			lo = mid + 1;
		else
			hi = mid;
	}
	(*runs)++;
	if (lo < *n && (*times)[lo].bucket == b) {
		(*times)[lo].runs++;
		return;
	}
	*times = xgrow(*times, *n, sizeof **times);
	memmove(&(*times)[lo + 1], &(*times)[lo], (*n - lo) * sizeof **times);
	(*times)[lo].bucket = b;
	(*times)[lo].runs = 1;
	(*n)++;
}

static int64_t
junit_runs_median(const struct junit_bucket *times, size_t n, int64_t runs)
{
	int64_t seen = 0, half = (runs + 1) / 2;
	size_t i;

	for (i = 0; i < n; i++) {
		seen += times[i].runs;
		if (seen >= half)
			return junit_runs_bucket_ms(times[i].bucket);
	}
	return 0;
}

int64_t
junit_runs_median_ms(const struct junit_test_runs *t)
{
	if (t->nown > 0)
		return junit_runs_median(t->own, t->nown_buckets, t->nown);
	return junit_runs_median(t->times, t->ntimes, t->nruns);
}

static char *
junit_runs_cores(const struct journal_run *jr)
{
	struct buf b;
	int i;

	if (jr->ncores == 0)
		return NULL;
	buf_init(&b);
	for (i = 0; i < jr->ncores; i++)
		buf_printf(&b, "%s%d", i > 0 ? "," : "", jr->cores[i]);
	return buf_steal(&b);
}

static void
junit_runs_add_bad(struct junit_bad **list, size_t *n, int64_t *total, size_t cap,
                   const struct journal_run *jr, const struct outcome *o,
                   const struct outcome_test *ot)
{
	struct junit_bad *b;

	(*total)++;
	if (*n >= cap)
		return;
	*list = xgrow(*list, *n, sizeof **list);
	b = &(*list)[(*n)++];
	b->phase = jr->phase;
	b->cpu = jr->cpu;
	b->load = jr->load;
	b->cores = junit_runs_cores(jr);
	b->seed = o->seed != NULL ? xstrdup(o->seed) : NULL;
	b->lines = ot->lines != NULL ? xstrdup(ot->lines) : NULL;
	b->reason = ot->reason != NULL ? xstrdup(ot->reason) : NULL;
	b->run = jr->run;
}

/* Adds one run of package jr->pkg with outcome o to the tests it started. */
static void
junit_runs_add(struct junit_runs_ctx *c, const struct journal_run *jr, const struct outcome *o,
               int lineno)
{
	const struct results *r = c->r;
	size_t i;

	if (jr->pkg < 0 || (size_t)jr->pkg >= r->npkgs || o->unreliable ||
	    !run_ids_first(&c->ids, jr->run, c->path, lineno))
		return;
	for (i = 0; i < o->ntests; i++) {
		const struct outcome_test *ot = &o->tests[i];
		char *id = xasprintf("%s::%s", r->pkgs[jr->pkg].name, ot->name);
		const struct results_test *rt = results_find(r, id);
		struct junit_test_runs *t;

		free(id);
		if (rt == NULL || rt->pkg != jr->pkg)
			continue;
		t = &c->out->tests[rt - r->tests];
		junit_runs_add_time(&t->times, &t->ntimes, &t->nruns, jr->ms);
		if (ot->ms >= 0)
			junit_runs_add_time(&t->own, &t->nown_buckets, &t->nown, ot->ms);
		if (ot->status == OUTCOME_FAIL)
			junit_runs_add_bad(&t->fails, &t->nfails, &t->total_fails, c->cap, jr, o,
			                   ot);
		else if (ot->status == OUTCOME_HANG)
			junit_runs_add_bad(&t->hangs, &t->nhangs, &t->total_hangs, c->cap, jr, o,
			                   ot);
	}
}

static int
junit_runs_fast(void *arg, struct journal_reader *reader, const struct journal_fast *l, int lineno)
{
	struct outcome o;

	if (l->kind != JOURNAL_FAST_RUN)
		return 1;
	memset(&o, 0, sizeof o);
	journal_fast_outcome(reader, l, &o);
	if (l->times != NULL)
		journal_times_fast(l->times, l->times_len, &o);
	junit_runs_add(arg, &l->run, &o, lineno);
	outcome_free(&o);
	return 1;
}

static int
junit_runs_line(void *arg, struct journal_reader *reader, const cJSON *line, int lineno)
{
	const char *type = journal_line_type(line);
	struct journal_run jr;
	struct outcome o;
	char *why = NULL;

	if (type == NULL || strcmp(type, "run") != 0)
		return 0;
	memset(&o, 0, sizeof o);
	if (journal_decode_run(reader, line, &jr, &o, &why) == 0) {
		journal_times_decode(cJSON_GetObjectItemCaseSensitive(line, "times"), &o);
		junit_runs_add(arg, &jr, &o, lineno);
	}
	free(why);
	outcome_free(&o);
	return 0;
}

int
junit_runs_read(const char *path, const struct results *r, size_t cap, struct junit_runs *out,
                char **err)
{
	struct junit_runs_ctx c = {.path = path, .r = r, .cap = cap, .out = out};
	bool torn = false;
	int rc;

	memset(out, 0, sizeof *out);
	out->ntests = r->ntests;
	out->tests = xcalloc(r->ntests > 0 ? r->ntests : 1, sizeof *out->tests);
	rc = journal_read_fast(path, junit_runs_line, junit_runs_fast, &c, &torn, err);
	run_ids_free(&c.ids);
	if (rc < 0)
		junit_runs_free(out);
	return rc;
}

static void
junit_runs_free_bad(struct junit_bad *list, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(list[i].cores);
		free(list[i].seed);
		free(list[i].lines);
		free(list[i].reason);
	}
	free(list);
}

void
junit_runs_free(struct junit_runs *runs)
{
	size_t i;

	for (i = 0; i < runs->ntests; i++) {
		junit_runs_free_bad(runs->tests[i].fails, runs->tests[i].nfails);
		junit_runs_free_bad(runs->tests[i].hangs, runs->tests[i].nhangs);
		free(runs->tests[i].times);
		free(runs->tests[i].own);
	}
	free(runs->tests);
	memset(runs, 0, sizeof *runs);
}
