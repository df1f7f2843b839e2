/* SPDX-License-Identifier: MIT */
/*
 * durations.h: how long a package's runs took at each (cpu, load): the
 * runs counted and their median wall time, which results.json records as
 * the package's "durations" and `flakesweep plan` reads back. A live sweep
 * keeps every run's time to take the median; a loaded file has only the
 * medians. It does no I/O.
 */
#ifndef FLAKESWEEP_DURATIONS_H
#define FLAKESWEEP_DURATIONS_H

#include <stddef.h>
#include <stdint.h>

struct durations_cell {
	int cpu, load;
	int64_t runs;
	int64_t median_ms; /* as of the last durations_median, or as loaded */
	int32_t *ms;       /* every run's wall time (a live sweep's), runs of them */
	size_t cap;
	int64_t sorted; /* runs when median_ms was taken */
};

struct durations {
	struct durations_cell *cells;
	size_t ncells;
};

/* Counts a run of ms at (cpu, load). */
void durations_add(struct durations *d, int cpu, int load, int64_t ms);

/* Records a loaded cell: runs at (cpu, load) with that median. */
void durations_set(struct durations *d, int cpu, int load, int64_t runs, int64_t median_ms);

/* The cell's median run time in ms (the lower middle of an even count),
 * taken again only when runs were added since. */
int64_t durations_median(struct durations_cell *c);

/* Adds src's cells to dst: every run time src kept, or its medians (a
 * loaded cell replaces dst's at its pair). */
void durations_absorb(struct durations *dst, const struct durations *src);

void durations_free(struct durations *d);

#endif
