/* SPDX-License-Identifier: MIT */
/*
 * polluter.h: the search for the test that breaks an order-dependent one
 * (its polluter), as iDFlakies does: replay the failing shuffle seed on
 * the whole package; when the victim fails again, take the tests that ran
 * before it in that run, in their order, and halve them, each probe
 * running one half and then the victim under the same seed, until one test
 * is left whose pair with the victim fails. Then it looks for more: the
 * other tests that ran before the victim and were never before it in a
 * probe that passed are probed together and halved again when it fails,
 * and the package's tests left in doubt are probed under new seeds (at
 * most POLLUTER_SEEDS), so that a victim broken by either of two tests
 * has both named. The search only decides what to run next from what the
 * last probe showed; the sweep runs the probes. It does no I/O.
 */
#ifndef FLAKESWEEP_POLLUTER_H
#define FLAKESWEEP_POLLUTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/outcome.h"

/* Replays of the whole package under the seed before the search gives up
 * on a victim that does not fail again. */
#define POLLUTER_REPLAYS 3
/* Probes under new seeds, after the failing seed's, before the search
 * stops looking for more polluters among the tests still in doubt. */
#define POLLUTER_SEEDS 10

struct polluter;

/* A search for the polluter of victim (its full name) under seed. With
 * subtests, a '/' in a name starts its subtest's part (Go: the top-level
 * test of "TestA/case" is TestA); without, names are whole (a pytest node
 * id "tests/test_a.py::test_b", a GoogleTest "Inst/Suite.Name/0"). */
struct polluter *polluter_new(const char *victim, const char *seed, bool subtests);
/* Frees p. NULL is a no-op. */
void polluter_free(struct polluter *p);

/* The next probe: false when the search is over. *tests is NULL for the
 * whole package, else the top-level tests to select, in the order they
 * ran, the victim's last, NULL-terminated (owned by p, valid until the
 * next call). It runs under polluter_seed's seed. */
bool polluter_next(struct polluter *p, char *const **tests);
/* The seed of the probe polluter_next gave: the failing one, later new
 * ones (owned by p, valid until the next call). */
const char *polluter_seed(const struct polluter *p);

/* What the probe polluter_next gave showed. */
void polluter_feed(struct polluter *p, const struct outcome *o);

/* The first polluter found (a top-level test name), or NULL while
 * searching or when none was found. */
const char *polluter_found(const struct polluter *p);
/* The polluters found so far, in the order found. */
size_t polluter_count(const struct polluter *p);
/* The i-th of them, or NULL past the last; *seed (when seed is not NULL):
 * the seed its pair failed under (owned by p). */
const char *polluter_nth(const struct polluter *p, size_t i, const char **seed);
/* The probes fed so far. */
int64_t polluter_runs(const struct polluter *p);
/* The probes fed until the first polluter was found; all of them when
 * none was. */
int64_t polluter_first_runs(const struct polluter *p);

#endif
