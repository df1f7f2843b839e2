/* SPDX-License-Identifier: MIT */
/*
 * interference.h: whether a test fails when runs of its package overlap
 * (a fixed port, a fixed path, a shared directory): for each test that
 * failed, its failures in runs that overlapped another run of the same
 * package against those in runs that did not, within each (cpu, load)
 * pair, by the exact stratified test (stats.h). It reads struct results
 * and writes JSON and report text; no I/O.
 */
#ifndef FLAKESWEEP_INTERFERENCE_H
#define FLAKESWEEP_INTERFERENCE_H

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "results/results.h"
#include "results/stats.h"
#include "base/util.h"

/* A test interferes when its failures in overlapped runs are this unlikely
 * at its rate alone (one-sided, stratified by pair). */
#define INTERFERENCE_ALPHA 0.01

/* Counts a finished run of package pkg at (phase, cpu, load) in the cell
 * of each test of o that ran, when it overlapped: another run of the same
 * package was alive at some time while it ran. results_add_run first. */
void interference_add_run(struct results *r, int pkg, enum results_phase phase, int cpu, int load,
                          const struct outcome *o, bool overlapped);

/* t's runs over every cell: alone (k1 failures and hangs in n1 runs) and
 * overlapped (k2 in n2). */
void interference_totals(const struct results_test *t, struct stats_table *sum);

/* The one-sided p-value that t's failures are no more frequent in
 * overlapped runs than alone at the same (cpu, load) pair, by the exact
 * stratified test over the pairs; 1 when no pair has runs of both kinds. */
double interference_p(const struct results_test *t);

/* True when t failed in overlapped sweep runs more often than in the
 * others, the pairs pooled, or the sweep ran it only overlapped: the
 * confirm phase then measures it alone (RESULTS_ALONE), so that the pairs
 * have runs of both kinds. */
bool interference_suspect(const struct results_test *t);

/* True when interference is t's cause: the p-value of the judgement of
 * overlap.h is below INTERFERENCE_ALPHA and t's failures do not
 * concentrate on one core (results_core_concentration): a run alone takes
 * its lane's first free core, so a test that fails on another core fails
 * overlapped only. interference_named judges t itself and sets *p. */
struct overlap;
bool interference_named_by(const struct results_test *t, const struct overlap *ov);
bool interference_named(const struct results_test *t, double *p);

/* results.json tests[].interference: {"overlapped": {"runs", "failures"},
 * "alone": {...}, "p"}, or NULL when t never failed (failures count hangs
 * too) or none of its runs overlapped another. */
cJSON *interference_json(const struct results_test *t);

/* The report's line for t when interference_named, with its partner
 * package when it has one and the remedies; nothing otherwise. */
void interference_text(struct buf *b, const struct results_test *t);

#endif
