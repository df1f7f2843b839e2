/* SPDX-License-Identifier: MIT */
/*
 * verify-json.h: verify.json, what a verify decided (man 5 flakesweep,
 * VERIFY RECORD): the decision per pair and overall, the runs, the commit
 * and whether the tree was clean, and the band-aids. `report --close`
 * reads it before it closes a discussion as fixed.
 */
#ifndef FLAKESWEEP_VERIFY_JSON_H
#define FLAKESWEEP_VERIFY_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "results/compare.h"

#define VERIFY_JSON_SCHEMA "flakesweep/verify/v1"

/* One pair verify ran at, with the sequential test's state there
 * (stats.h: STATS_SPRT_*). */
struct verify_json_pair {
	int cpu, load;
	int64_t runs, failures;
	int state;
};

struct verify_json {
	const char *test;
	/* "fixed", "not-fixed", "undecided", "masked" or "skipped" */
	const char *verdict;
	const char *commit; /* the checkout's commit, or NULL */
	bool dirty;         /* a tracked file differed from it */
	const struct verify_json_pair *pairs;
	size_t npairs;
	const struct compare_test *compared; /* the test's compare line, or NULL */
};

/* "fixed", "not-fixed" or "undecided" for a sequential test's state. */
const char *verify_json_decision(int state);

/* Writes dir/verify.json for v, atomically. Returns 0, or a negative errno
 * with *err (caller frees) naming the file. */
int verify_json_write(const char *dir, const struct verify_json *v, char **err);

#endif
