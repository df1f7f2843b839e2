/* SPDX-License-Identifier: MIT */
/*
 * plan.c: the pairs of each phase and their targets. Pairs are kept by
 * pointer so the scheduler can hold them; lookups are linear, as pairs
 * number packages x cpus x loads.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/plan.h"
#include "results/interference.h"
#include "base/util.h"

bool
plan_pkg_runs(const struct pkg *pkg)
{
	return pkg->build_ok && !pkg->empty;
}

static void
plan_add(struct plan *p, enum results_phase phase, int pkg, const char *test, int cpu, int load,
         int count, plan_added_cb cb, void *arg)
{
	struct plan_pair *x = plan_get(p, phase, pkg, test, cpu, load);

	x->target += count;
	if (cb != NULL)
		cb(arg, x, count);
}

bool
plan_env_level(const struct levels *lv, const char *level)
{
	return strcmp(driver_level_kind(lv, level), "environment") == 0;
}

/* The one pair of an environment level: the widest --cpu (a whole lane)
 * at load 1. */
static int
plan_env_cpu(const struct plan_grid *g)
{
	int cpu = 1, c;

	for (c = 0; c < g->ncpus; c++)
		if (g->cpus[c] > cpu)
			cpu = g->cpus[c];
	return cpu;
}

void
plan_sweep(struct plan *p, struct pkg *const *pkgs, size_t npkgs, plan_added_cb cb, void *arg)
{
	const struct plan_grid *g = &p->grid;
	enum results_phase phase = g->run ? RESULTS_CONFIRM : RESULTS_SWEEP;
	size_t i;
	int c, l;

	for (i = 0; i < npkgs; i++) {
		if (!plan_pkg_runs(pkgs[i]))
			continue;
		if (plan_env_level(g->levels, pkgs[i]->level)) {
			plan_add(p, phase, (int)i, NULL, plan_env_cpu(g), 1, g->count, cb, arg);
			continue;
		}
		for (c = 0; c < g->ncpus; c++) {
			for (l = 0; l < g->nloads; l++)
				plan_add(p, phase, (int)i, NULL, g->cpus[c], g->loads[l], g->count,
				         cb, arg);
		}
	}
}

void
plan_canaries(struct plan *p, double percent, const char *const *names, int nkinds,
              plan_added_cb cb, void *arg)
{
	const struct plan_grid *g = &p->grid;
	int c, l, k;
	size_t i;

	if (percent <= 0 || nkinds <= 0)
		return;
	for (c = 0; c < g->ncpus; c++) {
		for (l = 0; l < g->nloads; l++) {
			int64_t runs = 0, n;

			for (i = 0; i < p->npairs; i++) {
				const struct plan_pair *x = p->pairs[i];

				if (x->pkg != PLAN_CANARY && x->cpu == g->cpus[c] &&
				    x->load == g->loads[l])
					runs += x->target;
			}
			if (runs == 0)
				continue;
			n = (int64_t)ceil((double)runs * percent / 100.0);
			if (n < 3)
				n = 3;
			for (k = 0; k < nkinds; k++)
				plan_add(p, RESULTS_SWEEP, PLAN_CANARY, names[k], g->cpus[c],
				         g->loads[l], (int)(n / nkinds + (k < n % nkinds)), cb,
				         arg);
		}
	}
}

void
plan_confirm_test(struct plan *p, const struct results_test *t, const char *level,
                  enum results_phase phase, int count, plan_added_cb cb, void *arg)
{
	const struct plan_grid *g = &p->grid;
	int c, l;

	if (plan_env_level(g->levels, level)) {
		plan_add(p, phase, t->pkg, t->test, plan_env_cpu(g), 1, count, cb, arg);
		return;
	}
	for (c = 0; c < g->ncpus; c++) {
		for (l = 0; l < g->nloads; l++)
			plan_add(p, phase, t->pkg, t->test, g->cpus[c], g->loads[l], count, cb,
			         arg);
	}
}

void
plan_confirm(struct plan *p, const struct results *r, struct pkg *const *pkgs, char *const *tests,
             const int *counts, size_t n, plan_added_cb cb, void *arg)
{
	size_t i;

	if (!p->grid.run && p->grid.confirm > 0) {
		for (i = 0; i < r->ntests; i++) {
			const struct results_test *t = &r->tests[i];

			if (t->first == NULL || t->first->phase != RESULTS_SWEEP ||
			    !pkgs[t->pkg]->build_ok)
				continue;
			plan_confirm_test(p, t, pkgs[t->pkg]->level, RESULTS_CONFIRM,
			                  p->grid.confirm, cb, arg);
			if (interference_suspect(t))
				plan_confirm_test(p, t, pkgs[t->pkg]->level, RESULTS_ALONE,
				                  p->grid.confirm, cb, arg);
		}
	}
	for (i = 0; i < n; i++) {
		const struct results_test *t = results_find(r, tests[i]);

		if (t != NULL)
			plan_confirm_test(p, t, pkgs[t->pkg]->level, RESULTS_CONFIRM, counts[i], cb,
			                  arg);
	}
}

void
plan_progress(const struct plan *p, int64_t *done, int64_t *target)
{
	size_t i;

	*done = *target = 0;
	for (i = 0; i < p->npairs; i++) {
		const struct plan_pair *x = p->pairs[i];

		if (x->pkg == PLAN_CANARY)
			continue;
		*done += x->runs < x->target ? x->runs : x->target;
		*target += x->target;
	}
}
