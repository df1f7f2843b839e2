/* SPDX-License-Identifier: MIT */
/*
 * junit-runs.h: what the JUnit report needs of each test beyond the counts
 * of results.h: its failed and hung runs one by one (cell, cores, seed,
 * output), the wall times of the runs it started in and its own times. It reads a
 * journal; it never writes.
 */
#ifndef FLAKESWEEP_JUNIT_RUNS_H
#define FLAKESWEEP_JUNIT_RUNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/results.h"

/* One failed or hung run of a test. */
struct junit_bad {
	enum results_phase phase;
	int cpu, load;
	char *cores;  /* "0,1", or NULL when the journal has none */
	char *seed;   /* or NULL */
	char *lines;  /* the test's output in the run, raw, or NULL */
	char *reason; /* why flakesweep decided it, or NULL */
	int64_t run;
};

/* A run time's bucket and how many runs fell in it. */
struct junit_bucket {
	int bucket;
	int64_t runs;
};

struct junit_test_runs {
	/* Its failed runs and its hung runs, each in journal order, at most
	 * the cap given to junit_runs_read, and how many there were. */
	struct junit_bad *fails, *hangs;
	size_t nfails, nhangs;
	int64_t total_fails, total_hangs;
	/* The wall times of the runs it started in, by bucket (exact under a
	 * second, 2.3% wide above), so memory never grows with runs. */
	struct junit_bucket *times;
	size_t ntimes;
	int64_t nruns;
	/* Its own times, where the framework reported them (the journal's
	 * "times"), the same way; nown is 0 for an older journal, or a
	 * framework that reports none (TAP). */
	struct junit_bucket *own;
	size_t nown_buckets;
	int64_t nown;
};

/* Per test of the results it was read for, by index into r->tests. */
struct junit_runs {
	struct junit_test_runs *tests;
	size_t ntests;
};

/* Reads the run lines of the journal at path for the tests of r (the
 * results replayed from it; runs of tests r lacks are passed over), keeping
 * up to cap failed and cap hung runs per test. Returns 0, or a negative
 * errno with *err (caller frees) naming the file and line. */
int junit_runs_read(const char *path, const struct results *r, size_t cap, struct junit_runs *out,
                    char **err);

/* The median of t's own times (ms) where the framework reported any,
 * else of the wall times of the runs it started in; 0 when none. */
int64_t junit_runs_median_ms(const struct junit_test_runs *t);

/* Frees what runs holds and zeroes it. */
void junit_runs_free(struct junit_runs *runs);

#endif
