/* SPDX-License-Identifier: MIT */
/*
 * zone.h: the time zone and locale every run gets (--tz, --locale): TZ
 * and LC_ALL set explicitly, never whatever the person who started the
 * sweep had, unless the value is "inherit" (OPTIONS_INHERIT; the rules of
 * the values are options_check_tz and options_check_locale). It writes the
 * entries; it never starts a process.
 */
#ifndef FLAKESWEEP_ZONE_H
#define FLAKESWEEP_ZONE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"
#include "results/options-check.h"

/* Whether the environment entry "NAME=value" is one a run gets from tz
 * and locale instead of flakesweep's own environment. */
bool zone_replaces(const char *entry, const char *tz, const char *locale);

/* Adds TZ=tz and LC_ALL=locale to the run environment *env (*n entries),
 * leaving out an "inherit". */
void zone_run_env(const char *tz, const char *locale, char ***env, size_t *n);

/* Adds the zone and locale to the export that starts a reproduce line in
 * b ("export TZ=UTC LC_ALL=C", each word after the first space-separated),
 * leaving out an "inherit". */
void zone_export(struct buf *b, const char *tz, const char *locale);

/* Adds the --tz and --locale options that sweep with tz and locale to a
 * flakesweep command line in b (" --tz Europe/Berlin"), leaving out the
 * defaults. */
void zone_options(struct buf *b, const char *tz, const char *locale);

#endif
