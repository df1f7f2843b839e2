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

#include "results/results.h"
#include "results/stats.h"
#include "results/noise-share.h"
#include "results/timeline.h"
#include "base/sanitize.h"
#include "base/strmap.h"
#include "base/util.h"

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

static void
results_pin_free(struct results_pin *p)
{
	free(p->container);
	free(p->cpuset);
	free(p->pkgs);
	free(p->error);
}

void
results_free(struct results *r)
{
	size_t i, j;

	if (r == NULL)
		return;
	harness_free(&r->harness);
	for (i = 0; i < r->ntests; i++) {
		free(r->tests[i].id);
		free(r->tests[i].test);
		free(r->tests[i].cells);
		free(r->tests[i].cores);
		util_strv_free(r->tests[i].channels);
		results_failure_free(r->tests[i].first);
		results_polluter_free(r->tests[i].polluter);
	}
	for (i = 0; i < r->npkgs; i++) {
		free(r->pkgs[i].name);
		free(r->pkgs[i].level);
		durations_free(&r->pkgs[i].durations);
		results_failure_free(r->pkgs[i].first_outside);
		for (j = 0; j < r->pkgs[i].ndebris; j++)
			free(r->pkgs[i].debris[j].path);
		free(r->pkgs[i].debris);
		free(r->pkgs[i].cpuset);
	}
	for (i = 0; i < r->npins; i++)
		results_pin_free(&r->pins[i]);
	free(r->tests);
	free(r->pkgs);
	strmap_free(r->index);
	timeline_free(r->timeline);
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
results_add_time(struct results *r, int pkg, int cpu, int load, int64_t ms)
{
	r->pkgs[pkg].ms += ms;
	durations_add(&r->pkgs[pkg].durations, cpu, load, ms);
}

void
results_note_leak(struct results *r, int pkg)
{
	r->pkgs[pkg].leaked_runs++;
}

void
results_add_debris(struct results *r, int pkg, const char *path, int64_t run)
{
	struct results_pkg *p = &r->pkgs[pkg];

	p->debris = xrealloc(p->debris, sizeof *p->debris * (p->ndebris + 1));
	p->debris[p->ndebris].path = xstrdup(path);
	p->debris[p->ndebris++].run = run;
}

void
results_note_after_debris(struct results *r, int pkg)
{
	r->pkgs[pkg].runs_after_debris++;
}

void
results_note_pin(struct results *r, const char *id, const char *cpuset, const int *pkgs,
                 size_t npkgs, int64_t latency_ms, const char *error)
{
	struct results_pin *pin;
	struct buf names;
	size_t i;

	buf_init(&names);
	for (i = 0; i < npkgs; i++) {
		struct results_pkg *p = &r->pkgs[pkgs[i]];

		buf_printf(&names, "%s%s", i > 0 ? ", " : "", p->name);
		if (error != NULL) {
			p->pin_failed++;
			continue;
		}
		p->pinned++;
		if (latency_ms > p->pin_max_ms)
			p->pin_max_ms = latency_ms;
		free(p->cpuset);
		p->cpuset = xstrdup(cpuset);
	}
	if (error != NULL)
		r->pin_failed++;
	else
		r->pinned++;
	if (r->npins == RESULTS_PINS_MAX) {
		results_pin_free(&r->pins[0]);
		memmove(r->pins, r->pins + 1, sizeof *r->pins * (RESULTS_PINS_MAX - 1));
		r->npins--;
	}
	pin = &r->pins[r->npins++];
	pin->container = xstrndup(id, 12);
	pin->cpuset = xstrdup(cpuset);
	pin->pkgs = buf_steal(&names);
	pin->latency_ms = latency_ms;
	pin->error = error != NULL ? xstrdup(error) : NULL;
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
	t->owner = r;
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

struct results_cell *
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

/* dst's package with src's package's name and level, added if none. */
static int
results_absorb_pkg(struct results *dst, const struct results_pkg *sp)
{
	size_t i;

	for (i = 0; i < dst->npkgs; i++) {
		if (strcmp(dst->pkgs[i].name, sp->name) == 0 &&
		    strcmp(dst->pkgs[i].level, sp->level) == 0)
			return (int)i;
	}
	return results_add_pkg(dst, sp->name, sp->level);
}

void
results_absorb(struct results *dst, const struct results *src)
{
	int *pkgs = xcalloc(src->npkgs + 1, sizeof *pkgs), j;
	size_t i;

	for (i = 0; i < src->npkgs; i++) {
		struct results_pkg *p;

		pkgs[i] = results_absorb_pkg(dst, &src->pkgs[i]);
		p = &dst->pkgs[pkgs[i]];
		p->runs += src->pkgs[i].runs;
		p->failures_outside_tests += src->pkgs[i].failures_outside_tests;
		p->unreliable_runs += src->pkgs[i].unreliable_runs;
		p->leaked_runs += src->pkgs[i].leaked_runs;
	}
	for (i = 0; i < src->ntests; i++) {
		const struct results_test *st = &src->tests[i];
		struct results_test *t = results_find(dst, st->id);

		if (t == NULL)
			t = results_add_test(dst, pkgs[st->pkg], st->id, st->test);
		for (j = 0; j < st->ncells; j++) {
			const struct results_cell *sc = &st->cells[j];
			struct results_cell *c = results_get_cell(t, sc->phase, sc->cpu, sc->load);

			c->runs += sc->runs;
			c->failures += sc->failures;
			c->hangs += sc->hangs;
			c->skipped += sc->skipped;
			c->noise_ms += sc->noise_ms;
			c->noise_core_ms += sc->noise_core_ms;
			c->noisy_runs += sc->noisy_runs;
			c->noisy_bad += sc->noisy_bad;
		}
	}
	dst->runs += src->runs;
	dst->failures += src->failures;
	dst->hangs += src->hangs;
	dst->noise_ms += src->noise_ms;
	dst->noise_core_ms += src->noise_core_ms;
	free(pkgs);
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

static int
results_cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the channels a run of t read to the set t keeps. */
static void
results_add_channels(struct results_test *t, char *const *channels)
{
	size_t n = 0, i, j;

	while (t->channels != NULL && t->channels[n] != NULL)
		n++;
	for (i = 0; channels != NULL && channels[i] != NULL; i++) {
		for (j = 0; j < n && strcmp(t->channels[j], channels[i]) != 0; j++)
			;
		if (j == n) {
			util_strv_add(&t->channels, &n, channels[i]);
			qsort(t->channels, n, sizeof *t->channels, results_cmp_str);
		}
	}
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
		results_add_channels(t, ot->channels);
		c = results_get_cell(t, phase, cpu, load);
		/* A skipped test did not run: it adds nothing to its runs, the
		 * denominator of its rates, and is counted apart. */
		if (ot->status == OUTCOME_SKIP) {
			c->skipped++;
			continue;
		}
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

/* Whether a run that saw other_ms of core_ms is noisy, as a cell is. */
static bool
results_noisy(double other_ms, double core_ms)
{
	return noise_share(other_ms, core_ms) > NOISE_NOISY;
}

void
results_add_noise(struct results *r, int pkg, enum results_phase phase, int cpu, int load,
                  const struct outcome *o, double other_ms, double core_ms)
{
	bool noisy = results_noisy(other_ms, core_ms);
	size_t i;

	r->noise_ms += other_ms;
	r->noise_core_ms += core_ms;
	for (i = 0; !o->unreliable && i < o->ntests; i++) {
		struct results_cell *c;

		if (o->tests[i].status == OUTCOME_SKIP)
			continue;
		c = results_get_cell(results_get_test(r, pkg, o->tests[i].name), phase, cpu, load);
		c->noise_ms += other_ms;
		c->noise_core_ms += core_ms;
		if (noisy) {
			c->noisy_runs++;
			c->noisy_bad += o->tests[i].status == OUTCOME_FAIL ||
			                o->tests[i].status == OUTCOME_HANG;
		}
	}
}

static struct results_core *
results_get_core(struct results_test *t, int cpu, int core)
{
	int i, j;

	for (i = 0; i < t->ncores; i++) {
		const struct results_core *c = &t->cores[i];

		if (c->cpu == cpu && c->core == core)
			return &t->cores[i];
		if (c->cpu > cpu || (c->cpu == cpu && c->core > core))
			break;
	}
	t->cores = xrealloc(t->cores, sizeof *t->cores * (size_t)(t->ncores + 1));
	for (j = t->ncores; j > i; j--)
		t->cores[j] = t->cores[j - 1];
	t->ncores++;
	memset(&t->cores[i], 0, sizeof t->cores[i]);
	t->cores[i].cpu = cpu;
	t->cores[i].core = core;
	return &t->cores[i];
}

static struct results_failure *
results_failure_copy(const struct results_failure *f, const char *logdir)
{
	struct results_failure *c = xcalloc(1, sizeof *c);

	*c = *f;
	c->seed = f->seed != NULL ? xstrdup(f->seed) : NULL;
	c->lines = xstrdup(f->lines);
	c->reason = f->reason != NULL ? xstrdup(f->reason) : NULL;
	if (f->log == NULL)
		c->log = NULL;
	else if (logdir != NULL && f->log[0] != '/')
		c->log = xasprintf("%s/%s", logdir, f->log);
	else
		c->log = xstrdup(f->log);
	return c;
}

/* Whether the candidates of st (in src) name the test id. */
static bool
results_has_candidate(const struct results *src, const struct results_test *st, const char *id)
{
	int k;

	for (k = 0; k < st->ncandidates; k++)
		if (strcmp(src->tests[st->candidates[k]].id, id) == 0)
			return true;
	return false;
}

/* The cascade evidence of st (in src) added to t (in dst): the candidates
 * every bad sweep run kept, by id. */
static void
results_absorb_order(struct results *dst, struct results_test *t, const struct results *src,
                     const struct results_test *st)
{
	int k, n;

	if (st->sweep_bad == 0)
		return;
	if (t->sweep_bad == 0) {
		for (k = 0; k < st->ncandidates; k++)
			t->candidates[k] =
			    results_find(dst, src->tests[st->candidates[k]].id) - dst->tests;
		t->ncandidates = st->ncandidates;
	} else {
		for (k = n = 0; k < t->ncandidates; k++)
			if (results_has_candidate(src, st, dst->tests[t->candidates[k]].id))
				t->candidates[n++] = t->candidates[k];
		t->ncandidates = n;
	}
	t->sweep_bad += st->sweep_bad;
}

static void
results_absorb_pkg_rest(struct results_pkg *p, const struct results_pkg *sp, const char *logdir)
{
	size_t i;

	p->ms += sp->ms;
	p->pinned += sp->pinned;
	p->pin_failed += sp->pin_failed;
	if (sp->pin_max_ms > p->pin_max_ms)
		p->pin_max_ms = sp->pin_max_ms;
	if (p->cpuset == NULL && sp->cpuset != NULL)
		p->cpuset = xstrdup(sp->cpuset);
	if (p->first_outside == NULL && sp->first_outside != NULL)
		p->first_outside = results_failure_copy(sp->first_outside, logdir);
	for (i = 0; i < sp->ndebris; i++) {
		p->debris = xrealloc(p->debris, sizeof *p->debris * (p->ndebris + 1));
		p->debris[p->ndebris].path = xstrdup(sp->debris[i].path);
		p->debris[p->ndebris++].run = sp->debris[i].run;
	}
	p->runs_after_debris += sp->runs_after_debris;
}

void
results_absorb_part(struct results *dst, const struct results *src, const char *logdir)
{
	size_t i;
	int j;

	results_absorb(dst, src);
	for (i = 0; i < src->npkgs; i++)
		results_absorb_pkg_rest(&dst->pkgs[results_absorb_pkg(dst, &src->pkgs[i])],
		                        &src->pkgs[i], logdir);
	for (i = 0; i < src->ntests; i++) {
		const struct results_test *st = &src->tests[i];
		struct results_test *t = results_find(dst, st->id);

		for (j = 0; j < st->ncells; j++) {
			const struct results_cell *sc = &st->cells[j];
			struct results_cell *c = results_get_cell(t, sc->phase, sc->cpu, sc->load);

			c->overlapped_runs += sc->overlapped_runs;
			c->overlapped_bad += sc->overlapped_bad;
		}
		if (t->first == NULL && st->first != NULL)
			t->first = results_failure_copy(st->first, logdir);
		for (j = 0; j < st->ncores; j++) {
			struct results_core *c =
			    results_get_core(t, st->cores[j].cpu, st->cores[j].core);

			c->runs += st->cores[j].runs;
			c->failures += st->cores[j].failures;
		}
		results_add_channels(t, st->channels);
		if (t->polluter == NULL && st->polluter != NULL)
			results_copy_polluter(t, st->polluter);
		results_absorb_order(dst, t, src, st);
	}
	harness_absorb(&dst->harness, &src->harness);
	timeline_absorb(dst, src);
}

void
results_add_cores(struct results *r, int pkg, enum results_phase phase, const struct outcome *o,
                  const int *cores, int ncores)
{
	size_t i;
	int k;

	for (i = 0; phase == RESULTS_SWEEP && !o->unreliable && ncores > 0 && i < o->ntests; i++) {
		const struct outcome_test *ot = &o->tests[i];
		bool bad = ot->status == OUTCOME_FAIL || ot->status == OUTCOME_HANG;
		struct results_test *t;

		if (ot->status == OUTCOME_SKIP)
			continue;
		t = results_get_test(r, pkg, ot->name);
		for (k = 0; k < ncores; k++) {
			struct results_core *c = results_get_core(t, ncores, cores[k]);

			c->runs++;
			c->failures += bad;
		}
	}
}

/* The cells of a shape's tests at one (phase, cpu, load), by index: cells
 * are only ever appended, so an index stays good. */
struct results_shape_pair {
	enum results_phase phase;
	int cpu, load;
	int *cells;
	int *skip_cells; /* the cells of its skipped tests, by index */
};

/* Runs of a shape pinned to the same cores, not counted yet. */
struct results_shape_cores {
	int *cores;
	int ncores;
	int64_t runs;
};

struct results_shape {
	int pkg;
	long *tests; /* the entries of its tests that ran */
	size_t ntests;
	long *skips; /* and of those that skipped themselves */
	size_t nskips;
	struct results_shape_pair *pairs;
	size_t npairs, last_pair;
	struct results_shape_cores *cores;
	size_t ncores, last_cores;
};

struct results_shape *
results_shape_new(struct results *r, int pkg, const struct outcome *o)
{
	struct results_shape *s = xcalloc(1, sizeof *s);
	size_t i;

	s->pkg = pkg;
	s->tests = xmalloc(sizeof *s->tests * (o->ntests + 1));
	s->skips = xmalloc(sizeof *s->skips * (o->ntests + 1));
	for (i = 0; i < o->ntests; i++) {
		struct results_test *t = results_get_test(r, pkg, o->tests[i].name);

		if (o->tests[i].status != OUTCOME_SKIP)
			s->tests[s->ntests++] = t - r->tests;
		else
			s->skips[s->nskips++] = t - r->tests;
	}
	return s;
}

void
results_shape_free(struct results_shape *s)
{
	size_t i;

	if (s == NULL)
		return;
	for (i = 0; i < s->npairs; i++) {
		free(s->pairs[i].cells);
		free(s->pairs[i].skip_cells);
	}
	for (i = 0; i < s->ncores; i++)
		free(s->cores[i].cores);
	free(s->pairs);
	free(s->cores);
	free(s->tests);
	free(s->skips);
	free(s);
}

const long *
results_shape_ran(const struct results_shape *s, size_t *n)
{
	*n = s->ntests;
	return s->tests;
}

int
results_shape_pkg(const struct results_shape *s)
{
	return s->pkg;
}

/* The indices of the cells of tests (entries of r) at one pair, made as
 * needed. */
static int *
results_shape_cells(struct results *r, const long *tests, size_t n, enum results_phase phase,
                    int cpu, int load)
{
	int *cells = xmalloc(sizeof *cells * (n + 1));
	size_t i;

	for (i = 0; i < n; i++) {
		struct results_test *t = &r->tests[tests[i]];

		cells[i] = (int)(results_get_cell(t, phase, cpu, load) - t->cells);
	}
	return cells;
}

static struct results_shape_pair *
results_shape_pair(struct results *r, struct results_shape *s, enum results_phase phase, int cpu,
                   int load)
{
	struct results_shape_pair *x;
	size_t i;

	for (i = 0; i < s->npairs; i++) {
		x = &s->pairs[(s->last_pair + i) % s->npairs];
		if (x->phase == phase && x->cpu == cpu && x->load == load) {
			s->last_pair = (s->last_pair + i) % s->npairs;
			return x;
		}
	}
	s->pairs = xrealloc(s->pairs, sizeof *s->pairs * (s->npairs + 1));
	x = &s->pairs[s->npairs];
	x->phase = phase;
	x->cpu = cpu;
	x->load = load;
	x->cells = results_shape_cells(r, s->tests, s->ntests, phase, cpu, load);
	x->skip_cells = results_shape_cells(r, s->skips, s->nskips, phase, cpu, load);
	s->last_pair = s->npairs++;
	return x;
}

static void
results_shape_count_cores(struct results_shape *s, const int *cores, int ncores)
{
	struct results_shape_cores *c;
	size_t i;

	for (i = 0; i < s->ncores; i++) {
		c = &s->cores[(s->last_cores + i) % s->ncores];
		if (c->ncores == ncores && memcmp(c->cores, cores, sizeof *cores * ncores) == 0) {
			c->runs++;
			s->last_cores = (s->last_cores + i) % s->ncores;
			return;
		}
	}
	s->cores = xrealloc(s->cores, sizeof *s->cores * (s->ncores + 1));
	c = &s->cores[s->ncores];
	c->cores = xmalloc(sizeof *cores * (size_t)ncores);
	memcpy(c->cores, cores, sizeof *cores * (size_t)ncores);
	c->ncores = ncores;
	c->runs = 1;
	s->last_cores = s->ncores++;
}

void
results_add_shaped(struct results *r, struct results_shape *s, enum results_phase phase, int cpu,
                   int load, const int *cores, int ncores, bool overlapped, const double *noise)
{
	const struct results_shape_pair *x = results_shape_pair(r, s, phase, cpu, load);
	bool noisy;
	size_t i;

	r->runs++;
	r->pkgs[s->pkg].runs++;
	for (i = 0; i < s->ntests; i++) {
		struct results_test *t = &r->tests[s->tests[i]];

		t->cells[x->cells[i]].runs++;
		/* The cell's overlapped runs, as interference_add_run counts
		 * them (the alone ones are the rest). */
		if (overlapped)
			t->cells[x->cells[i]].overlapped_runs++;
	}
	for (i = 0; i < s->nskips; i++)
		r->tests[s->skips[i]].cells[x->skip_cells[i]].skipped++;
	/* A confirm run takes its lane's first free core: the sweep's runs
	 * alone are compared by core. */
	if (ncores > 0 && phase == RESULTS_SWEEP)
		results_shape_count_cores(s, cores, ncores);
	if (noise == NULL)
		return;
	noisy = results_noisy(noise[0], noise[1]);
	r->noise_ms += noise[0];
	r->noise_core_ms += noise[1];
	for (i = 0; i < s->ntests; i++) {
		struct results_cell *c = &r->tests[s->tests[i]].cells[x->cells[i]];

		c->noise_ms += noise[0];
		c->noise_core_ms += noise[1];
		/* Its tests all passed: no noisy failure to count. */
		c->noisy_runs += noisy;
	}
}

void
results_shape_flush(struct results *r, struct results_shape *s)
{
	size_t i, j;
	int k;

	for (j = 0; j < s->ncores; j++) {
		struct results_shape_cores *c = &s->cores[j];

		for (i = 0; c->runs > 0 && i < s->ntests; i++) {
			for (k = 0; k < c->ncores; k++)
				results_get_core(&r->tests[s->tests[i]], c->ncores, c->cores[k])
				    ->runs += c->runs;
		}
		c->runs = 0;
	}
}

/* True when name is a subtest (at any depth) of parent. */
static bool
results_is_below(const char *name, const char *parent)
{
	size_t n = strlen(parent);

	return strncmp(name, parent, n) == 0 && name[n] == '/';
}

/* True when test index k failed or hung before entry i of o. */
static bool
results_failed_before(const struct results *r, const struct outcome *o, size_t i, long k)
{
	size_t j;

	for (j = 0; j < i; j++) {
		const struct outcome_test *e = &o->tests[j];

		if ((e->status == OUTCOME_FAIL || e->status == OUTCOME_HANG) &&
		    strcmp(e->name, r->tests[k].test) == 0)
			return true;
	}
	return false;
}

void
results_add_order(struct results *r, int pkg, enum results_phase phase, const struct outcome *o)
{
	size_t i, j;
	int k, n;

	for (i = 0; phase == RESULTS_SWEEP && !o->unreliable && i < o->ntests; i++) {
		const struct outcome_test *ot = &o->tests[i];
		struct results_test *t;

		if (ot->status != OUTCOME_FAIL && ot->status != OUTCOME_HANG)
			continue;
		t = results_get_test(r, pkg, ot->name);
		if (t->sweep_bad++ > 0) {
			/* Keep the candidates that failed before it this time too. */
			for (k = n = 0; k < t->ncandidates; k++)
				if (results_failed_before(r, o, i, t->candidates[k]))
					t->candidates[n++] = t->candidates[k];
			t->ncandidates = n;
			continue;
		}
		for (j = 0; j < i && t->ncandidates < RESULTS_CANDIDATES; j++) {
			const struct outcome_test *e = &o->tests[j];

			if ((e->status != OUTCOME_FAIL && e->status != OUTCOME_HANG) ||
			    results_is_below(ot->name, e->name) ||
			    results_is_below(e->name, ot->name))
				continue;
			/* Earlier tests of the run already have their entries:
			 * results_add_run made them, so t stays where it is. */
			k = (int)(results_get_test(r, pkg, e->name) - r->tests);
			t->candidates[t->ncandidates++] = k;
		}
	}
}

/* The p-value that all of t's sweep failures land, pair by pair, in sweep
 * runs where c failed or hung: at each (cpu, load) pair with k of t's
 * failures and m of c's in n runs, C(m,k)/C(n,k), and their product over
 * the pairs (the exact stratified test at its extreme). 1 when at some
 * pair t failed more often than c. */
static double
results_cascade_p(const struct results_test *t, const struct results_test *c)
{
	struct stats_table *strata = xcalloc((size_t)t->ncells + 1, sizeof *strata);
	size_t n = 0;
	double p = 1;
	int i, j;

	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *x = &t->cells[i];
		int64_t k = x->failures + x->hangs, runs = 0, m = 0;

		if (x->phase != RESULTS_SWEEP || k == 0)
			continue;
		for (j = 0; j < c->ncells; j++) {
			const struct results_cell *y = &c->cells[j];

			if (y->phase == RESULTS_SWEEP && y->cpu == x->cpu && y->load == x->load) {
				runs = y->runs;
				m = y->failures + y->hangs;
			}
		}
		if (k > m)
			goto out;
		/* k of t's failures among c's m, none among the other runs. */
		strata[n++] = (struct stats_table){0, runs - m, k, m};
	}
	p = stats_strata_greater(strata, n);
out:
	free(strata);
	return p;
}

const char *
results_cascade_root(const struct results_test *t)
{
	const struct results_test *best = NULL;
	double best_p = RESULTS_CASCADE_ALPHA;
	int k;

	for (k = 0; t->owner != NULL && k < t->ncandidates; k++) {
		const struct results_test *c = &t->owner->tests[t->candidates[k]];
		double p = results_cascade_p(t, c);

		if (p < best_p) {
			best_p = p;
			best = c;
		}
	}
	return best != NULL ? best->test : NULL;
}

bool
results_cascade(const struct results_test *t)
{
	int64_t confirm_runs = 0, confirm_bad = 0;
	int i;

	if (t->sweep_bad == 0 || t->ncandidates == 0 || results_cascade_root(t) == NULL)
		return false;
	for (i = 0; i < t->ncells; i++) {
		if (t->cells[i].phase == RESULTS_SWEEP)
			continue;
		confirm_runs += t->cells[i].runs;
		confirm_bad += t->cells[i].failures + t->cells[i].hangs;
	}
	return confirm_runs > 0 && confirm_bad == 0;
}

const struct results_test **
results_cascades(const struct results *r, size_t *n)
{
	const struct results_test **v = xcalloc(r->ntests + 1, sizeof *v);
	size_t i;

	*n = 0;
	for (i = 0; i < r->ntests; i++) {
		if (results_cascade(&r->tests[i]))
			v[(*n)++] = &r->tests[i];
	}
	return v;
}

int
results_worst_core(const struct results_test *t)
{
	int i, j, best = -1;
	int64_t most = 0;

	for (i = 0; i < t->ncores; i++) {
		int64_t n = 0;

		for (j = 0; j < t->ncores; j++)
			if (t->cores[j].core == t->cores[i].core)
				n += t->cores[j].failures;
		if (n > most || (n == most && n > 0 && t->cores[i].core < best)) {
			most = n;
			best = t->cores[i].core;
		}
	}
	return best;
}

/* log C(n, k) */
static double
results_lchoose(int64_t n, int64_t k)
{
	return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
}

/* P(X >= a) for X hypergeometric: n draws from N items of which K are
 * marked. The one-sided Fisher exact test of a 2x2 table. */
static double
results_fisher_upper(int64_t a, int64_t n, int64_t K, int64_t N)
{
	int64_t x, top = n < K ? n : K;
	double p = 0;

	for (x = a; x <= top; x++) {
		if (n - x > N - K)
			continue;
		p += exp(results_lchoose(K, x) + results_lchoose(N - K, n - x) -
		         results_lchoose(N, n));
	}
	return p > 1 ? 1 : p;
}

bool
results_core_concentration(const struct results_test *t, const struct results_core **c,
                           int64_t *runs, int64_t *bad, double *p)
{
	double best = 2;
	int i, j, tested = 0;

	*c = NULL;
	*runs = *bad = 0;
	*p = 1;
	/* At one pair, the core a run gets follows the order runs start in
	 * (the first run of a batch takes the lane's first free core), so a
	 * core cannot be told from when the run ran: no claim. */
	for (i = 0, j = -1; i < t->ncells; i++) {
		const struct results_cell *cell = &t->cells[i];

		if (cell->phase != RESULTS_SWEEP || cell->runs == 0)
			continue;
		if (j >= 0 && (t->cells[j].cpu != cell->cpu || t->cells[j].load != cell->load))
			break;
		j = i;
	}
	if (i == t->ncells)
		return false;
	for (i = 0; i < t->ncores; i++) {
		const struct results_core *k = &t->cores[i];
		int64_t n = 0, f = 0;
		double q;

		/* Each run at cpu c counts once on each of its c cores. */
		for (j = 0; j < t->ncores; j++) {
			if (t->cores[j].cpu == k->cpu) {
				n += t->cores[j].runs;
				f += t->cores[j].failures;
			}
		}
		n /= k->cpu;
		f /= k->cpu;
		/* A core every run had, or none: nothing to compare it with. */
		if (k->runs == n || k->runs == 0)
			continue;
		tested++;
		q = results_fisher_upper(k->failures, k->runs, f, n);
		if (q < best) {
			best = q;
			*c = k;
			*runs = n;
			*bad = f;
		}
	}
	if (tested == 0)
		return false;
	*p = best;
	return best < RESULTS_CORE_ALPHA / tested;
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

const char *
results_phase_name(enum results_phase p)
{
	return p == RESULTS_ALONE ? "alone" : p == RESULTS_CONFIRM ? "confirm" : "sweep";
}

const char *
results_allocation_name(enum results_allocation a)
{
	static const char *const names[] = {NULL, "minimum", "adaptive", "stopped-early"};

	return names[a];
}

const char *
results_phase_label(enum results_phase p)
{
	return p == RESULTS_ALONE ? _("alone") : p == RESULTS_CONFIRM ? _("confirm") : _("sweep");
}

int
results_phase_parse(const char *name)
{
	int p;

	for (p = RESULTS_SWEEP; p <= RESULTS_ALONE; p++)
		if (strcmp(name, results_phase_name(p)) == 0)
			return p;
	return -1;
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
		    (rate == best_rate && c->phase != RESULTS_SWEEP &&
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
