/* SPDX-License-Identifier: MIT */
/*
 * sequential.h: runs one test alone at one pair through the ordinary sweep
 * engine and feeds every run, in run-id order, to Wald's sequential test
 * (stats.h), stopping the sweep as soon as the test decides or the budget
 * is spent. `verify` and `bisect` both use it. It parses no command line
 * and prints nothing.
 */
#ifndef FLAKESWEEP_SEQUENTIAL_H
#define FLAKESWEEP_SEQUENTIAL_H

#include <stdbool.h>
#include <stdint.h>

#include "engine/options.h"
#include "results/stats.h"

struct sequential_result {
	int64_t runs, failures;      /* runs fed to the test, and failed or hung */
	enum stats_sprt_state state; /* CONTINUE: the budget ran out first */
	bool lacks_test;             /* the first run did not report the test */
	int exit_status;             /* the sweep's: 2 when it could not run (build) */
	char *outdir;                /* where its results are (NULL when it failed); caller frees */
};

/* What to run and when to stop. */
struct sequential_spec {
	const char *test; /* its full name as runs report it */
	int cpu, load;
	double p0, p1;  /* the rates: not fixed (flaky), fixed (clean) */
	double alpha;   /* the chance to say fixed when the rate is p0 */
	double beta;    /* the chance to say not fixed when it is p1 */
	int64_t budget; /* runs fed at most */
	/* The package whose test it is, as the runs name it; NULL: any. A run
	 * of another package's test of the same name is not the test's. */
	const char *package;
};

/* The error rates of one sequential test unless the caller splits them. */
#define SEQUENTIAL_ALPHA 0.05
#define SEQUENTIAL_BETA 0.05

/* Runs sp->test at sp->cpu and sp->load with the options in o (borrowed;
 * the caller sets the driver, the command or package, -o and o->dir; this
 * sets --cpu, --load, --count, --run, the confirm count and --ui none)
 * until Wald's test of rate p0 against p1 at alpha and beta decides or
 * budget runs were fed. Runs are fed in run-id order whatever order they finish in, so
 * a run whose failure depends only on its id gives the same answer every
 * time. SIGINT, SIGTERM and SIGHUP interrupt the sweep (exit_status 130);
 * their handlers are the caller's again when it returns.
 * Returns 0 with *r filled, or a negative errno with *err (caller
 * frees) when the sweep could not start. */
int sequential_run(struct options *o, const struct sequential_spec *sp, struct sequential_result *r,
                   char **err);

#endif
