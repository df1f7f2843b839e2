/* SPDX-License-Identifier: MIT */
/*
 * replay-lanes.h: what each lane of a replayed journal carried: its runs,
 * the cpu counts among them, the core time they took and when its last one
 * ended. A plan's simulated sweep (`plan -o`) is shown by it, lane by lane,
 * since no lane of it is ever live.
 */
#ifndef FLAKESWEEP_REPLAY_LANES_H
#define FLAKESWEEP_REPLAY_LANES_H

#include <stdint.h>

#include "results/journal.h"

/* The cpu counts a lane keeps apart, ascending; more are not listed. */
#define REPLAY_LANE_CPUS 8

struct replay_lane {
	int64_t runs;
	/* Each run's ms times its cores over its load: the core time it took
	 * when its load's other runs share its cores. */
	double core_ms;
	int64_t ended; /* its last run's end, ms since the epoch; 0: unknown */
	int cpus[REPLAY_LANE_CPUS];
	int ncpus;
};

struct replay_lanes {
	struct replay_lane *lanes; /* by lane number */
	int nlanes;
	int64_t ended; /* the last end of any run; 0: unknown */
};

/* Counts the finished run jr on its lane. */
void replay_lanes_add(struct replay_lanes *rl, const struct journal_run *jr);

void replay_lanes_free(struct replay_lanes *rl);

#endif
