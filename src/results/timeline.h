/* SPDX-License-Identifier: MIT */
/*
 * timeline.h: every counted run of a sweep on the wall clock: its package,
 * phase, pair, start and end, host noise, the tests that ran in it and
 * those that failed or hung. The cause rules read it after the fact: which
 * runs were alive while a test's run was (any package, any level), when
 * its failures happened, how noisy its failing runs were against its
 * passing ones. It reads struct results only; no I/O.
 */
#ifndef FLAKESWEEP_TIMELINE_H
#define FLAKESWEEP_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/outcome.h"
#include "results/results.h"

/* What a run is, besides its tests. */
struct timeline_span {
	int pkg; /* index into results.pkgs */
	enum results_phase phase;
	int cpu, load;
	/* ms since the Unix epoch, both 0 when unknown (a journal written
	 * before runs had them): such a run overlaps nothing known. */
	int64_t began, ended;
	int64_t ms;   /* its wall time, as the journal's run line gives it */
	double noise; /* its cores' share taken by other processes, < 0 unmeasured */
	/* The cores it was pinned to (none when unknown): read when the run
	 * is added, not kept. */
	const int *cores;
	int ncores;
};

struct timeline;

void timeline_free(struct timeline *tl);

/* Adds a run of span sp to r's timeline, in which the tests of o ran that
 * results_add_run counted (call it first): none when o is unreliable,
 * though the run still overlaps others. */
void timeline_add_outcome(struct results *r, const struct timeline_span *sp,
                          const struct outcome *o);

/* Adds a run in which the tests ran[] (indices into r->tests) ran and
 * none failed. */
void timeline_add_passed(struct results *r, const struct timeline_span *sp, const long *ran,
                         size_t nran);

/* The runs added from now on ran on another host than those before (the
 * next part of a merged journal): they overlap none of them. */
void timeline_new_host(struct results *r);

/* Adds src's runs to dst's (tests and packages matched by name) as the runs
 * of a host of their own: they overlap none of dst's. */
void timeline_absorb(struct results *dst, const struct results *src);

/* One run of a test, as the cause rules see it. */
struct timeline_obs {
	int64_t began, ended; /* 0 when unknown */
	/* No test but it (and its subtests or parent) ran in the run's
	 * process: a confirm run, or a run of a package with one test. Runs
	 * with other tests are another kind: those may change what it sees. */
	bool one;
	int cpu, load;
	/* Its host and the set of cores it was pinned to, numbered: runs
	 * with equal numbers had the same cores (0: unknown). */
	int host, cores;
	bool bad;        /* it failed or hung */
	int64_t ms;      /* its wall time, known in every journal */
	double noise;    /* < 0 unmeasured */
	bool overlapped; /* another run was alive on its host at some moment of its life */
	/* The packages of the runs that overlapped it, each once, ascending:
	 * partners[first .. first + npartners) of its view. */
	size_t first, npartners;
};

/* A test's runs, in the order they started. */
struct timeline_view {
	struct timeline_obs *obs;
	size_t n;
	int *partners;
	size_t npartners;
	size_t untimed; /* its runs without a start and end: no overlap claimed */
};

/* The runs of t (a test of r), each with the runs that overlapped it; free
 * with timeline_view_free. */
void timeline_view(const struct results *r, const struct results_test *t, struct timeline_view *v);
void timeline_view_free(struct timeline_view *v);

/* True when obs o overlapped a run of package pkg. */
bool timeline_obs_with(const struct timeline_view *v, const struct timeline_obs *o, int pkg);

#endif
