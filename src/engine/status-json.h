/* SPDX-License-Identifier: MIT */
/*
 * status-json.h: a struct sweep_status as the JSON object the control
 * socket pushes (man 5 flakesweep, CONTROL SOCKET), and back, so a view
 * attached to a sweep running elsewhere draws the same lanes and progress
 * as the sweep's own dashboard.
 */
#ifndef FLAKESWEEP_STATUS_JSON_H
#define FLAKESWEEP_STATUS_JSON_H

#include <cjson/cJSON.h>

#include "engine/status.h"

/* The status as a "status" message; end_status is the sweep's end
 * ("complete", ...) or NULL while it runs. Caller deletes. */
cJSON *status_json_encode(const struct sweep_status *st, const char *end_status);

/* Reads a "status" message into st (zeroed or filled before; free with
 * status_free). st->cpus and st->loads point into *ints (the caller frees
 * it: NULL before the first call), *end_status is the sweep's end or NULL
 * (caller frees). Returns 0, or -EINVAL with *err (caller frees) naming
 * the field and what was expected. */
int status_json_decode(const cJSON *j, struct sweep_status *st, int **ints, char **end_status,
                       char **err);

#endif
