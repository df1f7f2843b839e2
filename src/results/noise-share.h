/* SPDX-License-Identifier: MIT */
/*
 * noise-share.h: host noise as results count it: the share of a cell's
 * cores' time that went to processes that are not the sweep's runs, and
 * the share above which a cell or a machine is noisy. Measuring it is
 * engine/noise.h's.
 */
#ifndef FLAKESWEEP_NOISE_SHARE_H
#define FLAKESWEEP_NOISE_SHARE_H

/* A cell or a machine measured above this share is noisy: with a fifth of
 * its cores' time taken by others, a run at load 1 already competes the
 * way a run at a higher load would, so its rates no longer answer "does
 * load matter". */
#define NOISE_NOISY 0.2

/* The share a cell's runs saw: other_ms summed over its runs against their
 * cores' time (wall ms times cores), 0.0-1.0, or -1 when none measured. */
double noise_share(double other_ms, double core_ms);

#endif
