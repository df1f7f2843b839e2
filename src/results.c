/* SPDX-License-Identifier: MIT */
/*
 * results.c: counts runs into cells and decides verdicts. A test's runs at
 * a pair count only the runs in which it started; a run whose output
 * contradicts itself counts for nothing but the package's unreliable
 * count. It never reads files or prints.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results.h"
#include "sanitize.h"
#include "strmap.h"
#include "util.h"

struct results *
results_new(void)
{
	struct results *r = xcalloc(1, sizeof *r);

	r->index = strmap_new();
	return r;
}

static void
results_failure_free(struct results_failure *f)
{
	if (f == NULL)
		return;
	free(f->seed);
	free(f->lines);
	free(f->reason);
	free(f->log);
	free(f);
}

void
results_free(struct results *r)
{
	size_t i;

	if (r == NULL)
		return;
	for (i = 0; i < r->ntests; i++) {
		free(r->tests[i].id);
		free(r->tests[i].test);
		free(r->tests[i].cells);
		results_failure_free(r->tests[i].first);
	}
	for (i = 0; i < r->npkgs; i++) {
		free(r->pkgs[i].name);
		free(r->pkgs[i].level);
		results_failure_free(r->pkgs[i].first_outside);
	}
	free(r->tests);
	free(r->pkgs);
	strmap_free(r->index);
	free(r);
}

int
results_add_pkg(struct results *r, const char *name, const char *level)
{
	struct results_pkg *p;

	r->pkgs = xrealloc(r->pkgs, sizeof *r->pkgs * (r->npkgs + 1));
	p = &r->pkgs[r->npkgs];
	memset(p, 0, sizeof *p);
	p->name = xstrdup(name);
	p->level = xstrdup(level);
	return (int)r->npkgs++;
}

void
results_note_leak(struct results *r, int pkg)
{
	r->pkgs[pkg].leaked_runs++;
}

bool
results_order_dependent(const struct results_test *t)
{
	int64_t sweep_bad = 0, confirm_runs = 0, confirm_bad = 0;
	int i;

	if (t->first == NULL || t->first->seed == NULL)
		return false;
	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *c = &t->cells[i];

		if (c->phase == RESULTS_SWEEP) {
			sweep_bad += c->failures + c->hangs;
		} else {
			confirm_runs += c->runs;
			confirm_bad += c->failures + c->hangs;
		}
	}
	return sweep_bad > 0 && confirm_runs > 0 && confirm_bad == 0;
}

const struct results_test *
results_first_failed_in(const struct results *r, int pkg, const struct outcome_test *ot,
                        int64_t run)
{
	const struct results_test *t;
	char *id;

	if (ot->status != OUTCOME_FAIL && ot->status != OUTCOME_HANG)
		return NULL;
	id = xasprintf("%s::%s", r->pkgs[pkg].name, ot->name);
	t = results_find(r, id);
	free(id);
	return t != NULL && t->first != NULL && t->first->run == run ? t : NULL;
}

struct results_test *
results_find(const struct results *r, const char *id)
{
	long i = strmap_get(r->index, id);

	return i >= 0 ? &r->tests[i] : NULL;
}

struct results_test *
results_add_test(struct results *r, int pkg, const char *id, const char *name)
{
	struct results_test *t;

	r->tests = xrealloc(r->tests, sizeof *r->tests * (r->ntests + 1));
	t = &r->tests[r->ntests];
	memset(t, 0, sizeof *t);
	t->id = xstrdup(id);
	t->test = xstrdup(name);
	t->pkg = pkg;
	strmap_set(r->index, t->id, (long)r->ntests);
	r->ntests++;
	return t;
}

static struct results_test *
results_get_test(struct results *r, int pkg, const char *name)
{
	char *id = xasprintf("%s::%s", r->pkgs[pkg].name, name);
	struct results_test *t = results_find(r, id);

	if (t == NULL)
		t = results_add_test(r, pkg, id, name);
	free(id);
	return t;
}

static struct results_cell *
results_get_cell(struct results_test *t, enum results_phase phase, int cpu, int load)
{
	struct results_cell *c;
	int i;

	for (i = 0; i < t->ncells; i++) {
		c = &t->cells[i];
		if (c->phase == phase && c->cpu == cpu && c->load == load)
			return c;
	}
	t->cells = xrealloc(t->cells, sizeof *t->cells * (size_t)(t->ncells + 1));
	c = &t->cells[t->ncells++];
	memset(c, 0, sizeof *c);
	c->phase = phase;
	c->cpu = cpu;
	c->load = load;
	return c;
}

static struct results_failure *
results_failure_new(enum results_phase phase, int cpu, int load, const struct outcome *o,
                    const char *lines, const char *reason, const char *log, int64_t run)
{
	struct results_failure *f = xcalloc(1, sizeof *f);

	f->phase = phase;
	f->cpu = cpu;
	f->load = load;
	f->seed = o->seed != NULL ? xstrdup(o->seed) : NULL;
	f->lines = lines != NULL ? sanitize_text(lines, strlen(lines)) : xstrdup("");
	f->reason = reason != NULL ? sanitize_text(reason, strlen(reason)) : NULL;
	f->log = log != NULL ? xstrdup(log) : NULL;
	f->run = run;
	return f;
}

int
results_add_run(struct results *r, int pkg, enum results_phase phase, int cpu, int load,
                const struct outcome *o, const char *log, int64_t run)
{
	struct results_pkg *p = &r->pkgs[pkg];
	int fresh = 0;
	size_t i;

	r->runs++;
	p->runs++;
	if (o->unreliable)
		p->unreliable_runs++;
	if (o->package_failed) {
		p->failures_outside_tests++;
		if (p->first_outside == NULL) {
			struct buf b;

			buf_init(&b);
			if (o->package_reason != NULL)
				buf_printf(&b, "%s\n", o->package_reason);
			if (o->package_lines != NULL)
				buf_adds(&b, o->package_lines);
			p->first_outside =
			    results_failure_new(phase, cpu, load, o, b.data, NULL, log, run);
			buf_free(&b);
		}
	}
	/* A run whose results contradict themselves counts for no test. */
	for (i = 0; !o->unreliable && i < o->ntests; i++) {
		const struct outcome_test *ot = &o->tests[i];
		struct results_test *t;
		struct results_cell *c;

		t = results_get_test(r, pkg, ot->name);
		/* A skipped test is listed but did not run: it adds nothing to
		 * its denominator. */
		if (ot->status == OUTCOME_SKIP)
			continue;
		c = results_get_cell(t, phase, cpu, load);
		c->runs++;
		if (ot->status == OUTCOME_FAIL) {
			c->failures++;
			r->failures++;
		} else if (ot->status == OUTCOME_HANG) {
			c->hangs++;
			r->hangs++;
		} else {
			continue;
		}
		if (t->first == NULL) {
			t->first = results_failure_new(phase, cpu, load, o, ot->lines, ot->reason,
			                               log, run);
			fresh++;
		}
	}
	return fresh;
}

void
results_test_totals(const struct results_test *t, int64_t *runs, int64_t *failures, int64_t *hangs)
{
	int i;

	*runs = *failures = *hangs = 0;
	for (i = 0; i < t->ncells; i++) {
		*runs += t->cells[i].runs;
		*failures += t->cells[i].failures;
		*hangs += t->cells[i].hangs;
	}
}

enum results_verdict
results_verdict(const struct results_test *t)
{
	bool any = false;
	int i;

	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *c = &t->cells[i];
		int64_t bad = c->failures + c->hangs;

		if (c->runs > 0 && bad == c->runs)
			return RESULTS_FAILING;
		if (bad > 0)
			any = true;
	}
	return any ? RESULTS_FLAKY : RESULTS_PASSED;
}

const char *
results_verdict_name(enum results_verdict v)
{
	switch (v) {
	case RESULTS_FLAKY:
		return "flaky";
	case RESULTS_FAILING:
		return "failing";
	case RESULTS_PASSED:
		break;
	}
	return "passed";
}

const char *
results_phase_name(enum results_phase p)
{
	return p == RESULTS_CONFIRM ? "confirm" : "sweep";
}

const struct results_cell *
results_worst_cell(const struct results_test *t)
{
	const struct results_cell *best = NULL;
	double best_rate = 0;
	int i;

	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *c = &t->cells[i];
		double rate;

		if (c->runs == 0 || c->failures + c->hangs == 0)
			continue;
		rate = (double)(c->failures + c->hangs) / (double)c->runs;
		if (best == NULL || rate > best_rate ||
		    (rate == best_rate && c->phase == RESULTS_CONFIRM &&
		     best->phase == RESULTS_SWEEP)) {
			best = c;
			best_rate = rate;
		}
	}
	return best;
}

void
results_wilson(int64_t k, int64_t n, double *lo, double *hi)
{
	const double z = 1.959963984540054;
	double p, denom, centre, half;

	if (n <= 0) {
		*lo = 0;
		*hi = 1;
		return;
	}
	p = (double)k / (double)n;
	denom = 1 + z * z / (double)n;
	centre = (p + z * z / (2.0 * (double)n)) / denom;
	half = z * sqrt(p * (1 - p) / (double)n + z * z / (4.0 * (double)n * (double)n)) / denom;
	*lo = centre - half < 0 ? 0 : centre - half;
	*hi = centre + half > 1 ? 1 : centre + half;
}

void
results_counts(const struct results *r, int64_t *passed, int64_t *flaky, int64_t *failing)
{
	size_t i;

	*passed = *flaky = *failing = 0;
	for (i = 0; i < r->ntests; i++) {
		switch (results_verdict(&r->tests[i])) {
		case RESULTS_PASSED:
			(*passed)++;
			break;
		case RESULTS_FLAKY:
			(*flaky)++;
			break;
		case RESULTS_FAILING:
			(*failing)++;
			break;
		}
	}
}
