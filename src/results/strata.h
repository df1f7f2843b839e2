/* SPDX-License-Identifier: MIT */
/*
 * strata.h: a test's cells as the strata of the exact stratified test
 * (stats.h), one 2x2 table per (cpu, load) pair with the pair's phases
 * together. The causes that compare two kinds of runs (overlapped against
 * alone, noisy against quiet) compare within each pair, because one kind
 * is more common at some pairs than at others. Pure arithmetic: no I/O.
 */
#ifndef FLAKESWEEP_STRATA_H
#define FLAKESWEEP_STRATA_H

#include "results/results.h"
#include "results/stats.h"

/* Adds the counts of cell c to table x: the kind that is not suspect on
 * side 1, the suspect kind on side 2. */
typedef void (*strata_add_cb)(struct stats_table *x, const struct results_cell *c);

/* Adds every cell of t to sum with add. */
void strata_totals(const struct results_test *t, strata_add_cb add, struct stats_table *sum);

/* The one-sided p-value that t's failures are no more frequent on the
 * second sides than on the first at the same (cpu, load) pair, by
 * stats_strata_greater over one table per pair, each of the pair's cells
 * added with add; 1 when no pair has runs of both sides. */
double strata_pairs_greater(const struct results_test *t, strata_add_cb add);

#endif
