/* SPDX-License-Identifier: MIT */
/*
 * plan.h: which pairs get how many runs (DESIGN section 3). A pair is a
 * package (sweep) or one test (confirm) at one (cpu, load). The sweep
 * phase gives every package that built with tests --count runs at every
 * pair; the confirm phase gives each test that failed in the sweep
 * --confirm runs alone at every pair, plus the confirm runs asked for on
 * demand. The live sweep builds its scheduler from the plan, and a
 * replayed journal measures its progress against the same plan. It does
 * no I/O.
 */
#ifndef FLAKESWEEP_PLAN_H
#define FLAKESWEEP_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/driver.h"
#include "results/plan-pairs.h"
#include "results/results.h"

/* Called for each pair the plan adds runs to: extra more runs, p->target
 * already counting them (p->target == extra when p is new). */
typedef void (*plan_added_cb)(void *arg, struct plan_pair *p, int extra);

/* True when the package is run: it built and has tests at its level. */
bool plan_pkg_runs(const struct pkg *pkg);

/* The level's runs hold an environment (driver_level_kind): they get one
 * pair, the widest --cpu at load 1, in the sweep and in confirm. */
bool plan_env_level(const struct levels *lv, const char *level);

/* The sweep phase: --count runs of every package that runs at every pair
 * (an environment level's at its one pair). cb may be NULL. */
void plan_sweep(struct plan *p, struct pkg *const *pkgs, size_t npkgs, plan_added_cb cb, void *arg);

/* The canaries of the sweep phase, after plan_sweep: at each (cpu, load),
 * percent of the runs the plan has there, at least three, shared out
 * among the kinds (names[0..nkinds)) in turn; none when percent is 0. */
void plan_canaries(struct plan *p, double percent, const char *const *names, int nkinds,
                   plan_added_cb cb, void *arg);

/* count more runs of test t (of a package at level) alone at every pair, in phase RESULTS_CONFIRM
 * (no other test of its package in the run) or RESULTS_ALONE (no other run
 * of its package on the machine either). */
void plan_confirm_test(struct plan *p, const struct results_test *t, const char *level,
                       enum results_phase phase, int count, plan_added_cb cb, void *arg);

/* The confirm phase: --confirm runs of each test whose first failure was
 * in the sweep (none with --run), as many again in RESULTS_ALONE for those
 * interference_suspect() names, then the n confirms asked for on demand
 * (test ids and counts; ids not in r are skipped). */
void plan_confirm(struct plan *p, const struct results *r, struct pkg *const *pkgs,
                  char *const *tests, const int *counts, size_t n, plan_added_cb cb, void *arg);

/* Runs done (each pair's up to its target) and planned; canaries are not
 * counted. */
void plan_progress(const struct plan *p, int64_t *done, int64_t *target);

#endif
