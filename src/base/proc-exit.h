/* SPDX-License-Identifier: MIT */
/*
 * proc-exit.h: how a run's process ended, as the engine's proc.c saw it
 * and as the journal records it, so that results read it without knowing
 * how runs are started.
 */
#ifndef FLAKESWEEP_PROC_EXIT_H
#define FLAKESWEEP_PROC_EXIT_H

#include <stdbool.h>

/* How a run's process ended, as proc.c saw it. */
struct proc_exit {
	int status;     /* exit status, or -1 when killed by a signal */
	int signal;     /* the signal that killed it, or 0 */
	bool timed_out; /* flakesweep killed it after the time limit */
};

#endif
