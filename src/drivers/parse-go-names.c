/* SPDX-License-Identifier: MIT */
/*
 * parse-go-names.c: the Go parser's map from a test name, given as bytes
 * and a length (names are cut out of lines, never NUL-terminated), to an
 * index, with open addressing on 64-bit FNV-1a. The caller hands lookups
 * the hash, so that parse-go.c can hash every prefix of a name in one pass
 * when it looks for a subtest's parent. It owns only its slot array: keys
 * are borrowed, never copied, and it never knows what the indexes mean.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "drivers/parse-go-names.h"
#include "base/hash.h"
#include "base/util.h"

int
parse_go_names_get(const struct parse_go_names *m, const char *key, size_t len, uint64_t h)
{
	size_t i;

	if (m->cap == 0)
		return -1;
	for (i = h & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
		const struct parse_go_names_entry *e = &m->e[i];

		if (e->val < 0)
			return -1;
		if (e->hash == h && e->len == len && memcmp(e->key, key, len) == 0)
			return e->val;
	}
}

void
parse_go_names_put(struct parse_go_names *m, const char *key, size_t len, int val)
{
	size_t i;

	if ((m->n + 1) * 2 > m->cap) {
		struct parse_go_names_entry *old = m->e;
		size_t oldcap = m->cap, j;

		m->cap = oldcap ? oldcap * 2 : 64;
		m->e = xmalloc(m->cap * sizeof *m->e);
		for (j = 0; j < m->cap; j++)
			m->e[j].val = -1;
		m->n = 0;
		for (j = 0; j < oldcap; j++) {
			if (old[j].val >= 0)
				parse_go_names_put(m, old[j].key, old[j].len, old[j].val);
		}
		free(old);
	}
	{
		uint64_t h = hash_fnv1a(key, len);

		for (i = h & (m->cap - 1); m->e[i].val >= 0; i = (i + 1) & (m->cap - 1))
			;
		m->e[i].hash = h;
		m->e[i].key = key;
		m->e[i].len = len;
		m->e[i].val = val;
		m->n++;
	}
}

void
parse_go_names_free(struct parse_go_names *m)
{
	free(m->e);
	memset(m, 0, sizeof *m);
}
