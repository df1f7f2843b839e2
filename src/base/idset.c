/* SPDX-License-Identifier: MIT */
/*
 * idset.c: a set of whole numbers from 1. The ids below IDSET_DENSE are
 * bits of an array that grows to the largest of them; the others go to an
 * open-addressing hash table, so an id near INT64_MAX (a tampered
 * journal's) costs no more memory than any other.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/idset.h"
#include "base/util.h"

/* 2^26 ids: the bits take at most 8 MiB. */
#define IDSET_DENSE ((int64_t)1 << 26)

struct idset {
	uint64_t *bits; /* ids below nwords * 64 */
	size_t nwords;
	int64_t *slots; /* the other ids; 0 marks a free slot */
	size_t cap, n;  /* cap a power of two, n < cap / 2 */
};

struct idset *
idset_new(void)
{
	return xcalloc(1, sizeof(struct idset));
}

void
idset_free(struct idset *s)
{
	if (s == NULL)
		return;
	free(s->bits);
	free(s->slots);
	free(s);
}

static size_t
idset_slot(const int64_t *slots, size_t cap, int64_t id)
{
	/* Fibonacci hashing: the high bits of id times 2^64 / phi. */
	size_t i = (size_t)(((uint64_t)id * 0x9E3779B97F4A7C15ULL) >> 32) & (cap - 1);

	while (slots[i] != 0 && slots[i] != id)
		i = (i + 1) & (cap - 1);
	return i;
}

static bool
idset_add_sparse(struct idset *s, int64_t id)
{
	size_t i, k;

	if (2 * (s->n + 1) > s->cap) {
		size_t cap = s->cap > 0 ? 2 * s->cap : 64;
		int64_t *slots = xcalloc(cap, sizeof *slots);

		for (k = 0; k < s->cap; k++)
			if (s->slots[k] != 0)
				slots[idset_slot(slots, cap, s->slots[k])] = s->slots[k];
		free(s->slots);
		s->slots = slots;
		s->cap = cap;
	}
	i = idset_slot(s->slots, s->cap, id);
	if (s->slots[i] == id)
		return false;
	s->slots[i] = id;
	s->n++;
	return true;
}

bool
idset_add(struct idset *s, int64_t id)
{
	size_t word = (size_t)id / 64, nwords;
	uint64_t bit = (uint64_t)1 << (id % 64);

	if (id >= IDSET_DENSE)
		return idset_add_sparse(s, id);
	if (word >= s->nwords) {
		nwords = s->nwords > 0 ? s->nwords : 16;
		while (nwords <= word)
			nwords *= 2;
		s->bits = xrealloc(s->bits, nwords * sizeof *s->bits);
		memset(s->bits + s->nwords, 0, (nwords - s->nwords) * sizeof *s->bits);
		s->nwords = nwords;
	}
	if (s->bits[word] & bit)
		return false;
	s->bits[word] |= bit;
	return true;
}
