/* SPDX-License-Identifier: MIT */
/*
 * journal-int.h: what journal.c (writing), journal-read.c (reading and
 * following) and journal-decode.c (a line's values) share: the sets and
 * the reader that keeps them. Nothing outside those three includes it.
 */
#ifndef FLAKESWEEP_JOURNAL_INT_H
#define FLAKESWEEP_JOURNAL_INT_H

#include <cjson/cJSON.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/strmap.h"

struct journal_set {
	int pkg;
	/* "P" or "S" then the test name, in start order: its own, or that of
	 * its body (own false) */
	char **order;
	size_t n;
	bool own;
	/* A run with a seed named it: its order is its body's from then on,
	 * its own forgotten. */
	bool forgotten;
	size_t body; /* the reader's bodies index */
	int lineno;  /* the line that defined it */
};

/* The tests of the sets that have the same ones, in the order of the first
 * of them: an old shuffled journal has a set line per run, all but a few
 * with the tests of another. */
struct journal_body {
	char **order;
	size_t n;
};

struct journal_reader {
	struct journal_set *sets; /* by id */
	size_t nsets;
	struct journal_body *bodies;
	size_t nbodies;
	char *why;           /* what is wrong with the line being read, for line_cb */
	struct strmap *keys; /* sorted set key -> bodies index */
	bool overlapped;     /* a run line's overlapped when it has none */
};

struct journal_tail {
	char *path;
	off_t offset; /* where the lines not read yet start */
	int lineno;   /* the lines read */
	struct journal_reader reader;
};

/* A set's key: its package and its entries ("P" or "S" and the test's
 * name) in order; for a run whose seed gives its order (a shuffled run),
 * sorted after an "s", so that every order of the same tests shares one
 * set. Caller frees. */
char *journal_set_key_of(int pkg, char *const *entries, size_t n, bool seeded);

/* Member key of obj as a string, or NULL when it is none. */
const char *journal_str(const cJSON *obj, const char *key);

/* A run with a seed named set id: that order gives its tests', so the
 * set's own is forgotten (an old shuffled journal has a set line per
 * run). */
void journal_reader_forget(struct journal_reader *r, int64_t id);

#endif
