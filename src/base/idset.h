/* SPDX-License-Identifier: MIT */
/*
 * idset.h: a set of whole numbers from 1 (a journal's run ids). Ids a
 * journal numbers densely from 1 cost a bit each; any other id, up to
 * INT64_MAX, costs a slot of a hash table.
 */
#ifndef FLAKESWEEP_IDSET_H
#define FLAKESWEEP_IDSET_H

#include <stdbool.h>
#include <stdint.h>

struct idset;

struct idset *idset_new(void);
/* Frees s. NULL is a no-op. */
void idset_free(struct idset *s);
/* Adds id (>= 1). Returns false when s had it already. */
bool idset_add(struct idset *s, int64_t id);

#endif
