/* SPDX-License-Identifier: MIT */
/*
 * budget-forecast.h: a budget's first count from the scheduler's own
 * plan. With --durations (an earlier results.json), the sweep phase is
 * played in virtual time (forecast.h, what `flakesweep plan` shows) at two
 * counts; the sweep's wall time grows in a straight line with the count,
 * and the largest count whose sweep phase ends in the time left is the
 * first choice, before any run is measured.
 */
#ifndef FLAKESWEEP_BUDGET_FORECAST_H
#define FLAKESWEEP_BUDGET_FORECAST_H

#include <stddef.h>
#include <stdint.h>

#include "drivers/driver.h"
#include "engine/options.h"

/* The count whose sweep phase, planned on cores CPUs for the packages
 * (those the durations file lacks take its other packages' median times),
 * ends within left_ms; 0 without --durations, when it cannot be read or
 * played, or when not even one run a pair fits. */
int budget_forecast_count(const struct options *o, int cores, struct pkg *const *pkgs, size_t npkgs,
                          int64_t left_ms);

#endif
