/* SPDX-License-Identifier: MIT */
/*
 * observer.h: how the core reports to a front end (the dashboard, the
 * progress line, or nothing). Every callback may be NULL. The front end
 * drives the core back through sweep.h's commands.
 */
#ifndef FLAKESWEEP_OBSERVER_H
#define FLAKESWEEP_OBSERVER_H

#include "outcome.h"

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
	void (*run_started)(void *arg, struct sweep *s, const struct sweep_run *run);
	/* A run finished and was counted; new_failures tests failed for the
	 * first time in it. */
	void (*run_finished)(void *arg, struct sweep *s, const struct sweep_run *run,
	                     const struct outcome *o, int new_failures);
	/* A message for the status line: a warning or an error that did not
	 * stop the sweep. */
	void (*message)(void *arg, struct sweep *s, const char *text);
	/* The sweep is over (complete or interrupted); results are written. */
	void (*finished)(void *arg, struct sweep *s);
};

#endif
