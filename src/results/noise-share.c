/* SPDX-License-Identifier: MIT */
/*
 * noise-share.c: the share of a cell's cores' time that other processes
 * took, from the sums its runs recorded. Measuring is engine/noise.c's.
 */
#include "config.h"

#include "results/noise-share.h"

double
noise_share(double other_ms, double core_ms)
{
	double s;

	if (core_ms <= 0)
		return -1;
	s = other_ms / core_ms;
	return s < 0 ? 0 : s > 1 ? 1 : s;
}
