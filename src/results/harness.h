/* SPDX-License-Identifier: MIT */
/*
 * harness.h: what a sweep's canaries proved about flakesweep itself
 * (man 1 flakesweep, CANARIES): for each kind of canary and each (cpu,
 * load) pair, the canary runs, the unexpected ones (the harness
 * misbehaved) and the noisy ones (a cores canary starved while the host
 * was busy), and one reason per unexpected run. Canary runs count only
 * here: never in the project's tests, cells, counts or verdicts. It knows
 * no canary program and does no I/O.
 */
#ifndef FLAKESWEEP_HARNESS_H
#define FLAKESWEEP_HARNESS_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stdint.h>

/* Reasons kept; more unexpected runs are counted in the last one. */
#define HARNESS_REASONS_MAX 20

struct harness_cell {
	char *kind; /* "green", "red", "cores" */
	int cpu, load;
	int64_t runs, unexpected, noisy;
};

struct harness {
	bool on;       /* the results come from a sweep: results.json has harness */
	double budget; /* --canaries, percent of the sweep's runs */
	struct harness_cell *cells;
	size_t ncells;
	char **reasons; /* why it is not clean, in the order seen */
	size_t nreasons;
	int64_t unexpected; /* over every cell; reasons beyond the cap are only counted */
};

/* Frees what h owns and zeroes it. */
void harness_free(struct harness *h);

/* Counts one canary run of kind at (cpu, load): unexpected or noisy (or
 * neither); why says what went wrong in an unexpected run (run is its
 * canary run number, for the reason). */
void harness_add_run(struct harness *h, const char *kind, int cpu, int load, bool unexpected,
                     bool noisy, const char *why, int64_t run);

/* Adds src's counts and reasons (up to the cap) to dst: the canaries of
 * the shards of one sweep. */
void harness_absorb(struct harness *dst, const struct harness *src);

/* True when no canary run was unexpected. */
bool harness_clean(const struct harness *h);

/* The reasons as one text, one per line with prefix before each (caller
 * frees), or NULL when clean. */
char *harness_reasons_text(const struct harness *h, const char *prefix);

/* results.json's "harness" object (man 5 flakesweep). */
cJSON *harness_to_json(const struct harness *h);

/* Reads results.json's "harness" object into h (zeroed). Returns 0, or
 * -EBADMSG with *field (the key, or NULL for the object) and *what
 * (caller frees) saying what was expected. */
int harness_from_json(struct harness *h, const cJSON *obj, const char **field, char **what);

#endif
