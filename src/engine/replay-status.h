/* SPDX-License-Identifier: MIT */
/*
 * replay-status.h: where the sweep of a replayed journal (results/replay.h)
 * stands, as the live sweep counts it and as front ends show it.
 */
#ifndef FLAKESWEEP_REPLAY_STATUS_H
#define FLAKESWEEP_REPLAY_STATUS_H

#include <stdint.h>

#include "engine/status.h"
#include "results/replay.h"

/* Where the sweep of the journal stands, as the live sweep counts it:
 * its phase, and the runs done and planned in that phase. A sweep that
 * completed has done all it planned; one that ended before (interrupted,
 * stopped on an error) is SWEEP_PHASE_DONE with the runs done and planned
 * in the phase it reached. */
void replay_progress(const struct replay *r, enum sweep_phase *phase, int64_t *done,
                     int64_t *target);

/* Fills st (zeroed, or filled before) with where the journal's sweep
 * stands, as sweep_status does for a live one; the lanes are the
 * recorded ones, with no run (inflight counts the runs spawned and never
 * recorded). Free with status_free. */
void replay_status(const struct replay *r, struct sweep_status *st);

#endif
