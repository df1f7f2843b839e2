/* SPDX-License-Identifier: MIT */
/*
 * rates.h: what compare, verify and bisect share on the command line:
 * the options of the rate comparison (--level, --margin, --alpha) and
 * reading a results.json or an output directory's.
 */
#ifndef FLAKESWEEP_CLI_RATES_H
#define FLAKESWEEP_CLI_RATES_H

#include <stdbool.h>
#include <stdio.h>

#include <cjson/cJSON.h>

#include "results/compare.h"

struct options;
struct results;

/* The ids of the shared options, above every command's own. */
enum {
	RATES_LEVEL = 2000,
	RATES_MARGIN,
	RATES_ALPHA,
};
#define RATES_OPTIONS                                                 \
	{"level", true, RATES_LEVEL}, {"margin", true, RATES_MARGIN}, \
	{                                                             \
		"alpha", true, RATES_ALPHA                            \
	}

/* Records one of the shared options into co. Returns 1 when id was one,
 * 0 when it was not, -1 after printing an error naming the option (a
 * value that is not a number above 0, at most 1). */
int rates_set(struct compare_options *co, int id, const char *value);

/* The options verify and bisect take besides the sweep's own. */
struct rates_seq {
	const char *test, *results, *good, *bad;
	long long budget; /* runs at most per pair or commit (1000) */
	struct compare_options co;
};

/* Parses the command line of verify or bisect (name): its own options into
 * a, the rest as a sweep's (cmd_stress_parse_for) into o, which it
 * initialises; --help prints usage. Returns 0 to go on, 1 when --help was
 * printed (leave with 0), or 2 after printing an error. */
int rates_seq_parse(struct rates_seq *a, struct options *o, int argc, char **argv, const char *name,
                    void (*usage)(FILE *f));

/* The go driver sweeps the test's own package unless packages were named. */
void rates_seq_package(struct options *o, const char *package);

/* Reads PATH, or PATH/results.json when PATH is a directory; NULL after
 * printing an error naming the file and what was expected. */
struct results *rates_load(const char *path);

/* rates_load, and the results' project object into *project (caller
 * deletes; NULL when the file has none). */
struct results *rates_load_project(const char *path, cJSON **project);

#endif
