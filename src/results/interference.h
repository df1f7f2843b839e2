/* SPDX-License-Identifier: MIT */
/*
 * interference.h: whether a test fails when runs of its package overlap
 * (a fixed port, a fixed path, a shared directory): for each test that
 * failed, its failures in runs that overlapped another run of the same
 * package against those in runs that did not, by Fisher's exact test. It
 * reads struct results and writes JSON and report text; no I/O.
 */
#ifndef FLAKESWEEP_INTERFERENCE_H
#define FLAKESWEEP_INTERFERENCE_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "results/results.h"
#include "base/util.h"

/* A test interferes when its failures in overlapped runs are this unlikely
 * at its rate alone (one-sided Fisher exact test). */
#define INTERFERENCE_ALPHA 0.01

/* Counts a finished run of package pkg for each test of o that ran:
 * overlapped when another run of the same package was alive at some time
 * while it ran. results_add_run first. */
void interference_add_run(struct results *r, int pkg, const struct outcome *o, bool overlapped);

/* The one-sided p-value that t's failures are no more frequent in
 * overlapped runs than alone; 1 when either side has no run. */
double interference_p(const struct results_test *t);

/* results.json tests[].interference: {"overlapped": {"runs", "failures"},
 * "alone": {...}, "p"}, or NULL when t never failed (failures count hangs
 * too). */
cJSON *interference_json(const struct results_test *t);

/* The report's line for t when p < INTERFERENCE_ALPHA, with the remedies;
 * nothing otherwise. */
void interference_text(struct buf *b, const struct results_test *t);

#endif
