/* SPDX-License-Identifier: MIT */
/*
 * identity.h: whether two recorded projects (the "project" objects of
 * results.json and of a journal's header) are the same project, the one
 * rule compare, verify, merge and a view of several directories share
 * (flakesweep(1), PROJECT IDENTITY). The same commit is the same tree,
 * wherever it was checked out. Otherwise the origin names the project: the
 * same origin (however its URL is written) at another root or commit is
 * the same project, another origin another project; an origin that is a
 * local path (a clone of a repository with no origin) names the project
 * recorded at that root without one. Where neither records
 * an origin, the roots decide: the same directory, or one inside the
 * other. What a side does not record (no root at all) says nothing.
 */
#ifndef FLAKESWEEP_IDENTITY_H
#define FLAKESWEEP_IDENTITY_H

#include <cjson/cJSON.h>

/* Where two projects differ: field is "origin" or "root", a and b its
 * values in the first and second project ("" when not recorded), pointing
 * into the objects compared. */
struct identity_diff {
	const char *field;
	const char *a, *b;
};

/* Member key of the project object, or "" when it has none. */
const char *identity_member(const cJSON *project, const char *key);

/* Whether the project objects pa and pb (either may be NULL: nothing
 * recorded) are of the same project. Returns 1 when they are, 0 when not,
 * with *d saying where they differ. */
int identity_same(const cJSON *pa, const cJSON *pb, struct identity_diff *d);

/* "FIELD A vs B" of d, with "none" for a value not recorded (caller
 * frees), for the messages of the commands that refuse another project. */
char *identity_diff_text(const struct identity_diff *d);

/* value, or "none" when it is "" (not recorded). */
const char *identity_shown(const char *value);

#endif
