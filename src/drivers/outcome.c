/* SPDX-License-Identifier: MIT */
/*
 * outcome.c: building and freeing struct outcome. It owns no policy: how a
 * run's output becomes an outcome is each parser's business.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/outcome.h"
#include "base/util.h"

/* Room kept for the "[... N bytes cut ...]" mark. */
#define OUTCOME_MARK_ROOM 64

void
outcome_free(struct outcome *o)
{
	size_t i;

	for (i = 0; i < o->ntests; i++) {
		free(o->tests[i].name);
		free(o->tests[i].lines);
		free(o->tests[i].reason);
		util_strv_free(o->tests[i].channels);
	}
	free(o->tests);
	free(o->package_reason);
	free(o->package_lines);
	for (i = 0; o->candidates != NULL && o->candidates[i] != NULL; i++)
		free(o->candidates[i]);
	free(o->candidates);
	free(o->unreliable_reason);
	free(o->unreached);
	free(o->seed);
	memset(o, 0, sizeof *o);
}

struct outcome_test *
outcome_add(struct outcome *o, char *name, enum outcome_status status, char *lines)
{
	struct outcome_test *t;

	o->tests = xrealloc(o->tests, sizeof *o->tests * (o->ntests + 1));
	t = &o->tests[o->ntests++];
	t->name = name;
	t->status = status;
	t->lines = lines;
	t->reason = NULL;
	t->channels = NULL;
	t->ms = -1;
	return t;
}

struct outcome_test *
outcome_find(const struct outcome *o, const char *name)
{
	size_t i;

	for (i = 0; i < o->ntests; i++) {
		if (strcmp(o->tests[i].name, name) == 0)
			return &o->tests[i];
	}
	return NULL;
}

bool
outcome_failed(const struct outcome *o)
{
	size_t i;

	if (o->package_failed)
		return true;
	for (i = 0; i < o->ntests; i++) {
		if (o->tests[i].status == OUTCOME_FAIL || o->tests[i].status == OUTCOME_HANG)
			return true;
	}
	return false;
}

void
outcome_keep(struct buf *b, uint64_t *cut, const char *s, size_t n)
{
	size_t room = OUTCOME_LINES_CAP - OUTCOME_MARK_ROOM;

	while (n > 0) {
		const char *z = memchr(s, '\0', n);
		size_t k = z != NULL ? (size_t)(z - s) : n;

		if (b->len + k > room) {
			*cut += n - (room - b->len);
			buf_add(b, s, room - b->len);
			return;
		}
		buf_add(b, s, k);
		s += k;
		n -= k;
		if (n > 0) {
			if (b->len + 4 > room) {
				*cut += n;
				return;
			}
			buf_adds(b, "\\x00");
			s++;
			n--;
		}
	}
}

char *
outcome_kept(const struct buf *b, uint64_t cut)
{
	struct buf out;

	buf_init(&out);
	buf_add(&out, b->data, b->len);
	if (cut > 0)
		buf_printf(&out, "[... %llu bytes cut ...]\n", (unsigned long long)cut);
	return buf_steal(&out);
}
