/* SPDX-License-Identifier: MIT */
/*
 * polluter.c: halving the tests that ran before a victim under its failing
 * seed. The candidates keep the order the replay ran them in, and each
 * probe selects a contiguous part of them plus the victim, so with the
 * same seed the selected tests run in the same relative order (Go shuffles
 * the whole list, then filters). A half whose probe fails holds the
 * polluter; when the first half passes the second is taken without a
 * probe, and a last probe of the one test left confirms it. It never
 * reads or writes files.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/polluter.h"
#include "base/util.h"

enum polluter_state {
	POLLUTER_REPLAY, /* replaying the whole package */
	POLLUTER_SHRINK, /* probing the first half of the window */
	POLLUTER_VERIFY, /* probing the one test left */
	POLLUTER_DONE,
};

struct polluter {
	char *victim, *top; /* its full name and its top-level test */
	char *seed;
	enum polluter_state state;
	char **cands; /* the tests that ran before it, in order */
	size_t ncands;
	size_t lo, n; /* the window: cands[lo .. lo + n) */
	size_t half;  /* the part the probe selects: cands[lo .. lo + half) */
	char **probe; /* the probe's selection, NULL-terminated */
	const char *found;
	int replays;
	int64_t runs;
};

struct polluter *
polluter_new(const char *victim, const char *seed)
{
	struct polluter *p = xcalloc(1, sizeof *p);
	size_t n = strcspn(victim, "/");

	p->victim = xstrdup(victim);
	p->top = xstrndup(victim, n);
	p->seed = xstrdup(seed);
	return p;
}

void
polluter_free(struct polluter *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->ncands; i++)
		free(p->cands[i]);
	free(p->cands);
	free(p->probe);
	free(p->victim);
	free(p->top);
	free(p->seed);
	free(p);
}

bool
polluter_next(struct polluter *p, char *const **tests)
{
	size_t i;

	*tests = NULL;
	if (p->state == POLLUTER_DONE)
		return false;
	if (p->state == POLLUTER_REPLAY)
		return true;
	p->half = p->state == POLLUTER_VERIFY ? 1 : p->n / 2;
	free(p->probe);
	p->probe = xcalloc(p->half + 2, sizeof *p->probe);
	for (i = 0; i < p->half; i++)
		p->probe[i] = p->cands[p->lo + i];
	p->probe[p->half] = p->top;
	*tests = p->probe;
	return true;
}

/* True when the victim failed or hung in o. */
static bool
polluter_victim_failed(const struct polluter *p, const struct outcome *o)
{
	size_t i;

	for (i = 0; i < o->ntests; i++)
		if (strcmp(o->tests[i].name, p->victim) == 0)
			return o->tests[i].status == OUTCOME_FAIL ||
			       o->tests[i].status == OUTCOME_HANG;
	return false;
}

/* The distinct top-level tests that started before the victim's. */
static void
polluter_take_order(struct polluter *p, const struct outcome *o)
{
	size_t i, j;

	for (i = 0; i < o->ntests && strcmp(o->tests[i].name, p->top) != 0; i++) {
		const char *name = o->tests[i].name;

		if (strchr(name, '/') != NULL)
			continue;
		for (j = 0; j < p->ncands && strcmp(p->cands[j], name) != 0; j++)
			;
		if (j < p->ncands)
			continue;
		p->cands = xrealloc(p->cands, sizeof *p->cands * (p->ncands + 1));
		p->cands[p->ncands++] = xstrdup(name);
	}
	p->lo = 0;
	p->n = p->ncands;
}

/* The state that probes the window next. */
static enum polluter_state
polluter_window(const struct polluter *p)
{
	return p->n == 0 ? POLLUTER_DONE : p->n == 1 ? POLLUTER_VERIFY : POLLUTER_SHRINK;
}

void
polluter_feed(struct polluter *p, const struct outcome *o)
{
	bool failed = polluter_victim_failed(p, o) && !o->unreliable;

	p->runs++;
	switch (p->state) {
	case POLLUTER_REPLAY:
		if (failed) {
			polluter_take_order(p, o);
			p->state = polluter_window(p);
		} else if (++p->replays >= POLLUTER_REPLAYS) {
			p->state = POLLUTER_DONE;
		}
		break;
	case POLLUTER_SHRINK:
		/* The polluter is in the half that failed; when the first
		 * passed, in the other (the last probe confirms it). */
		if (!failed)
			p->lo += p->half;
		p->n = failed ? p->half : p->n - p->half;
		p->state = polluter_window(p);
		if (failed && p->n == 1) {
			p->found = p->cands[p->lo];
			p->state = POLLUTER_DONE;
		}
		break;
	case POLLUTER_VERIFY:
		p->found = failed ? p->cands[p->lo] : NULL;
		p->state = POLLUTER_DONE;
		break;
	case POLLUTER_DONE:
		break;
	}
}

const char *
polluter_found(const struct polluter *p)
{
	return p->found;
}

int64_t
polluter_runs(const struct polluter *p)
{
	return p->runs;
}
