/* SPDX-License-Identifier: MIT */
/*
 * exclusive.h: exclusive groups (--exclusive NAME=PATTERN): the runs of
 * the packages, or of the tests, a group's pattern matches never run two
 * at a time, whatever the load (the rule of a group's text is
 * options_check_exclusive). It matches the groups; the
 * scheduler keeps them apart (sched_pair_exclusive). No I/O but realpath.
 */
#ifndef FLAKESWEEP_EXCLUSIVE_H
#define FLAKESWEEP_EXCLUSIVE_H

#include <stddef.h>

#include "drivers/driver.h"
#include "results/options-check.h"

/* The groups (a mask of bit i for specs[i]) a run of pkg belongs to: test
 * is the one test it runs (confirm), or NULL for the whole package, which
 * runs every test of a PKG::TEST pattern too. Relative package patterns
 * are relative to dir (NULL: the current directory). */
unsigned exclusive_mask(char *const *specs, int n, const char *dir, const struct pkg *pkg,
                        const char *test);

/* The first group whose pattern matches none of the packages, as the
 * error "--exclusive NAME=PATTERN matches no package", or, for PKG::TEST,
 * none of the tests its packages listed (a package not listed, as a TAP
 * package or one that failed to build, counts as a match), as "... matches
 * no test of its packages" (caller frees); NULL when each matches. */
char *exclusive_unmatched(char *const *specs, int n, const char *dir, struct pkg *const *pkgs,
                          size_t npkgs);

/* For group i of a PKG::TEST pattern, a package it matches that listed
 * no tests (a framework that lists none before they run, as TAP), as the
 * note "--exclusive NAME=PATTERN: PKG does not list its tests ..." (caller
 * frees); else NULL. */
char *exclusive_unlisted(char *const *specs, int i, const char *dir, struct pkg *const *pkgs,
                         size_t npkgs);

/* The name of group i (up to the '='), into out (size bytes). */
void exclusive_name(char *const *specs, int i, char *out, size_t size);

#endif
