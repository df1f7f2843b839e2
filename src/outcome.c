/* SPDX-License-Identifier: MIT */
/*
 * outcome.c: building and freeing struct outcome. It owns no policy: how a
 * run's output becomes an outcome is each parser's business.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "outcome.h"
#include "util.h"

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
