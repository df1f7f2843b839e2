/* SPDX-License-Identifier: MIT */
/*
 * noise.h: host noise, the share of a run's cores' time that went to
 * processes that are not the sweep's runs, steal included. It reads
 * per-core busy and steal times from /proc/stat (at most once per loop
 * tick) and subtracts the CPU time of the sweep's runs pinned to those
 * cores; it never spawns, schedules or writes anything.
 */
#ifndef FLAKESWEEP_NOISE_H
#define FLAKESWEEP_NOISE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "results/noise-share.h"

struct noise;
struct noise_run;

/* A noise meter reading stat_path (NULL: /proc/stat); tests pass a file of
 * their own. */
struct noise *noise_new(const char *stat_path);
/* Frees n and the runs still begun. NULL is a no-op. */
void noise_free(struct noise *n);

/* Begins measuring a run of process group leader pid pinned to cores
 * (ncores of them, copied) at loop time tick (ms; /proc/stat is read again
 * only when tick changed). Until noise_end the run's CPU time, read from
 * /proc/PID/stat, counts as the sweep's on those cores. */
struct noise_run *noise_begin(struct noise *n, int64_t tick, pid_t pid, const int *cores,
                              int ncores);

/* Ends r (freed) at loop time tick; cpu_us is the run's whole CPU time
 * (its leader's and its reaped children's, wait4). Sets *other_ms to the
 * time (ms, summed over its cores; may be slightly negative from the
 * kernel's tick-based accounting) that other processes took on its cores
 * while it ran, and returns its share of the cores' time, 0.0-1.0, or -1
 * when /proc/stat could not be read or no tick passed. */
double noise_end(struct noise *n, struct noise_run *r, int64_t tick, int64_t cpu_us,
                 double *other_ms);

#endif
