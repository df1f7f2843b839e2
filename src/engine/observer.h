/* SPDX-License-Identifier: MIT */
/*
 * observer.h: how the core reports to a front end (the dashboard, the
 * progress line, or nothing). Every callback may be NULL. The front end
 * drives the core back through sweep.h's commands.
 */
#ifndef FLAKESWEEP_OBSERVER_H
#define FLAKESWEEP_OBSERVER_H

#include "drivers/outcome.h"

struct results_test;
struct sweep;
struct sweep_run;

enum sweep_phase {
	SWEEP_PHASE_DISCOVER,
	SWEEP_PHASE_BUILD,
	SWEEP_PHASE_SWEEP,
	SWEEP_PHASE_CONFIRM,
	SWEEP_PHASE_DONE,
};

/* What went wrong that no test list shows (observer.problem). */
enum observer_problem {
	OBSERVER_BUILD_FAILED,    /* a package failed to build or to list its tests */
	OBSERVER_OUTSIDE_TEST,    /* a run of a package failed outside any test */
	OBSERVER_LEAKED,          /* a run of a package left processes behind */
	OBSERVER_ORDER_DEPENDENT, /* a test looks order-dependent */
};

struct observer {
	void *arg;
	/* The sweep entered a phase. */
	void (*phase)(void *arg, enum sweep_phase phase);
	/* A run was spawned (it shows in the lane grid). */
	void (*run_started)(void *arg, const struct sweep_run *run);
	/* A run finished and was counted. */
	void (*run_finished)(void *arg, const struct sweep_run *run, const struct outcome *o);
	/* Test t failed (ot: as the run reported it, failed or hung) for the
	 * first time, in run. Called after run_finished, once per test. */
	void (*test_failed_first)(void *arg, const struct results_test *t,
	                          const struct outcome_test *ot, const struct sweep_run *run);
	/* A problem no test list shows, once per kind and package (what:
	 * its name), or per test for order dependence (what: its id), which
	 * is judged when the sweep is over, before finished. text says it in
	 * a sentence, translated. */
	void (*problem)(void *arg, enum observer_problem kind, const char *what, const char *text);
	/* A message for the status line: a warning or an error that did not
	 * stop the sweep. */
	void (*message)(void *arg, const char *text);
	/* The sweep is over (complete or interrupted); results are written. */
	void (*finished)(void *arg);
};

#endif
