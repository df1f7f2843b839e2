/* SPDX-License-Identifier: MIT */
/*
 * shard.h: stable shards of a sweep (--shard I/N). A unit (package and
 * level) hashes into one of SHARD_BUCKETS buckets; the buckets are packed
 * onto N shards, longest first onto the least loaded, by the weights an
 * earlier results.json gives (--durations); a unit that file does not know
 * weighs nothing, so adding or removing a package moves no other one, and
 * the buckets that weigh nothing are dealt round.
 */
#ifndef FLAKESWEEP_SHARD_H
#define FLAKESWEEP_SHARD_H

#include <stdbool.h>
#include <stddef.h>

#include "results/options-check.h"

struct pkg;

/* What the weights of a plan are. */
enum shard_basis {
	SHARD_BY_BUCKETS, /* no --durations: every bucket weighs the same */
	SHARD_BY_TESTS,   /* the test count of each unit in the durations file */
	SHARD_BY_SECONDS, /* the run time of each unit in the durations file */
};

struct shard_plan {
	int count;                    /* N */
	enum shard_basis basis;       /* what weight[] counts */
	int owner[SHARD_BUCKETS];     /* the shard (1 to N) of each bucket */
	double weight[SHARD_BUCKETS]; /* each bucket's weight from the durations */
	struct shard_unit *units;     /* the units the durations file weighs */
	size_t nunits;
};

/* "I/N" with 1 <= I <= N <= SHARD_BUCKETS. Returns NULL, or what was
 * expected (translated). */
const char *shard_parse(const char *s, int *index, int *count);

/* The bucket of a unit. */
int shard_bucket(const char *package, const char *level);

/* Whether arg, the --durations file (a results.json or an output directory
 * holding one), can be read: refused with *err (caller frees) when it is
 * missing or unreadable (a negative errno) or not a regular file (-EINVAL,
 * a FIFO would block the reader). Returns 0 or a negative errno. */
int shard_durations_check(const char *arg, char **err);

/* The results.json of --durations arg: arg, or the one in the output
 * directory arg (caller frees). */
char *shard_durations_path(const char *arg);

/* Packs the buckets onto count shards, weighed by durations (a results.json
 * or an output directory holding one; NULL: none). */
int shard_plan_make(struct shard_plan *p, int count, const char *durations, char **err);
void shard_plan_free(struct shard_plan *p);

/* The buckets of shard index, in order; *n of them (caller frees). */
int *shard_plan_buckets(const struct shard_plan *p, int index, int *n);

/* Keeps the units of pkgs whose bucket is among buckets (n of them) and
 * frees the others; *npkgs becomes how many are kept. */
void shard_select(struct pkg **pkgs, size_t *npkgs, const int *buckets, int n);

/* The expected weight of one unit (0 when the durations do not know it). */
double shard_unit_weight(const struct shard_plan *p, const char *package, const char *level);

/* Says on stderr, once, how many of the discovered units the durations
 * file does not know (they weigh nothing, so that adding a package moves
 * no other one); nothing without a durations file or when it knows all. */
void shard_plan_warn(const struct shard_plan *p, const char *durations, struct pkg *const *pkgs,
                     size_t npkgs);

/* Writes the whole plan for the discovered units: each shard, its expected
 * weight and its packages. */
void shard_plan_print(const struct shard_plan *p, struct pkg *const *pkgs, size_t npkgs);

struct options;

/* --shard-plan: discovers the packages as a sweep of o would and prints
 * the plan. Returns 0, or -1 with *err (caller frees). */
int shard_plan_show(const struct options *o, char **err);

#endif
