/* SPDX-License-Identifier: MIT */
/*
 * results-json-in.h: the state of results.json's reader (results-json.c)
 * that the checks of results-json-check.c and the durations' reader
 * (results-json-durations.c) share: the path to the value being read, so
 * an error names the file, the line and the field. Only those files
 * include it.
 */
#ifndef FLAKESWEEP_RESULTS_JSON_IN_H
#define FLAKESWEEP_RESULTS_JSON_IN_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

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

/* The largest count a file may hold. */
#define RESULTS_JSON_COUNT_MAX 9000000000000000LL

/* A whole number from min to max at key of obj into *out (0 when absent
 * and not required); else results_json_fail's error. */
int results_json_int(struct results_json_in *in, const cJSON *obj, const char *key, bool required,
                     int64_t min, int64_t max, int64_t *out);

#endif
