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

#include "drivers/outcome.h"
#include "results/durations.h"
#include "results/harness.h"

enum results_phase {
	RESULTS_SWEEP,
	RESULTS_CONFIRM,
	/* Confirm runs of a test whose failures pile up where runs of its
	 * package overlap, each with no other run of its package anywhere on
	 * the machine (interference.h): its alone cells. */
	RESULTS_ALONE,
};

enum results_verdict {
	RESULTS_PASSED,
	RESULTS_FLAKY,
	RESULTS_FAILING, /* failed or hung every run at some pair */
	RESULTS_CASCADE, /* failed only after an earlier test of its process, never alone */
	/* Never failed or hung, and skipped itself in some runs but not in
	 * others: the runs it skipped may hide failures. */
	RESULTS_SKIP_FLAKY,
	RESULTS_SKIPPED, /* skipped itself in every run it had */
};

/* A pair needs this many runs (sweep and confirm together), every one
 * failed or hung, for a failing verdict: a test that passes half its runs
 * fails 10 in a row with probability 1/1024, so failing is not called on
 * a short streak. Fewer all-red runs are flaky until the pair has more,
 * unless the test never passed at all: flaky needs a pass. */
#define RESULTS_FAILING_MIN_RUNS 10

/* How a cell's pair was given its runs (engine/adaptive.h); NONE but in
 * the sweep phase of an --adaptive sweep. */
enum results_allocation {
	RESULTS_ALLOC_NONE,
	RESULTS_ALLOC_MINIMUM,  /* "minimum": --count-min, no more */
	RESULTS_ALLOC_ADAPTIVE, /* "adaptive": more where intervals were widest */
	RESULTS_ALLOC_STOPPED,  /* "stopped-early": no failure, told apart */
};

struct results_cell {
	enum results_phase phase;
	int cpu, load;
	enum results_allocation allocation;
	int64_t runs, failures, hangs;
	/* The runs in which the test skipped itself: not among runs, which
	 * are the runs it ran in (passed, failed or hung). */
	int64_t skipped;
	/* Host noise over its measured runs (noise.h): the time other processes
	 * took on their cores and those cores' whole time, both in ms. */
	double noise_ms, noise_core_ms;
	/* Its measured runs whose own share (noise_share of the run's other_ms
	 * and core_ms) was above NOISE_NOISY, and their failures and hangs:
	 * a cell's mean hides a busy core among the pair's others. */
	int64_t noisy_runs, noisy_bad;
	/* Its runs that overlapped another run of the package, and their
	 * failures and hangs (interference.h); the rest ran alone. */
	int64_t overlapped_runs, overlapped_bad;
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

/* The runs of a test at one cpu count that were pinned to one core (among
 * others), and how many of them failed or hung. */
struct results_core {
	int core, cpu;
	int64_t runs, failures;
};

#define RESULTS_CANDIDATES 4

/* A polluter found after the first: each has its own seed (the failing
 * one or a new one) and command. */
struct results_polluter_more {
	char *test, *seed, *command;
};

/* What the search for an order-dependent test's polluter found
 * (engine/polluter.h). */
struct results_polluter {
	char *test;          /* the first polluter, a top-level test, or NULL: none found */
	char *seed;          /* the failing seed it replayed */
	char *command;       /* reproduces the pair directly, or NULL */
	int64_t runs;        /* the runs the search took to the first (all when none) */
	int64_t search_runs; /* the runs the whole search took, the others' too */
	struct results_polluter_more *more; /* the others, in the order found */
	size_t nmore;
};

struct results;

struct results_test {
	char *id;   /* "PACKAGE::TEST" */
	char *test; /* full name with subtests */
	int pkg;    /* index into results.pkgs */
	struct results_cell *cells;
	int ncells;
	struct results_failure *first; /* NULL until it fails or hangs */
	struct results_core *cores;    /* sorted by cpu, then core */
	int ncores;
	/* Cascades: its sweep runs that failed or hung, and the earlier tests
	 * of the same process (indices into results.tests) that had failed or
	 * hung before it in every one of them, at most RESULTS_CANDIDATES. */
	int64_t sweep_bad;
	long candidates[RESULTS_CANDIDATES];
	int ncandidates;
	const struct results *owner;
	/* The ambient channels any of its runs read, sorted, NULL-terminated;
	 * NULL when the framework reported none. */
	char **channels;
	/* NULL until its polluter was searched for. */
	struct results_polluter *polluter;
};

/* An entry runs left in the package's shared directory (workdir.h). */
struct results_debris {
	char *path;  /* relative to the package's directory */
	int64_t run; /* the run after which it was first seen */
};

struct results_pkg {
	char *name;
	char *level;
	int64_t runs;
	int64_t failures_outside_tests;
	int64_t unreliable_runs;
	int64_t leaked_runs;                   /* runs that left processes behind (killed) */
	int64_t ms;                            /* the wall time of its runs */
	struct durations durations;            /* its runs' times by (cpu, load) */
	int64_t pinned, pin_failed;            /* its containers pinned, and not */
	int64_t pin_max_ms;                    /* the longest pinning latency */
	char *cpuset;                          /* the cores its containers got, or NULL */
	struct results_failure *first_outside; /* NULL if none */
	/* The entries runs left in its directory, in the order found, and the
	 * runs that started with them there. */
	struct results_debris *debris;
	size_t ndebris;
	int64_t runs_after_debris;
};

/* A container pinned (or not), as the dashboard lists the last few. */
struct results_pin {
	char *container; /* the engine's id, its first 12 characters */
	char *cpuset;    /* "0,1" */
	char *pkgs;      /* the packages it counted for, by full name, ", " between */
	int64_t latency_ms;
	char *error; /* why it was not pinned, or NULL */
};

/* The pins results keep, newest last. */
#define RESULTS_PINS_MAX 4

struct timeline;

struct results {
	struct results_test *tests;
	size_t ntests;
	struct results_pkg *pkgs;
	size_t npkgs;
	int64_t runs;
	int64_t failures; /* test failures counted in cells */
	int64_t hangs;
	double noise_ms, noise_core_ms; /* over every measured run, as in a cell */
	struct strmap *index;
	struct harness harness;                    /* the canaries: never in the counts above */
	struct results_pin pins[RESULTS_PINS_MAX]; /* the last containers pinned */
	size_t npins;
	int64_t pinned, pin_failed; /* every container pinned, and not */
	struct timeline *timeline;  /* the runs on the wall clock (timeline.h), or NULL */
};

struct results *results_new(void);
/* Frees r and everything in it. NULL is a no-op. */
void results_free(struct results *r);

/* Adds a package (copied strings) and returns its index. */
int results_add_pkg(struct results *r, const char *name, const char *level);

/* Adds ms to the run time of package pkg. */
void results_add_time(struct results *r, int pkg, int cpu, int load, int64_t ms);

/* Adds a test of package pkg with a new id and its full name (both
 * copied), with no cells yet; results_load builds results with it. */
struct results_test *results_add_test(struct results *r, int pkg, const char *id, const char *name);

/* Adds src's cells (runs, failures, hangs, noise) and its run counts to
 * dst, matching packages by name and level and tests by id, adding those
 * dst lacks; first failures, cores, cascades and interference stay dst's.
 * verify adds up the sweeps of its pairs with it. */
void results_absorb(struct results *dst, const struct results *src);

/* results_absorb, and the rest of src as a merged journal would count it
 * after dst's: packages' times, pins and debris, cells' overlapped runs,
 * first failures dst lacks (their logs' paths behind logdir/ when logdir
 * is not NULL), counts by core, channels, polluters, cascade candidates
 * kept by both, and the canaries. Merging shards (shardset.h) uses it. */
void results_absorb_part(struct results *dst, const struct results *src, const char *logdir);

/* The cell of t at (phase, cpu, load), made empty when it has none. */
struct results_cell *results_get_cell(struct results_test *t, enum results_phase phase, int cpu,
                                      int load);

/* Counts one finished run of package pkg at (phase, cpu, load) from its
 * outcome; log is where its output was kept (NULL if not kept). Returns
 * the number of tests whose first failure this run is (a new flaky or
 * failing test for the front ends). */
int results_add_run(struct results *r, int pkg, enum results_phase phase, int cpu, int load,
                    const struct outcome *o, const char *log, int64_t run);

/* The tests of a run of package pkg in which none failed or hung (a
 * journal's set line), resolved once to their entries, so that each run of
 * that shape counts without looking a test up by name. */
struct results_shape;

/* A shape for outcome o, whose tests passed or were skipped; adds the
 * tests that are new as results_add_run would. */
struct results_shape *results_shape_new(struct results *r, int pkg, const struct outcome *o);

/* Frees s after results_shape_flush. NULL is a no-op. */
void results_shape_free(struct results_shape *s);

/* The tests of shape s that ran (indices into results.tests), *n of them. */
const long *results_shape_ran(const struct results_shape *s, size_t *n);

/* The package of shape s. */
int results_shape_pkg(const struct results_shape *s);

/* Counts a run of shape s exactly as results_add_run, results_add_cores,
 * interference_add_run and (when noise is not NULL: other_ms, core_ms)
 * results_add_noise would for its outcome, in the same order of sums. The
 * counts by core wait in s for results_shape_flush. */
void results_add_shaped(struct results *r, struct results_shape *s, enum results_phase phase,
                        int cpu, int load, const int *cores, int ncores, bool overlapped,
                        const double *noise);

/* Adds the counts by core s holds to its tests. */
void results_shape_flush(struct results *r, struct results_shape *s);

/* Counts the cores (ncores of them) that a sweep run of package pkg was
 * pinned to for each test of outcome o that ran: results_add_run first.
 * Runs of another phase count nothing: a confirm run takes its lane's
 * first free core. */
void results_add_cores(struct results *r, int pkg, enum results_phase phase,
                       const struct outcome *o, const int *cores, int ncores);

/* Notes, for each test that failed or hung in sweep run o of package pkg,
 * whether an earlier test of the same process (not its parent) had failed
 * or hung: o->tests is in start order. results_add_run first. */
void results_add_order(struct results *r, int pkg, enum results_phase phase,
                       const struct outcome *o);

/* The test whose failures t's failures followed (a test name), or NULL:
 * every sweep failure of t came after that test had failed or hung earlier
 * in the same process, and that is not chance within each (cpu, load)
 * pair: with that test failing or hanging in m of the n sweep runs at a
 * pair where t failed k times, the probability that all k land in those
 * runs is C(m,k)/C(n,k), and the product over the pairs (the exact
 * stratified test, stats.h) is below RESULTS_CASCADE_ALPHA. A test that
 * fails every run at some pair explains nothing there. */
const char *results_cascade_root(const struct results_test *t);

/* True when t is a cascade: it has a cascade root, and alone (confirm) it
 * never failed in at least one run. */
bool results_cascade(const struct results_test *t);

/* The tests of r that are cascades, in order, in a new array (caller
 * frees) of *n: a writer listing each test's cascades walks these, not
 * every test again. */
const struct results_test **results_cascades(const struct results *r, size_t *n);

#define RESULTS_CASCADE_ALPHA 0.01

/* The core on which t failed most over every cpu count (the lowest on
 * ties), or -1. */
int results_worst_core(const struct results_test *t);

/* Whether t's failures concentrate on one core: for each cpu count c and
 * each core, a one-sided Fisher exact test of failures in the runs at c
 * pinned to that core against the runs at c not pinned to it;
 * concentrated when the smallest p-value is below RESULTS_CORE_ALPHA
 * divided by the number of tests made (Bonferroni). Sets *c to that entry
 * of t->cores, *runs and *bad to the runs at its cpu count and their
 * failures, and *p to its p-value. */
bool results_core_concentration(const struct results_test *t, const struct results_core **c,
                                int64_t *runs, int64_t *bad, double *p);

#define RESULTS_CORE_ALPHA 0.01

/* Adds the host noise a run of package pkg at (phase, cpu, load) saw:
 * other_ms taken by other processes out of core_ms (its wall time times
 * its cores), to the cells of every test of outcome o that ran, and to the
 * machine's; a run above NOISE_NOISY counts as noisy in those cells, with
 * its failures and hangs. results_add_run first. */
void results_add_noise(struct results *r, int pkg, enum results_phase phase, int cpu, int load,
                       const struct outcome *o, double other_ms, double core_ms);

/* Counts a run of package pkg that left processes behind when its leader
 * exited (they were killed). */
void results_note_leak(struct results *r, int pkg);
/* Container id was pinned to cpuset latency_ms after it started, or could
 * not be (error says why, else NULL); it counts for the npkgs packages
 * pkgs (a "pin" journal line, man 5 flakesweep). */
void results_note_pin(struct results *r, const char *id, const char *cpuset, const int *pkgs,
                      size_t npkgs, int64_t latency_ms, const char *error);

/* Records that path (copied) appeared in package pkg's shared directory
 * after run `run` and outlived the runs that may have made it. */
void results_add_debris(struct results *r, int pkg, const char *path, int64_t run);

/* Counts a run of package pkg that started with debris in its directory. */
void results_note_after_debris(struct results *r, int pkg);

/* True when a test looks order-dependent: it failed only in shuffled sweep
 * runs of the whole package and never in confirm runs of it alone. */
bool results_order_dependent(const struct results_test *t);

/* The test of outcome entry ot (a run of package pkg) when run is where it
 * first failed or hung, else NULL: front ends announce new failures with
 * it. */
const struct results_test *results_first_failed_in(const struct results *r, int pkg,
                                                   const struct outcome_test *ot, int64_t run);

/* Records what the polluter search for t found (strings copied; test and
 * command may be NULL), replacing what t had; its search_runs are runs
 * until said otherwise (results-polluter.c). */
void results_set_polluter(struct results_test *t, const char *test, const char *seed,
                          const char *command, int64_t runs);
/* Adds a polluter found after t's first (strings copied; command may be
 * NULL). t has a polluter. */
void results_add_polluter(struct results_test *t, const char *test, const char *seed,
                          const char *command);
/* Gives t a copy of p, the others and the search's runs included. */
void results_copy_polluter(struct results_test *t, const struct results_polluter *p);
/* Frees p. NULL is a no-op. */
void results_polluter_free(struct results_polluter *p);
struct jsonw;
/* Writes results.json's polluters: p's first and the others, each with
 * its seed and command. */
void results_polluters_json(struct jsonw *w, const struct results_polluter *p);

/* The test with this id, or NULL. */
struct results_test *results_find(const struct results *r, const char *id);

/* cascade when results_cascade says so; failing when at some pair every one of at least
 * RESULTS_FAILING_MIN_RUNS runs (sweep and confirm together) failed or hung, or when every run
 * it had failed or hung; flaky when it failed or hung otherwise. When it never failed or hung:
 * skipped when it skipped every run, skip-flaky when it skipped some, passed when none. */
enum results_verdict results_verdict(const struct results_test *t);
const char *results_verdict_name(enum results_verdict v);
/* "sweep", "confirm" or "alone", as files write it. */
const char *results_phase_name(enum results_phase p);
/* "minimum", "adaptive", "stopped-early"; NULL for NONE. */
const char *results_allocation_name(enum results_allocation a);
/* The same, translated for people. */
const char *results_phase_label(enum results_phase p);
/* The phase named name, or -1. */
int results_phase_parse(const char *name);

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
/* Counts of the skip-flaky and skipped verdicts over every test. */
void results_skip_counts(const struct results *r, int64_t *skip_flaky, int64_t *skipped);
/* The runs in which t skipped itself, over every cell. */
int64_t results_test_skipped(const struct results_test *t);

#endif
