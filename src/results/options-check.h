/* SPDX-License-Identifier: MIT */
/*
 * options-check.h: the rules of the sweep settings, shared by the command
 * line and the journal header.
 */
#ifndef FLAKESWEEP_OPTIONS_CHECK_H
#define FLAKESWEEP_OPTIONS_CHECK_H

#include <stdint.h>

/* The largest --count and --confirm, --load, and --timeout with the go
 * driver (Go's time.Duration tops out at 2562047h47m16s). */
#define OPTIONS_COUNT_MAX 100000000
#define OPTIONS_LOAD_MAX 64
#define OPTIONS_GO_TIMEOUT_MAX_MS (2562047LL * 3600 * 1000)

/* The buckets a sweep's units hash into (engine/shard.h): --shard I/N
 * takes N up to this many. */
#define SHARD_BUCKETS 512

/* The rules of the sweep settings, shared by the command line and the
 * journal header (sweep-config.c). Each returns NULL when the value is
 * valid, else what was expected ("a positive whole number, at most
 * 100000000"), translated. */
const char *options_check_count(long long v, int min);
/* --quiet: a whole percentage from 1 to 99, or 0 (off). */
const char *options_check_quiet(long long v);
/* --canaries: a percentage from 0 (off) to 100. */
#define OPTIONS_CANARIES_DEFAULT 1.0
/* --containers and --clusters by default. */
#define OPTIONS_CONTAINERS_DEFAULT 4
#define OPTIONS_CLUSTERS_DEFAULT 2
const char *options_check_canaries(double v);
const char *options_check_list(const int *v, int n);
const char *options_check_loads(const int *v, int n);
/* Above zero, and within Go's time.Duration with the go driver (NULL: any
 * driver). */
const char *options_check_timeout(const char *driver, int64_t ms);
const char *options_check_driver(const char *name);
const char *options_check_tap_select(const char *name);
const char *options_check_pytest_unit(const char *name);
/* tap and gtest need the command after --; go and pytest take none. */
const char *options_check_command(const char *driver, int ncommand);

#endif
