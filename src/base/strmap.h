/* SPDX-License-Identifier: MIT */
/*
 * strmap.h: a string-keyed hash map of integers (indexes into the owner's
 * arrays). It copies keys and owns nothing else.
 */
#ifndef FLAKESWEEP_STRMAP_H
#define FLAKESWEEP_STRMAP_H

#include <stddef.h>

struct strmap;

struct strmap *strmap_new(void);
/* Frees the map and its key copies. NULL is a no-op. */
void strmap_free(struct strmap *m);
/* The value for key, or -1. */
long strmap_get(const struct strmap *m, const char *key);
/* Sets key (copied) to value >= 0, replacing any earlier value. */
void strmap_set(struct strmap *m, const char *key, long value);

#endif
