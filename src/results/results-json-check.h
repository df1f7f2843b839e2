/* SPDX-License-Identifier: MIT */
/*
 * results-json-check.h: the checks of results.json across values, for its
 * reader (results-json.c).
 */
#ifndef FLAKESWEEP_RESULTS_JSON_CHECK_H
#define FLAKESWEEP_RESULTS_JSON_CHECK_H

#include "results/results-json-in.h"
#include "results/results.h"

/* Refuses a cell of t (read from the test object at in's path) at the same
 * phase, cpu and load as an earlier one: returns 0, or -EBADMSG with in's
 * error naming the first repeat and the cell it repeats. */
int results_json_check_cells(struct results_json_in *in, const struct results_test *t);

#endif
