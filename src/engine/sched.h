/* SPDX-License-Identifier: MIT */
/*
 * sched.h: the queue and the lanes' slots (DESIGN section 3). It decides
 * which pair runs next and on which cores; the caller starts and finishes
 * the runs. It never spawns, reads output or touches the loop, so its
 * properties are tested with a fake runner.
 */
#ifndef FLAKESWEEP_SCHED_H
#define FLAKESWEEP_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/lanes.h"

/* How far ahead of the pair furthest behind the queue lets a pair go, in
 * lanes' worth of its runs (a lane's worth: width x load / cpu runs, what
 * one lane holds of it at once). A pair that fits a busy lane may start
 * while its share of its target started is at most that many runs ahead
 * of the share of the pair furthest behind; so no pair is ever more than
 * that many runs plus one ahead, and a lane keeps one load and width for
 * about that many runs' time before it drains for another. Pairs the cap
 * or an environment holds back can fall further behind. */
#define SCHED_AHEAD_LANES 8

/* One run the scheduler placed. Owned by the scheduler; valid until
 * sched_finish. */
struct sched_run {
	int pair;   /* the pair it belongs to */
	int lane;   /* lane index */
	int ncpus;  /* = the pair's cpu */
	int *cpus;  /* the CPU ids it is pinned to */
	int *slots; /* their indexes inside the lane */
	void *data; /* the caller's */
};

struct sched;

/* Called for each run placed; the caller starts it now and later calls
 * sched_finish. */
typedef void (*sched_start_cb)(void *arg, struct sched_run *run);

/* A scheduler over the lanes (borrowed: they must outlive it). */
struct sched *sched_new(const struct lanes *lanes, sched_start_cb start, void *arg);

/* Frees s. Runs still placed are forgotten. NULL is a no-op. */
void sched_free(struct sched *s);

/* Adds a pair: target runs at cpu cores and load runs per core. data is
 * the caller's. Returns the pair id (0, 1, ...). */
int sched_add_pair(struct sched *s, int cpu, int load, int target, void *data);

/* Spreads a pair's runs over the phase: its i-th run is due when the
 * other pairs are (i + 1/2) / target of the way, not at the start
 * (canaries, interleaved with the runs they vouch for). */
void sched_spread_pair(struct sched *s, int pair);

/* Puts a pair in group (a package, 0 and up): when alone, none of its
 * runs shares the machine with another run of the group, the group's
 * other runs wait while one runs, and its runs wait until the group's
 * pairs that are not alone started all theirs (the group drains once).
 * A pair in no group (the default) is never held back. */
void sched_pair_group(struct sched *s, int pair, int group, bool alone);

/* At most cap runs of capped pairs run at once (--containers). */
void sched_set_cap(struct sched *s, int cap);
void sched_cap_pair(struct sched *s, int pair);

/* Environments (--clusters): a pair in environment env (0 and up) runs
 * only on the lane its environment holds, one run of the environment at
 * a time, after the caller said it is up. The queue lets an environment
 * with runs owed claim a lane before placing anything else, while fewer
 * than max environments hold one; a claimed lane takes no other run and,
 * once drained, up(arg, env, lane) is called. When no run of env is owed
 * or in flight, down(arg, env, lane) is called; the lane stays the
 * environment's until sched_env_release. */
typedef void (*sched_env_cb)(void *arg, int env, int lane);
void sched_set_envs(struct sched *s, int max, sched_env_cb up, sched_env_cb down);
void sched_env_pair(struct sched *s, int pair, int env);
/* The environment is up: its runs may start. */
void sched_env_ready(struct sched *s, int env);
/* The environment could not come up: its pairs owe no more runs. */
void sched_env_drop(struct sched *s, int env);
/* The environment is down: its lane is free again. */
void sched_env_release(struct sched *s, int env);
/* The environment holding the lane, or -1. */
int sched_lane_env(const struct sched *s, int lane);

/* Raises a pair's target by extra runs (confirm on demand). */
void sched_add_runs(struct sched *s, int pair, int extra);

/* Counts n runs of pair as already done (resume). */
void sched_mark_done(struct sched *s, int pair, int n, int64_t total_ms);

/* Places every run that fits now, calling start for each. Does nothing
 * while paused. */
void sched_dispatch(struct sched *s);

/* Frees the run's slots and records its duration (ms) for the tie-break.
 * Does not dispatch: call sched_dispatch after. */
void sched_finish(struct sched *s, struct sched_run *run, int64_t duration_ms);

/* Frees the run's slots for a run that never started: it is not counted
 * done and its pair still owes it. */
void sched_cancel(struct sched *s, struct sched_run *run);

/* A held lane gets no new run; its runs in flight go on (--quiet). */
void sched_hold_lane(struct sched *s, int lane, bool hold);
bool sched_lane_on_hold(const struct sched *s, int lane);

/* Paused: no run is placed; runs in flight go on. */
void sched_pause(struct sched *s, bool paused);
bool sched_paused(const struct sched *s);

/* Every pair reached its target and no run is in flight. */
bool sched_complete(const struct sched *s);

int sched_npairs(const struct sched *s);
int sched_running(const struct sched *s);
void *sched_pair_data(const struct sched *s, int pair);
void sched_pair_counts(const struct sched *s, int pair, int *cpu, int *load, int *target,
                       int *started, int *done);
/* Total runs to do and done over every pair. */
void sched_totals(const struct sched *s, int64_t *target, int64_t *done);

/* Lane state for front ends: the lane's current load (0 while empty), the
 * runs pinned to its core slot i, and the pair it holds waiting for room
 * (-1 if none). */
int sched_lane_load(const struct sched *s, int lane);
int sched_lane_core_runs(const struct sched *s, int lane, int slot);
int sched_lane_held(const struct sched *s, int lane);

/* What pair's group holds it back for, if anything. */
enum sched_group_wait {
	SCHED_WAIT_NONE,
	SCHED_WAIT_TO_RUN_ALONE, /* it runs alone: the group's other runs must end */
	SCHED_WAIT_FOR_ALONE,    /* a run of the group runs, or waits to run, alone */
};
enum sched_group_wait sched_pair_group_wait(const struct sched *s, int pair);

#endif
