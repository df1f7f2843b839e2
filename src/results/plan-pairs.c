/* SPDX-License-Identifier: MIT */
/*
 * plan-pairs.c: the pairs of a plan and the runs counted at each, kept by
 * pointer so the scheduler can hold them; lookups are linear, as pairs
 * number packages x cpus x loads. Which pairs a sweep plans is
 * engine/plan.c's; a replayed journal counts its runs here.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "results/plan-pairs.h"
#include "base/util.h"

void
plan_init(struct plan *p, const struct plan_grid *g)
{
	memset(p, 0, sizeof *p);
	p->grid = *g;
}

void
plan_free(struct plan *p)
{
	size_t i;

	for (i = 0; i < p->npairs; i++) {
		free(p->pairs[i]->test);
		free(p->pairs[i]);
	}
	free(p->pairs);
	p->pairs = NULL;
	p->npairs = 0;
}

struct plan_pair *
plan_find(const struct plan *p, enum results_phase phase, int pkg, const char *test, int cpu,
          int load)
{
	size_t i;

	for (i = 0; i < p->npairs; i++) {
		struct plan_pair *x = p->pairs[i];

		if (x->phase == phase && x->pkg == pkg && x->cpu == cpu && x->load == load &&
		    ((x->test == NULL && test == NULL) ||
		     (x->test != NULL && test != NULL && strcmp(x->test, test) == 0)))
			return x;
	}
	return NULL;
}

struct plan_pair *
plan_get(struct plan *p, enum results_phase phase, int pkg, const char *test, int cpu, int load)
{
	struct plan_pair *x = plan_find(p, phase, pkg, test, cpu, load);

	if (x != NULL)
		return x;
	x = xcalloc(1, sizeof *x);
	x->phase = phase;
	x->pkg = pkg;
	x->test = test != NULL ? xstrdup(test) : NULL;
	x->cpu = cpu;
	x->load = load;
	p->pairs = xrealloc(p->pairs, sizeof *p->pairs * (p->npairs + 1));
	p->pairs[p->npairs++] = x;
	return x;
}

struct plan_pair *
plan_count_run(struct plan *p, enum results_phase phase, int pkg, const char *test, int cpu,
               int load, int64_t ms)
{
	struct plan_pair *x = plan_get(p, phase, pkg, test, cpu, load);

	x->runs++;
	x->ms += ms;
	return x;
}
