/* SPDX-License-Identifier: MIT */
/*
 * results-json-in.h: the state of results.json's reader
 * (results-json-read.c) that its values (results-json-value.c), the
 * checks of results-json-check.c and the packages' durations
 * (results-json-durations.c) share: the path to the value being read, so
 * an error names the file, the line and the field. Only those files
 * include it.
 */
#ifndef FLAKESWEEP_RESULTS_JSON_IN_H
#define FLAKESWEEP_RESULTS_JSON_IN_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

#include "results/results.h"

/* One step of the path to the value being read: a key, or an index when
 * key is NULL. */
struct results_json_step {
	const char *key;
	int index;
};

#define RESULTS_JSON_DEPTH 6

struct results_json_in {
	const char *path;
	const char *text; /* the whole file, valid JSON */
	struct results_json_step steps[RESULTS_JSON_DEPTH];
	int depth;
	char *err;
};

/* Sets in->err, unless an error was set before, to "PATH:LINE: FIELD:
 * WHAT" for the value at the path with key (or NULL) as a last step, and
 * returns -EBADMSG. */
int results_json_fail(struct results_json_in *in, const char *key, const char *what);

/* One step deeper into the path (key, or index when key is NULL), and
 * back. */
void results_json_push(struct results_json_in *in, const char *key, int index);
void results_json_pop(struct results_json_in *in);

/* The largest count a field may hold. */
#define RESULTS_JSON_COUNT_MAX 9000000000000000LL

/* Each reads member key of obj, checks it and returns 0, or fails as
 * results_json_fail. A string: *out borrows it, NULL when absent or null
 * and optional. */
int results_json_str(struct results_json_in *in, const cJSON *obj, const char *key, bool required,
                     const char **out);

/* A copy of s (caller frees), NULL for NULL. */
char *results_json_dup(const char *s);

/* A whole number in [min, max]; 0 when absent and optional. */
int results_json_int(struct results_json_in *in, const cJSON *obj, const char *key, bool required,
                     int64_t min, int64_t max, int64_t *out);

/* "noise": a share from 0 to 1, or null or absent when not measured, as
 * other processes' time out of a core time of 1. */
int results_json_noise_in(struct results_json_in *in, const cJSON *obj, double *other_ms,
                          double *core_ms);

/* A cell's member key, {"runs", "failures"}: some of its runs into *runs,
 * their failures and hangs into *bad; absent is none. */
int results_json_runs_in(struct results_json_in *in, const cJSON *cell, const char *key,
                         const struct results_cell *x, int64_t *runs, int64_t *bad);

/* "phase" of obj. */
int results_json_phase(struct results_json_in *in, const cJSON *obj, enum results_phase *phase);

/* phase, cpu and load of a cell or a failure. */
int results_json_pair(struct results_json_in *in, const cJSON *obj, enum results_phase *phase,
                      int *cpu, int *load);

#endif
