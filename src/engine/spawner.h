/* SPDX-License-Identifier: MIT */
/*
 * spawner.h: the birth of one child: a vfork-style clone() whose child
 * leads its own process group, pins itself to its cores, asks to die with
 * flakesweep, resets its signals, takes its working directory and
 * descriptors and execs. The clone suspends only the thread that calls it,
 * so a run's birth (its child waiting for a busy pinned core before the
 * exec) can happen on a worker thread while the loop goes on. It knows
 * nothing of libuv, output or runs.
 */
#ifndef FLAKESWEEP_SPAWNER_H
#define FLAKESWEEP_SPAWNER_H

#include <sched.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

/* The child's descriptor of a second output pipe (report_fd). */
#define SPAWNER_REPORT_FD 3

struct spawner_child {
	char *const *argv;     /* argv[0]: a path, or a name looked up in PATH */
	char *const *envp;     /* the whole environment, before the withheld go */
	const char *cwd;       /* or NULL to inherit */
	const cpu_set_t *cpus; /* or NULL to inherit flakesweep's own set */
	int out_fd;            /* the child's stdout and stderr */
	int null_fd;           /* its stdin */
	int report_fd;         /* its SPAWNER_REPORT_FD, or -1 */
	bool isolate_net;      /* a network namespace of its own, loopback up */
	/* Where the child writes CLOCK_BOOTTIME as it starts (it shares the
	 * caller's memory until its exec), or NULL. */
	struct timespec *born_at;
};

/* Raises flakesweep's own limit of open descriptors to its hard limit (a
 * run in flight holds three or four), while every child born from now on
 * gets the limit flakesweep started with: a program that still uses
 * select(2) keeps the limit it expects. Call it before children are born
 * on other threads. */
void spawner_raise_fd_limit(void);

/* Withholds the variable name from every child born from now on, whatever
 * environment it is given. Call it before children are born on other
 * threads: the list is read there without a lock. */
void spawner_withhold_env(const char *name);

/* envp without the withheld variables: an array of envp's strings that the
 * caller frees (not the strings), or NULL when nothing is withheld. */
char **spawner_env(char *const *envp);

/* Clones and execs c on the calling thread, which waits until the child
 * has exec'd or failed (every signal is blocked meanwhile, so no handler
 * runs in the child that shares flakesweep's memory). Safe on any thread.
 * Returns the pid, or a negative errno: -ENOENT when
 * argv[0] cannot be executed (the failed child is reaped). With pidfd, the
 * child's pidfd (close-on-exec) made by the clone itself goes there, or -1
 * where the kernel makes none (before 5.2). */
pid_t spawner_clone(const struct spawner_child *c, int *pidfd);

#endif
