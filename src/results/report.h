/* SPDX-License-Identifier: MIT */
/*
 * report.h: turns results into report.txt, and writes it beside
 * results.json (results-json.h). It reads nothing but what it is given and
 * writes files only in report_write.
 */
#ifndef FLAKESWEEP_REPORT_H
#define FLAKESWEEP_REPORT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "drivers/driver.h"
#include "decisions/quarantine.h"
#include "results/results.h"

/* The reproduce commands of a failed test at its worst cell: *flakesweep
 * and *direct (caller frees both). */
typedef void (*report_reproduce_cb)(void *arg, const struct results_test *t,
                                    const struct results_cell *worst, char **flakesweep,
                                    char **direct);

struct report_keep;
struct causes;
struct report_meta;

/* What results.json and report.txt both derive from the results: each
 * test's causes and the tests that are cascades (results_cascades). */
struct report_derived {
	struct causes *causes;
	const struct results_test **cascades;
	size_t ncascades;
};

/* Works them out for r; report_derived_free frees them. With m->cache,
 * report_keep_derive does, and compares each test with what it kept. */
void report_derive(const struct results *r, const struct report_meta *m, struct report_derived *d);
void report_derived_free(struct report_derived *d);

struct report_meta {
	const char *status;      /* "running", "complete" or "interrupted" */
	bool simulated;          /* a plan's virtual runs (`plan -o`) */
	int64_t started_ms;      /* ms since the epoch */
	int64_t finished_ms;     /* 0 while running */
	const cJSON *machine;    /* {"cores","keep","lanes"} */
	const cJSON *project;    /* {"driver","root","commit","toolchain"} */
	const cJSON *config;     /* the sweep's options */
	const cJSON *machines;   /* a merge's parts (host, shard, machine), or NULL */
	struct pkg *const *pkgs; /* parallel to results.pkgs */
	size_t npkgs;
	report_reproduce_cb reproduce;
	/* Unless status is "complete": true while a pair of t's package or of
	 * t has not had its planned runs (NULL: always). */
	bool (*provisional)(void *arg, const struct results_test *t);
	void *arg;
	/* The quarantine file's entries, or NULL. Their statuses are judged
	 * on these results (quarantine_evaluate) when the JSON is made. */
	struct quarantine *quarantine;
	int64_t now_ms; /* for expiry countdowns */
	/* What the last rewrite kept (report_keep_new), or NULL. */
	struct report_keep *cache;
	/* Worked out once for both files (report_derive, in report_write),
	 * or NULL: each writer works them out itself. */
	const struct report_derived *derived;
};

/* The text report: a summary, the flaky and failing tests with their
 * cells (rate and 95% interval), first failure and reproduce commands,
 * packages that failed to build or failed outside tests. Caller frees. */
char *report_text(const struct results *r, const struct report_meta *m);

/* Writes DIR/results.json and DIR/report.txt atomically, synced to disk
 * unless m->status is "running". Returns 0 or a negative errno with *err
 * set (caller frees). With m->cache and "running", the files are handed
 * to its writer thread (report_keep_writer) and written while the caller
 * goes on: an error of theirs is returned by the next call, which waits
 * for them first. */
int report_write(const char *dir, const struct results *r, const struct report_meta *m, char **err);

/* The exit status DESIGN section 10 gives a finished sweep: 2 when the
 * harness is not clean (a canary misbehaved), 1 when a test failed or hung
 * or a package failed outside its tests or to build, else 0. */
int report_exit_status(const struct results *r, const struct report_meta *m);

#endif
