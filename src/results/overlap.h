/* SPDX-License-Identifier: MIT */
/*
 * overlap.h: whether a test fails when other runs are alive on the
 * machine (interference), judged after the fact from the timeline
 * (timeline.h): any run of any package at any level counts. Runs are
 * compared like with like, within strata of (cpu, load), and of kind too
 * for a test that looks order-dependent (results_order_dependent): a run
 * of the whole package or of the test by itself (confirm):
 * the test's runs that overlapped another run against those that nothing
 * overlapped, and its runs that overlapped a run of one package (the
 * partner) against those that did not. It reads struct results only; no
 * I/O.
 */
#ifndef FLAKESWEEP_OVERLAP_H
#define FLAKESWEEP_OVERLAP_H

#include <stdbool.h>
#include <stdint.h>

#include "results/results.h"

/* The partner packages tried, the ones most of the failures overlapped. */
#define OVERLAP_PARTNERS 3

struct overlap {
	/* Every run of the test has a start and an end: without them (a
	 * journal written before runs had them) nothing is claimed. */
	bool known;
	/* The one-sided p-value that its failures are no more frequent in
	 * overlapped runs (or in runs overlapping the partner), the smallest
	 * of the comparisons times their number (Bonferroni); -1 unknown. */
	double p;
	int64_t k_over, n_over;   /* failures and runs that another run overlapped */
	int64_t k_alone, n_alone; /* failures and runs that nothing overlapped */
	/* The package its failures' overlaps concentrate on (more than half
	 * of them, and its own comparison below OVERLAP_ALPHA after the
	 * Bonferroni factor), or -1; its failures and those that overlapped a
	 * run of it, and its runs that overlapped none. */
	int partner;
	int64_t bad, bad_with;
	int64_t n_with; /* its runs that overlapped a run of the partner */
	int64_t k_without, n_without;
};

#define OVERLAP_ALPHA 0.01

/* Judges t (a test of r) into *ov. Results with no timeline at all (read
 * from results.json) are judged from their cells: overlap with runs of the
 * test's own package, as the sweep marked them. */
void overlap_judge(const struct results *r, const struct results_test *t, struct overlap *ov);

/* The same from v, t's timeline view (timeline_view), made already. */
struct timeline_view;
void overlap_judge_view(const struct results *r, const struct results_test *t,
                        const struct timeline_view *v, struct overlap *ov);

#endif
