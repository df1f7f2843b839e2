/* SPDX-License-Identifier: MIT */
/*
 * strmap.c: open addressing with linear probing and FNV-1a hashes; the
 * table doubles at 70% full. Results index tests by id with it, so a
 * million runs cost one lookup per test each.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/strmap.h"
#include "base/util.h"

struct strmap_slot {
	char *key;
	long value;
	uint64_t hash;
};

struct strmap {
	struct strmap_slot *slots;
	size_t cap; /* a power of two */
	size_t count;
};

struct strmap *
strmap_new(void)
{
	struct strmap *m = xcalloc(1, sizeof *m);

	m->cap = 64;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	return m;
}

void
strmap_free(struct strmap *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; i < m->cap; i++)
		free(m->slots[i].key);
	free(m->slots);
	free(m);
}

static struct strmap_slot *
strmap_find(const struct strmap *m, const char *key, uint64_t h)
{
	size_t i = (size_t)h & (m->cap - 1);

	for (;;) {
		struct strmap_slot *s = &m->slots[i];

		if (s->key == NULL || (s->hash == h && strcmp(s->key, key) == 0))
			return s;
		i = (i + 1) & (m->cap - 1);
	}
}

long
strmap_get(const struct strmap *m, const char *key)
{
	struct strmap_slot *s = strmap_find(m, key, hash_fnv1a_str(key));

	return s->key != NULL ? s->value : -1;
}

static void
strmap_grow(struct strmap *m)
{
	struct strmap_slot *old = m->slots;
	size_t oldcap = m->cap, i;

	m->cap *= 2;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	for (i = 0; i < oldcap; i++) {
		if (old[i].key != NULL)
			*strmap_find(m, old[i].key, old[i].hash) = old[i];
	}
	free(old);
}

void
strmap_set(struct strmap *m, const char *key, long value)
{
	uint64_t h = hash_fnv1a_str(key);
	struct strmap_slot *s;

	if ((m->count + 1) * 10 > m->cap * 7)
		strmap_grow(m);
	s = strmap_find(m, key, h);
	if (s->key == NULL) {
		s->key = xstrdup(key);
		s->hash = h;
		m->count++;
	}
	s->value = value;
}
