/* SPDX-License-Identifier: MIT */
/*
 * journal-canary.h: the journal's canary lines (man 5 flakesweep), one per
 * finished canary run, carrying what results/harness.c counts, so --resume
 * and `report --rebuild` give the same harness as the live sweep. Canary
 * runs number in their own sequence and never take a run id of the
 * project's. It encodes and decodes lines; journal.c writes them.
 */
#ifndef FLAKESWEEP_JOURNAL_CANARY_H
#define FLAKESWEEP_JOURNAL_CANARY_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "results/journal.h"

struct journal_canary {
	int64_t canary;   /* canary run number, 1, 2, ... */
	const char *kind; /* "green", "red", "cores" */
	int cpu, load, lane;
	int64_t ms;
	struct proc_exit exit;
	int cores[JOURNAL_CORES_MAX];
	int ncores;
	bool has_noise;
	double noise;           /* host noise on its cores, 0.0-1.0 */
	bool unexpected, noisy; /* the sweep's judgement (engine/canary.h) */
	const char *why;        /* what went wrong (sanitised text), or NULL */
};

/* Appends a canary line. Returns journal_write's result. */
int journal_canary_write(struct journal *j, const struct journal_canary *c);

/* Decodes a canary line into c (strings borrowed from line). Returns 0, or
 * -EINVAL with *why naming the field (caller frees). */
int journal_canary_decode(const cJSON *line, struct journal_canary *c, char **why);

#endif
