/* SPDX-License-Identifier: MIT */
/*
 * canary.h: the harness's own canaries (man 1 flakesweep, CANARIES). A
 * canary is flakesweep itself, run through its hidden `canary` subcommand
 * as a run of every pair of the sweep phase, so the ordinary run path
 * (lanes, pinning, the CPU shim, the time limit, the TAP parser and the
 * journal) carries it: green must pass, red must fail, and cores checks
 * the cores and the CPU share its cpu and load promise. This module is
 * both sides: what the canary program prints, and how the sweep judges the
 * outcome it parsed. It never schedules, journals or counts anything.
 */
#ifndef FLAKESWEEP_CANARY_H
#define FLAKESWEEP_CANARY_H

#include <stdbool.h>
#include <stdio.h>

#include "drivers/outcome.h"
#include "engine/proc.h"

enum canary_kind {
	CANARY_GREEN,
	CANARY_RED,
	CANARY_CORES,
	CANARY_NKINDS,
};

/* How long the cores canary spins on each of its cores at most (ms), how many
 * spins it tries before its share counts as short (a burst of other work
 * on a busy host starves one spin, not three), and the shortest time
 * limit a canary run gets (ms; --timeout when longer). */
#define CANARY_SPIN_MS 40
#define CANARY_SPINS 3
/* How often the spin looks whether it has had its share already (ms). */
#define CANARY_LOOK_MS 0.25
#define CANARY_TIMEOUT_MIN_MS 10000

/* What the canary program is asked to check. */
struct canary_args {
	enum canary_kind kind;
	int cpu, load;    /* the pair's */
	const int *cores; /* the cores the lane assigned, ncores of them */
	int ncores;
	bool shim;         /* the CPU shim is preloaded: sysconf answers cpu */
	const char *fault; /* test only: the kinds that must misbehave, or NULL */
};

/* "green", "red", "cores"; NULL for anything else. */
const char *canary_kind_name(enum canary_kind kind);
/* The kind named name, or -1. */
int canary_kind_find(const char *name);

/* The canary program: prints TAP to out for a's kind and returns its exit
 * status (0 when every point is ok, 1 otherwise). The fault list
 * (FLAKESWEEP_CANARY_FAULT in the canary's environment, a comma list of
 * kinds) makes those kinds misbehave, for the tests: green fails, red
 * passes, cores expects one core more than it has. */
int canary_run(const struct canary_args *a, FILE *out);

/* The name of the canary runs' program, beside flakesweep in a build tree
 * and in its library directory once installed. */
#define CANARY_PROGRAM_NAME "flakesweep-canary"

/* The canary runs' program for the flakesweep at exe (a real path):
 * CANARY_PROGRAM_NAME beside it (a build tree); else, for the flakesweep
 * installed in bindir (or moved with its prefix), the one in pkglibdir
 * (datadir_libexec_in); else exe itself, whose canary
 * subcommand does the same checks, slower to start. Caller frees. */
char *canary_program_for(const char *exe, const char *bindir, const char *pkglibdir);

/* The argv of a canary run of kind at (cpu, load) on cores (ncores of
 * them), program being canary_program_for's. Caller frees with
 * util_strv_free. */
char **canary_argv(const char *program, enum canary_kind kind, int cpu, int load, const int *cores,
                   int ncores, bool shim);

enum canary_verdict {
	CANARY_EXPECTED,   /* it did what it must */
	CANARY_UNEXPECTED, /* the harness misbehaved */
	CANARY_NOISY,      /* a cores canary starved while the host was busy */
};

/* Judges a canary run of kind from its parsed outcome o and its exit ex;
 * noise is the host noise measured on its cores while it ran (noise.h),
 * or < 0 when unmeasured. A cores canary whose only failed point is the
 * CPU share is noisy, not unexpected, when noise is at least NOISE_NOISY
 * or unmeasured. *why (caller frees) says what went wrong for a verdict
 * other than CANARY_EXPECTED, else NULL. */
enum canary_verdict canary_judge(enum canary_kind kind, const struct outcome *o,
                                 const struct proc_exit *ex, double noise, char **why);

#endif
