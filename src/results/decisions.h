/* SPDX-License-Identifier: MIT */
/*
 * decisions.h: decisions.json, the decision taken for each flaky test
 * (posted, confirmed, quarantined, dismissed) with its time, its URL (a
 * post), reason (a dismissal), channel (a quarantine) and the decisions
 * taken before it. The project keeps one beside its quarantine file, so a
 * decision lasts from one sweep to the next; a sweep's output directory
 * may hold one too (written by flakesweep report). The format is in
 * flakesweep(5), section DECISIONS FILE: schema "flakesweep/decisions/v1",
 * an object "tests" keyed by test id. Every update is a locked
 * read-modify-write that keeps members it does not know, written
 * atomically (temporary file, rename).
 */
#ifndef FLAKESWEEP_DECISIONS_H
#define FLAKESWEEP_DECISIONS_H

#include <stddef.h>
#include <stdint.h>

#define DECISIONS_SCHEMA "flakesweep/decisions/v1"
#define DECISIONS_FILE "decisions.json"

struct decision {
	char *test;               /* "PACKAGE::TEST" */
	char *decision;           /* "posted", "confirmed", "quarantined", "dismissed",
	                           "closed" */
	char *url;                /* the post's URL, or NULL */
	char *reason;             /* why it was dismissed, or NULL */
	char *channel;            /* the quarantine entry's channel, or NULL */
	char *time;               /* RFC 3339, UTC */
	struct decision *history; /* the decisions taken before, oldest first */
	size_t nhistory;          /* (their own history is empty) */
};

/* Reads every decision in path into a new array (caller frees with
 * decisions_free), in file order. A missing file gives none and returns 0;
 * otherwise returns 0, a negative errno, or -EBADMSG when the file is not
 * a decisions file (its values are checked: decision one of the four,
 * url, reason and time strings). */
int decisions_load(const char *path, struct decision **out, size_t *n);

/* Reads path and then over (NULL: none) into a new array, a test's entry
 * in over replacing the one in path: the decisions of a sweep's output
 * directory under the project's. Errors as decisions_load, for either
 * file (*out is then empty). */
int decisions_load_both(const char *path, const char *over, struct decision **out, size_t *n);

/* The decision for test in v, or NULL. */
const struct decision *decisions_find(const struct decision *v, size_t n, const char *test);

/* Records decision (with url and reason, NULL for none) for test at time_ms (ms since
 * the epoch) in path, creating the file if needed; an earlier decision for
 * the test is replaced, other members of its entry are kept. Holds an
 * exclusive lock on the file's directory meanwhile. Returns 0, a negative
 * errno, or -EBADMSG when the existing file cannot be read as one. */
int decisions_record(const char *path, const char *test, const char *decision, const char *url,
                     const char *reason, int64_t time_ms);

/* decisions_record with d's members (test, decision, url, reason,
 * channel; time and history ignored): the decision it replaces moves to
 * the end of the entry's "history". */
int decisions_record_one(const char *path, const struct decision *d, int64_t time_ms);

/* Takes back test's current decision in path: the last of its history
 * becomes current again, or the entry goes when it has none. *undone (may
 * be NULL) gets a copy of the decision taken back (decision_clear it).
 * Returns 0, -ENOENT when the test has no decision, a negative errno, or
 * -EBADMSG. Locked like decisions_record. */
int decisions_undo(const char *path, const char *test, struct decision *undone);

/* Frees the members of one decision and zeroes it. */
void decision_clear(struct decision *d);

/* Why path cannot be read as a decisions file ("FILE:LINE:COL: invalid
 * JSON (...)", or the entry and member at fault), or NULL when it can or
 * is missing: for the message after -EBADMSG. Caller frees. */
char *decisions_problem(const char *path);

/* What to say after a change of path failed with rc: decisions_problem's
 * line and column for -EBADMSG, else "FILE: the error". Caller frees. */
char *decisions_error(const char *path, int rc);

void decisions_free(struct decision *v, size_t n);

#endif
