/* SPDX-License-Identifier: MIT */
/*
 * observer.h: how the core reports to a front end (the dashboard, the
 * progress line, or nothing). Every callback may be NULL. The front end
 * drives the core back through sweep.h's commands.
 */
#ifndef FLAKESWEEP_OBSERVER_H
#define FLAKESWEEP_OBSERVER_H

#include "outcome.h"

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

struct observer {
	void *arg;
	/* The sweep entered a phase. */
	void (*phase)(void *arg, struct sweep *s, enum sweep_phase phase);
	/* A run was spawned (it shows in the lane grid). */
	void (*run_started)(void *arg, const struct sweep_run *run);
	/* A run finished and was counted. */
	void (*run_finished)(void *arg, const struct sweep_run *run, const struct outcome *o);
	/* Test t failed (ot: as the run reported it, failed or hung) for the
	 * first time, in run. Called after run_finished, once per test. */
	void (*test_failed_first)(void *arg, const struct results_test *t,
	                          const struct outcome_test *ot, const struct sweep_run *run);
	/* A message for the status line: a warning or an error that did not
	 * stop the sweep. */
	void (*message)(void *arg, const char *text);
	/* The sweep is over (complete or interrupted); results are written. */
	void (*finished)(void *arg, struct sweep *s);
};

#endif
