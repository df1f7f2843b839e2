/* SPDX-License-Identifier: MIT */
/*
 * plan-pairs.h: the pairs of a plan, each a package (sweep) or one test
 * (confirm) at one (cpu, load), with its runs planned and finished. Which
 * pairs a sweep plans is engine/plan.h's; a replayed journal counts the
 * runs it did at each pair with the same struct.
 */
#ifndef FLAKESWEEP_PLAN_PAIRS_H
#define FLAKESWEEP_PLAN_PAIRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/levels.h"
#include "results/results.h"

/* The pkg of a canary pair (engine/canary.h); its test is the kind. */
#define PLAN_CANARY (-1)

struct plan_pair {
	enum results_phase phase;
	int pkg; /* or PLAN_CANARY */
	char
	    *test; /* confirm: the selected test's full name; a canary's kind; NULL for a package */
	int cpu, load;
	int target; /* runs planned */
	int runs;   /* runs finished */
	int64_t ms; /* their total wall time */
	/* A polluter probe (in no plan; engine/order.c owns it): its run gets
	 * this shuffle seed and this filter (NULL: the whole package) and
	 * counts in no cell. NULL for every planned pair. */
	const char *seed;
	char *run_re;
};

/* The settings a plan follows. */
struct plan_grid {
	const int *cpus, *loads;
	int ncpus, nloads;
	int count, confirm;
	/* --run: the sweep phase runs the matching tests of each package as
	 * confirm runs, and no test is confirmed after it. */
	bool run;
	/* The project's levels file (borrowed; NULL: none): which levels
	 * need an environment. */
	const struct levels *levels;
};

struct plan {
	struct plan_grid grid;    /* borrowed arrays */
	struct plan_pair **pairs; /* stable pointers */
	size_t npairs;
};

/* An empty plan following g (g's arrays must outlive it). */
void plan_init(struct plan *p, const struct plan_grid *g);
/* Frees the pairs; p can be initialised again. */
void plan_free(struct plan *p);

/* The pair, or NULL. */
struct plan_pair *plan_find(const struct plan *p, enum results_phase phase, int pkg,
                            const char *test, int cpu, int load);

/* Counts a finished run of ms at the pair, adding the pair (no target) when
 * it is not in the plan: replay records what a journal did this way. */
struct plan_pair *plan_count_run(struct plan *p, enum results_phase phase, int pkg,
                                 const char *test, int cpu, int load, int64_t ms);

/* The pair, added (no target) when it is not in the plan. */
struct plan_pair *plan_get(struct plan *p, enum results_phase phase, int pkg, const char *test,
                           int cpu, int load);

#endif
