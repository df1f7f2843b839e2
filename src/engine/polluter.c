/* SPDX-License-Identifier: MIT */
/*
 * polluter.c: halving the tests that ran before a victim under its failing
 * seed, then looking for more. The candidates keep the order the replay
 * ran them in, and each probe selects a contiguous part of them plus the
 * victim, so with the same seed the selected tests run in the same
 * relative order (Go shuffles the whole list, then filters). A half whose
 * probe fails holds a polluter; when the first half passes the second is
 * taken without a probe, and a last probe of the one test left confirms
 * it. A test that ran before the victim in a probe that passed is cleared.
 * Once one is found, the tests before the victim under that seed that are
 * neither found nor cleared are probed together, and halved again when
 * the victim fails; then the tests left, the package's other tests that
 * are neither, are probed under new seeds until each has run before the
 * victim in a probe that passed (or POLLUTER_SEEDS of them), a failure
 * there halving the tests before the victim under that seed. It never
 * reads or writes files.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/polluter.h"
#include "base/hash.h"
#include "base/util.h"

enum polluter_state {
	POLLUTER_REPLAY, /* replaying the whole package */
	POLLUTER_SHRINK, /* probing the first half of the window */
	POLLUTER_VERIFY, /* probing the one test left */
	POLLUTER_REST,   /* probing the seed's tests before the victim still in doubt */
	POLLUTER_RESEED, /* probing the tests in doubt under a new seed */
	POLLUTER_DONE,
};

/* A top-level test of the package other than the victim. */
struct polluter_test {
	char *name;
	bool cleared; /* ran before the victim in a probe that passed */
	bool found;   /* a polluter */
};

struct polluter {
	char *victim, *top; /* its full name and its top-level test */
	char *seed;         /* the seed of the probes now: the failing one, then new ones */
	enum polluter_state state;
	struct polluter_test *all; /* every other top-level test the replay ran */
	size_t nall;
	size_t *cands; /* the window's source: indices into all, in the seed's order */
	size_t ncands;
	size_t lo, n; /* the window: cands[lo .. lo + n) */
	size_t *sel;  /* the probe's selection, indices into all */
	size_t nsel;
	char **probe;  /* its names and the victim's, NULL-terminated */
	size_t *found; /* the polluters, indices into all, in the order found */
	char **found_seed;
	size_t nfound;
	int replays, seeds;
	int64_t runs, first_runs;
	bool subtests; /* a '/' in a name starts its subtest's part */
};

struct polluter *
polluter_new(const char *victim, const char *seed, bool subtests)
{
	struct polluter *p = xcalloc(1, sizeof *p);
	size_t n = subtests ? strcspn(victim, "/") : strlen(victim);

	p->victim = xstrdup(victim);
	p->top = xstrndup(victim, n);
	p->seed = xstrdup(seed);
	p->subtests = subtests;
	return p;
}

void
polluter_free(struct polluter *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nall; i++)
		free(p->all[i].name);
	for (i = 0; i < p->nfound; i++)
		free(p->found_seed[i]);
	free(p->all);
	free(p->cands);
	free(p->sel);
	free(p->probe);
	free(p->found);
	free(p->found_seed);
	free(p->victim);
	free(p->top);
	free(p->seed);
	free(p);
}

/* Selects the tests idx[0 .. n) (indices into all) and the victim. */
static void
polluter_select(struct polluter *p, const size_t *idx, size_t n)
{
	size_t i;

	p->sel = xrealloc(p->sel, sizeof *p->sel * (n + 1));
	free(p->probe);
	p->probe = xcalloc(n + 2, sizeof *p->probe);
	for (i = 0; i < n; i++) {
		p->sel[i] = idx[i];
		p->probe[i] = p->all[idx[i]].name;
	}
	p->probe[n] = p->top;
	p->nsel = n;
}

/* Keeps in idx (n of them) those neither found nor cleared; their count. */
static size_t
polluter_in_doubt(const struct polluter *p, size_t *idx, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!p->all[idx[i]].found && !p->all[idx[i]].cleared)
			idx[k++] = idx[i];
	return k;
}

/* The k-th new seed after the failing one: digits, like a run's. */
static void
polluter_new_seed(struct polluter *p)
{
	uint64_t h = hash_fnv1a_str(p->seed);

	free(p->seed);
	p->seed = xasprintf("%llu",
	                    (unsigned long long)((h ^ (uint64_t)p->seeds) % 1000000000000ULL) + 1);
}

bool
polluter_next(struct polluter *p, char *const **tests)
{
	size_t i, *idx;

	*tests = NULL;
	for (;;) {
		switch (p->state) {
		case POLLUTER_DONE:
			return false;
		case POLLUTER_REPLAY:
			return true;
		case POLLUTER_SHRINK:
		case POLLUTER_VERIFY:
			polluter_select(p, p->cands + p->lo,
			                p->state == POLLUTER_VERIFY ? 1 : p->n / 2);
			*tests = p->probe;
			return true;
		case POLLUTER_REST:
			p->ncands = polluter_in_doubt(p, p->cands, p->ncands);
			if (p->ncands > 0) {
				polluter_select(p, p->cands, p->ncands);
				*tests = p->probe;
				return true;
			}
			p->state = POLLUTER_RESEED;
			break;
		case POLLUTER_RESEED:
			idx = xcalloc(p->nall + 1, sizeof *idx);
			for (i = 0; i < p->nall; i++)
				idx[i] = i;
			i = polluter_in_doubt(p, idx, p->nall);
			if (i == 0 || p->seeds >= POLLUTER_SEEDS) {
				free(idx);
				p->state = POLLUTER_DONE;
				break;
			}
			p->seeds++;
			polluter_new_seed(p);
			polluter_select(p, idx, i);
			free(idx);
			*tests = p->probe;
			return true;
		}
	}
}

/* True when the victim failed or hung in o; *ran says whether it ran. */
static bool
polluter_victim_failed(const struct polluter *p, const struct outcome *o, bool *ran)
{
	size_t i;

	*ran = false;
	for (i = 0; i < o->ntests; i++)
		if (strcmp(o->tests[i].name, p->victim) == 0) {
			*ran = true;
			return o->tests[i].status == OUTCOME_FAIL ||
			       o->tests[i].status == OUTCOME_HANG;
		}
	return false;
}

/* The index in all of the top-level test name, adding it when add is
 * set; nall when it is not there. */
static size_t
polluter_index(struct polluter *p, const char *name, bool add)
{
	size_t i;

	for (i = 0; i < p->nall && strcmp(p->all[i].name, name) != 0; i++)
		;
	if (i == p->nall && add) {
		p->all = xrealloc(p->all, sizeof *p->all * (p->nall + 1));
		memset(&p->all[p->nall], 0, sizeof *p->all);
		p->all[p->nall++].name = xstrdup(name);
	}
	return i;
}

/* The distinct top-level tests that started before the victim's in o, in
 * their order, as the window's candidates; add: every other top-level
 * test of o joins all (the replay's). */
static void
polluter_take_order(struct polluter *p, const struct outcome *o, bool add)
{
	bool before = true;
	size_t i, j, k;

	p->ncands = 0;
	for (i = 0; i < o->ntests; i++) {
		const char *name = o->tests[i].name;

		if (strcmp(name, p->top) == 0)
			before = false;
		if ((p->subtests && strchr(name, '/') != NULL) || strcmp(name, p->top) == 0 ||
		    (k = polluter_index(p, name, add)) == p->nall || !before)
			continue;
		for (j = 0; j < p->ncands && p->cands[j] != k; j++)
			;
		if (j < p->ncands)
			continue;
		p->cands = xrealloc(p->cands, sizeof *p->cands * (p->ncands + 1));
		p->cands[p->ncands++] = k;
	}
	p->lo = 0;
	p->n = p->ncands;
}

/* Clears every test that ran before the victim in o. */
static void
polluter_clear(struct polluter *p, const struct outcome *o)
{
	size_t i, k;

	for (i = 0; i < o->ntests && strcmp(o->tests[i].name, p->top) != 0; i++)
		if ((k = polluter_index(p, o->tests[i].name, false)) < p->nall)
			p->all[k].cleared = true;
}

/* all[k] is a polluter under the seed now. */
static void
polluter_add_found(struct polluter *p, size_t k)
{
	p->all[k].found = true;
	p->found = xrealloc(p->found, sizeof *p->found * (p->nfound + 1));
	p->found_seed = xrealloc(p->found_seed, sizeof *p->found_seed * (p->nfound + 1));
	p->found[p->nfound] = k;
	p->found_seed[p->nfound++] = xstrdup(p->seed);
	if (p->nfound == 1)
		p->first_runs = p->runs;
	p->state = POLLUTER_REST;
}

/* The state that probes the window next. */
static enum polluter_state
polluter_window(const struct polluter *p)
{
	return p->n == 0 ? POLLUTER_REST : p->n == 1 ? POLLUTER_VERIFY : POLLUTER_SHRINK;
}

void
polluter_feed(struct polluter *p, const struct outcome *o)
{
	bool ran, failed = polluter_victim_failed(p, o, &ran) && !o->unreliable;
	size_t half = p->nsel;

	p->runs++;
	if (ran && !failed && !o->unreliable && p->state != POLLUTER_REPLAY)
		polluter_clear(p, o);
	switch (p->state) {
	case POLLUTER_REPLAY:
		if (failed) {
			polluter_take_order(p, o, true);
			p->state = polluter_window(p);
		} else if (++p->replays >= POLLUTER_REPLAYS) {
			p->state = POLLUTER_DONE;
		}
		break;
	case POLLUTER_SHRINK:
		/* A polluter is in the half that failed; when the first
		 * passed, in the other (the last probe confirms it). */
		if (!failed)
			p->lo += half;
		p->n = failed ? half : p->n - half;
		p->state = polluter_window(p);
		if (failed && p->n == 1)
			polluter_add_found(p, p->cands[p->lo]);
		break;
	case POLLUTER_VERIFY:
		if (failed)
			polluter_add_found(p, p->cands[p->lo]);
		else
			p->state = POLLUTER_REST;
		break;
	case POLLUTER_REST:
		/* The selection is the seed's tests in doubt, in order. */
		p->lo = 0;
		p->n = p->ncands;
		p->state = failed ? polluter_window(p) : POLLUTER_RESEED;
		/* One test and the victim: the probe was the pair. */
		if (failed && p->n == 1)
			polluter_add_found(p, p->cands[0]);
		break;
	case POLLUTER_RESEED:
		if (failed) {
			polluter_take_order(p, o, false);
			p->ncands = polluter_in_doubt(p, p->cands, p->ncands);
			p->n = p->ncands;
			p->state = polluter_window(p);
		}
		break;
	case POLLUTER_DONE:
		break;
	}
}

const char *
polluter_found(const struct polluter *p)
{
	return polluter_nth(p, 0, NULL);
}

const char *
polluter_nth(const struct polluter *p, size_t i, const char **seed)
{
	if (i >= p->nfound)
		return NULL;
	if (seed != NULL)
		*seed = p->found_seed[i];
	return p->all[p->found[i]].name;
}

size_t
polluter_count(const struct polluter *p)
{
	return p->nfound;
}

const char *
polluter_seed(const struct polluter *p)
{
	return p->seed;
}

int64_t
polluter_runs(const struct polluter *p)
{
	return p->runs;
}

int64_t
polluter_first_runs(const struct polluter *p)
{
	return p->nfound > 0 ? p->first_runs : p->runs;
}
