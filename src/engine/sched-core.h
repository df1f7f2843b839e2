/* SPDX-License-Identifier: MIT */
/*
 * sched-core.h: the scheduler core of a sweep's run phases. It takes
 * events (the packages are built, a run finished, a confirm was asked, a
 * polluter probe is wanted) and hands back decisions, one at a time: start
 * this run on these cores, the sweep enters a phase, the phases are over.
 * It owns each phase's plan and the scheduler built from it, and decides
 * what sweep.c used to decide around them: the sweep phase with its
 * canaries, the confirm phase with its alone cells, the runs a resumed
 * journal already holds. It never spawns, reads a clock or touches the
 * loop: the live sweep drives it with real runs (sweep-exec.c), `flakesweep
 * plan` with virtual ones (forecast.c), so a plan is this code's prediction.
 */
#ifndef FLAKESWEEP_SCHED_CORE_H
#define FLAKESWEEP_SCHED_CORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/lanes.h"
#include "engine/observer.h"
#include "engine/plan.h"
#include "engine/sched.h"

/* What the core decided (sched_core_next). */
enum sched_core_kind {
	SCHED_CORE_START,    /* start run (placed on its cores; finish or cancel it later) */
	SCHED_CORE_PHASE,    /* the sweep entered phase */
	SCHED_CORE_OVER,     /* the confirm phase is over: no run is owed or in flight */
	SCHED_CORE_ENV_UP,   /* bring environment env up on lane (then sched_env_ready or _drop) */
	SCHED_CORE_ENV_DOWN, /* take environment env down (then sched_env_release) */
};

struct sched_core_decision {
	enum sched_core_kind kind;
	struct sched_run *run;  /* START: its pair's data is a struct plan_pair */
	enum sweep_phase phase; /* PHASE */
	int env, lane;          /* ENV_UP, ENV_DOWN */
};

/* The settings of a core: the grid (its arrays borrowed), --containers,
 * the canaries' share in percent (0: none) and, for environment levels,
 * --clusters with the scheduler's callbacks (sched_set_envs). */
struct sched_core_setup {
	const struct lanes *lanes; /* borrowed */
	struct plan_grid grid;
	int cap;
	double canaries;
	int clusters;
};

/* What the core plans from: the packages (borrowed), per package whether
 * its runs count against --containers and its environment (-1: none;
 * either array may be NULL), the results the confirm phase reads its
 * failures from (borrowed), the confirm requests a journal holds, and the
 * runs it already holds (a resume's; NULL: none). */
struct sched_core_input {
	struct pkg *const *pkgs;
	size_t npkgs;
	const bool *capped;
	const int *env;
	const struct results *results;
	char *const *confirm_tests;
	const int *confirm_counts;
	size_t nconfirms;
	const struct plan *done;
};

struct sched_core;

struct sched_core *sched_core_new(const struct sched_core_setup *setup);
/* Frees c; runs it placed are forgotten. NULL is a no-op. */
void sched_core_free(struct sched_core *c);

/* Event: the packages are built; the sweep phase begins with in (copied,
 * its pointers borrowed for the core's life). */
void sched_core_begin(struct sched_core *c, const struct sched_core_input *in);

/* Event: a finished sweep takes confirm runs again; an empty confirm
 * phase begins (no run the journal holds is counted in it). */
void sched_core_reopen(struct sched_core *c);

/* The next decision into d, or false when there is none now. Runs are
 * placed only while may_start (the executor can start them: no interrupt,
 * a journal that takes lines). */
bool sched_core_next(struct sched_core *c, bool may_start, struct sched_core_decision *d);

/* Event: run is over after ms (counted at its pair) or never started
 * (cancel: its pair still owes it). */
void sched_core_finish(struct sched_core *c, struct sched_run *run, int64_t ms);
void sched_core_cancel(struct sched_core *c, struct sched_run *run);

/* Event: count more confirm runs of test t (of a package at level), alone
 * at every pair. */
void sched_core_confirm(struct sched_core *c, const struct results_test *t, const char *level,
                        int count);

/* Event: one polluter probe (p, owned by the caller) wanted: a pair of
 * one run with its package to itself. */
void sched_core_probe(struct sched_core *c, struct plan_pair *p);

/* The phase (SWEEP_PHASE_BUILD before sched_core_begin), the current
 * phase's plan and scheduler (NULL before the first phase), and the runs
 * done and planned in the phases before it. */
enum sweep_phase sched_core_phase(const struct sched_core *c);
const struct plan *sched_core_plan(const struct sched_core *c);
struct sched *sched_core_sched(const struct sched_core *c);
void sched_core_prior(const struct sched_core *c, int64_t *done, int64_t *target);

#endif
