/* SPDX-License-Identifier: MIT */
/*
 * results-json-durations.h: results.json's packages[].durations (man 5
 * flakesweep), written and read for results-json.c.
 */
#ifndef FLAKESWEEP_RESULTS_JSON_DURATIONS_H
#define FLAKESWEEP_RESULTS_JSON_DURATIONS_H

#include <cjson/cJSON.h>

#include "base/jsonw.h"
#include "results/durations.h"
#include "results/results-json-in.h"

/* Writes "durations" into the package object w is in; nothing when the
 * package never ran. The cells keep their medians between rewrites: only
 * that changes in them. */
void results_json_durations_write(struct jsonw *w, const struct durations *d);

/* Reads the "durations" of package object p into d; absent (a file from
 * before it) is none. Returns 0 or results_json_fail's error. */
int results_json_durations_read(struct results_json_in *in, const cJSON *p, struct durations *d);

#endif
