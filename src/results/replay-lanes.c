/* SPDX-License-Identifier: MIT */
/*
 * replay-lanes.c: each lane's share of a replayed journal's runs (see
 * replay-lanes.h), counted as replay reads the run lines. No I/O.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/replay-lanes.h"

void
replay_lanes_add(struct replay_lanes *rl, const struct journal_run *jr)
{
	struct replay_lane *l;
	int i;

	if (jr->lane < 0 || jr->lane >= UTIL_LIST_MAX)
		return;
	if (jr->lane >= rl->nlanes) {
		rl->lanes = xrealloc(rl->lanes, sizeof *rl->lanes * (size_t)(jr->lane + 1));
		memset(rl->lanes + rl->nlanes, 0,
		       sizeof *rl->lanes * (size_t)(jr->lane + 1 - rl->nlanes));
		rl->nlanes = jr->lane + 1;
	}
	l = &rl->lanes[jr->lane];
	l->runs++;
	l->core_ms += (double)jr->ms * jr->cpu / (jr->load > 0 ? jr->load : 1);
	if (jr->ended > l->ended)
		l->ended = jr->ended;
	if (jr->ended > rl->ended)
		rl->ended = jr->ended;
	for (i = 0; i < l->ncpus && l->cpus[i] < jr->cpu; i++)
		;
	if ((i < l->ncpus && l->cpus[i] == jr->cpu) || l->ncpus == REPLAY_LANE_CPUS)
		return;
	memmove(l->cpus + i + 1, l->cpus + i, sizeof *l->cpus * (size_t)(l->ncpus - i));
	l->cpus[i] = jr->cpu;
	l->ncpus++;
}

void
replay_lanes_free(struct replay_lanes *rl)
{
	free(rl->lanes);
	memset(rl, 0, sizeof *rl);
}
