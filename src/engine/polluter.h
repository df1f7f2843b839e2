/* SPDX-License-Identifier: MIT */
/*
 * polluter.h: the search for the test that breaks an order-dependent one
 * (its polluter), as iDFlakies does: replay the failing shuffle seed on
 * the whole package; when the victim fails again, take the tests that ran
 * before it in that run, in their order, and halve them, each probe
 * running one half and then the victim under the same seed, until one test
 * is left whose pair with the victim fails. The search only decides what
 * to run next from what the last probe showed; the sweep runs the probes.
 * It does no I/O.
 */
#ifndef FLAKESWEEP_POLLUTER_H
#define FLAKESWEEP_POLLUTER_H

#include <stdbool.h>
#include <stdint.h>

#include "drivers/outcome.h"

/* Replays of the whole package under the seed before the search gives up
 * on a victim that does not fail again. */
#define POLLUTER_REPLAYS 3

struct polluter;

/* A search for the polluter of victim (its full name) under seed. */
struct polluter *polluter_new(const char *victim, const char *seed);
/* Frees p. NULL is a no-op. */
void polluter_free(struct polluter *p);

/* The next probe: false when the search is over. *tests is NULL for the
 * whole package, else the top-level tests to select, in the order they
 * ran, the victim's last, NULL-terminated (owned by p, valid until the
 * next call). */
bool polluter_next(struct polluter *p, char *const **tests);

/* What the probe polluter_next gave showed. */
void polluter_feed(struct polluter *p, const struct outcome *o);

/* The polluter (a top-level test name), or NULL while searching or when
 * none was found. */
const char *polluter_found(const struct polluter *p);
/* The probes fed so far. */
int64_t polluter_runs(const struct polluter *p);

#endif
