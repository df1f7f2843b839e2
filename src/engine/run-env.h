/* SPDX-License-Identifier: MIT */
/*
 * run-env.h: the environment every run of a sweep inherits, built once:
 * flakesweep's own without what each run sets itself (TMPDIR and
 * FLAKESWEEP_*), the zone's and locale's entries and the CPU shim's
 * preload. A run's environment is that block with its own entries added,
 * in one allocation: its inherited strings are never copied.
 */
#ifndef FLAKESWEEP_RUN_ENV_H
#define FLAKESWEEP_RUN_ENV_H

#include <stdbool.h>
#include <stddef.h>

struct options;
struct run_env;

/* The inherited part of the runs' environments, from environ as it is now
 * and o's --tz, --locale and CPU shim; a canary's (canary) also keeps the
 * FLAKESWEEP_CANARY_FAULT that tests set. */
struct run_env *run_env_new(const struct options *o, bool canary);
/* NULL is a no-op. */
void run_env_free(struct run_env *e);

/* A run's whole environment: e's entries, less those inherited from
 * flakesweep that an entry of add names, then add's (copied), in one
 * allocation that free() releases. e must outlive it. */
char **run_env_block(const struct run_env *e, char *const *add, size_t nadd);

#endif
