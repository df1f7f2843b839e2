/* SPDX-License-Identifier: MIT */
/*
 * results.h: the counts of a sweep (DESIGN section 4): one cell per (test,
 * phase, cpu, load) with runs, failures and hangs; verdicts; first
 * failures; per-package counts. Memory grows with tests x pairs, never
 * with runs. It does no I/O.
 */
#ifndef FLAKESWEEP_RESULTS_H
#define FLAKESWEEP_RESULTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "outcome.h"

enum results_phase {
	RESULTS_SWEEP,
	RESULTS_CONFIRM,
};

enum results_verdict {
	RESULTS_PASSED,
	RESULTS_FLAKY,
	RESULTS_FAILING, /* failed or hung every run at some pair */
};

struct results_cell {
	enum results_phase phase;
	int cpu, load;
	int64_t runs, failures, hangs;
};

struct results_failure {
	enum results_phase phase;
	int cpu, load;
	char *seed;   /* or NULL */
	char *lines;  /* sanitised (no control sequences, valid UTF-8) */
	char *reason; /* why the parser decided it when the framework printed no
	               * result ("test timed out after 3s"), or NULL */
	char *log;    /* path of the kept output, relative to the output directory */
	int64_t run;  /* run id */
};

struct results_test {
	char *id;   /* "PACKAGE::TEST" */
	char *test; /* full name with subtests */
	int pkg;    /* index into results.pkgs */
	struct results_cell *cells;
	int ncells;
	struct results_failure *first; /* NULL until it fails or hangs */
};

struct results_pkg {
	char *name;
	char *level;
	int64_t runs;
	int64_t failures_outside_tests;
	int64_t unreliable_runs;
	int64_t leaked_runs;                   /* runs that left processes behind (killed) */
	struct results_failure *first_outside; /* NULL if none */
};

struct results {
	struct results_test *tests;
	size_t ntests;
	struct results_pkg *pkgs;
	size_t npkgs;
	int64_t runs;
	int64_t failures; /* test failures counted in cells */
	int64_t hangs;
	struct strmap *index;
};

struct results *results_new(void);
/* Frees r and everything in it. NULL is a no-op. */
void results_free(struct results *r);

/* Adds a package (copied strings) and returns its index. */
int results_add_pkg(struct results *r, const char *name, const char *level);

/* Adds a test of package pkg with a new id and its full name (both
 * copied), with no cells yet; results_load builds results with it. */
struct results_test *results_add_test(struct results *r, int pkg, const char *id, const char *name);

/* Counts one finished run of package pkg at (phase, cpu, load) from its
 * outcome; log is where its output was kept (NULL if not kept). Returns
 * the number of tests whose first failure this run is (a new flaky or
 * failing test for the front ends). */
int results_add_run(struct results *r, int pkg, enum results_phase phase, int cpu, int load,
                    const struct outcome *o, const char *log, int64_t run);

/* Counts a run of package pkg that left processes behind when its leader
 * exited (they were killed). */
void results_note_leak(struct results *r, int pkg);

/* True when a test looks order-dependent: it failed only in shuffled sweep
 * runs of the whole package and never in confirm runs of it alone. */
bool results_order_dependent(const struct results_test *t);

/* The test of outcome entry ot (a run of package pkg) when run is where it
 * first failed or hung, else NULL: front ends announce new failures with
 * it. */
const struct results_test *results_first_failed_in(const struct results *r, int pkg,
                                                   const struct outcome_test *ot, int64_t run);

/* The test with this id, or NULL. */
struct results_test *results_find(const struct results *r, const char *id);

enum results_verdict results_verdict(const struct results_test *t);
const char *results_verdict_name(enum results_verdict v);
const char *results_phase_name(enum results_phase p);

/* The cell with the highest failure rate (failures + hangs over runs),
 * confirm cells first on ties; NULL when the test never failed. */
const struct results_cell *results_worst_cell(const struct results_test *t);

/* Totals of a test over every cell. */
void results_test_totals(const struct results_test *t, int64_t *runs, int64_t *failures,
                         int64_t *hangs);

/* The 95% Wilson score interval of k failures in n runs (0..1). With
 * n == 0 both are 0 and 1. */
void results_wilson(int64_t k, int64_t n, double *lo, double *hi);

/* Counts of verdicts over every test. */
void results_counts(const struct results *r, int64_t *passed, int64_t *flaky, int64_t *failing);

#endif
