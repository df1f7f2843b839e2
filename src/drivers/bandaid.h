/* SPDX-License-Identifier: MIT */
/*
 * bandaid.h: the band-aids a change made to a flaky test: a sleep, a retry
 * loop or decorator, a flaky marker, a longer timeout, fewer assertions, a
 * swallowed error, a skip, a rename out of collection (man 1 flakesweep,
 * Band-aids). It reads the change with git and each changed file of the
 * test's directory with the language's own parser: go/ast in
 * data/flakesweep_bandaids.go, built with the project's go on first use,
 * and Python's ast module in data/flakesweep_bandaids.py (run by the
 * Python that runs pytest). It never changes the checkout.
 */
#ifndef FLAKESWEEP_BANDAID_H
#define FLAKESWEEP_BANDAID_H

#include <stdbool.h>
#include <stddef.h>

struct bandaid {
	char *kind; /* "sleep", "retry", "flaky-marker", "timeout", "assertion",
	             * "swallowed", "skip" or "renamed" */
	char *file; /* relative to the checkout's top */
	int line;   /* in the version after (before, for what was removed) */
	char *text; /* that line, trimmed */
};

struct bandaid_list {
	struct bandaid *items;
	size_t n;
	/* A synchronisation primitive that can affect the test was added (a
	 * mutex, a channel, a WaitGroup, a lock or an event): a sign of a
	 * real fix. */
	bool sync;
};

/* Finds the band-aids that the change from commit before to commit after
 * (NULL: the working tree, uncommitted edits included) of the checkout at
 * root made to test (its full name: subtests and parameters are dropped)
 * of the go or pytest driver, in the changed files of the directories that
 * hold the test, keeping those that can touch it (bandaid-reach.h); sync
 * says whether a primitive was added that can affect it. Other drivers
 * have none. Fills *out (zeroed first).
 * Returns 0, or a negative errno with *err (caller frees): git or the
 * parser failed, or a version does not parse. */
int bandaid_find(const char *root, const char *before, const char *after, const char *driver,
                 const char *test, struct bandaid_list *out, char **err);

/* Frees what l holds and zeroes it. */
void bandaid_list_free(struct bandaid_list *l);

/* True when l holds a skip or a rename: the test no longer runs. */
bool bandaid_skipped(const struct bandaid_list *l);

#endif
