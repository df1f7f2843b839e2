/* SPDX-License-Identifier: MIT */
/*
 * sweep.h: the sweep engine (DESIGN section 3): discover, build every
 * package before any run, sweep every (package, cpu, load) pair, then
 * confirm each test that failed at every pair, journaling every run. It
 * runs on one libuv loop and reports through an observer; front ends drive
 * it with the commands below.
 */
#ifndef FLAKESWEEP_SWEEP_H
#define FLAKESWEEP_SWEEP_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "drivers/driver.h"
#include "engine/observer.h"
#include "engine/options.h"
#include "results/results.h"
#include "engine/status.h"

/* A run in flight, as front ends see it. */
struct sweep_run {
	int64_t id;
	int pkg; /* package index, as in results.pkgs */
	enum results_phase phase;
	int cpu, load;
	int lane;
	const int *cpus;    /* the cores it is pinned to, cpu of them */
	const char *test;   /* confirm: the selected test, else NULL */
	int64_t started_ms; /* util_now_ms() at spawn */
};

struct sweep;

/* Prepares a sweep from o (borrowed; must outlive the sweep): creates the
 * output directory, which must be new or empty, or with --resume reads its
 * journal back. Removes the GitHub token variables and o->scrub_env from
 * the process environment, so no child sees them, and masks the values of
 * secret-looking variables and o->mask_env in every child's output until
 * it is freed (proc_set_mask). Returns NULL with *err
 * (caller frees) on a usage or input error; the output directory is
 * checked before anything is written. */
struct sweep *sweep_new(uv_loop_t *loop, struct options *o, const struct observer *obs, char **err);

/* Starts the work on the loop. Returns 0, or -1 with *err (discovery
 * failed, say; nothing was lost). */
int sweep_start(struct sweep *s, char **err);

/* Stops dispatching, kills every run in flight (their results are not
 * counted), writes results.json with status "interrupted" and finishes. */
void sweep_interrupt(struct sweep *s);

/* Ends the sweep early because it has what it needs (a sequential test
 * decided): like sweep_interrupt, runs in flight are killed and not
 * counted, but results.json says "complete". Only in the sweep or confirm
 * phase; otherwise a no-op. */
void sweep_stop(struct sweep *s);

/* Pauses or resumes dispatching; runs in flight go on. */
void sweep_pause(struct sweep *s, bool paused);
bool sweep_paused(const struct sweep *s);

/* Queues count confirm runs of the test with this id at every pair, now.
 * A sweep that completed runs again for them: a confirm phase of just
 * those runs, journaled after a resume line, then it finishes again.
 * Returns 0, or -ENOENT when no such test ran (or the sweep has no runs
 * yet), -EAGAIN when the sweep was interrupted or is ending, -ENOEXEC
 * when the test's binary is gone, -ENOTDIR when the project is. */
int sweep_confirm(struct sweep *s, const char *test_id, int count);

/* Why sweep_confirm returned rc, for people (static, translated). */
const char *sweep_confirm_strerror(int rc);

/* How the sweep ended ("complete", "interrupted"), or NULL while it runs. */
const char *sweep_end_status(const struct sweep *s);

/* The status DESIGN section 10 gives: 0, 1, 2 or 130. Valid once
 * finished. */
int sweep_exit_status(const struct sweep *s);

/* Frees s; call after the loop ran out. */
void sweep_free(struct sweep *s);

enum sweep_phase sweep_phase(const struct sweep *s);
/* The phase's name for people ("sweep", translated). Static string. */
const char *sweep_phase_label(enum sweep_phase phase);
const struct results *sweep_results(const struct sweep *s);
const char *sweep_outdir(const struct sweep *s);
/* The project's root directory, or NULL when not known yet. */
const char *sweep_root(const struct sweep *s);

/* Fills st (zeroed, or filled before) with where the sweep stands; free
 * with status_free. */
void sweep_status(const struct sweep *s, struct sweep_status *st);

/* The report of what was measured, from memory: results.json's text when
 * json, else report.txt's (caller frees). It does not depend on the disk,
 * so a sweep stopped by a full disk still shows its results. */
char *sweep_report(struct sweep *s, bool json);
/* True while a pair of t's package (sweep) or of t (confirm) in the
 * current phase has not had its planned runs, or before the sweep phase:
 * its verdict may still change. */
bool sweep_provisional(const struct sweep *s, const struct results_test *t);

/* Runs done and planned in the current phase, and in all so far. */
void sweep_progress(const struct sweep *s, int64_t *done, int64_t *target);
int64_t sweep_started_ms(const struct sweep *s);
/* The packages built (or found unbuildable) and all to build (build.c). */
void sweep_build_progress(const struct sweep *s, int64_t *done, int64_t *total);
/* Whether the sweep began: its journal has its header (a sweep that failed
 * in discovery never did). */
bool sweep_began(const struct sweep *s);
/* The reproduce commands of a test at a cell (caller frees both). */
void sweep_reproduce(const struct sweep *s, const struct results_test *t,
                     const struct results_cell *c, char **flakesweep, char **direct);

/* What the reproduce commands of a test need, from a live sweep or read
 * back from a journal (all borrowed). */
struct sweep_config;
struct sweep_repro {
	const struct driver *driver;
	const struct options *o;
	const struct sweep_config *config; /* as the journal header records it */
	const char *root;                  /* the project root; NULL for "." */
	const int *cores; /* the first lane's cores, width of them; NULL for 0, 1, ... */
	int width;
	struct pkg *const *pkgs;
	size_t npkgs;
};

/* The reproduce commands of a test at a cell (caller frees both). */
void sweep_repro_commands(const struct sweep_repro *rp, const struct results_test *t,
                          const struct results_cell *c, char **flakesweep, char **direct);

#endif
