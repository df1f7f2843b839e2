/* SPDX-License-Identifier: MIT */
/*
 * outdir.h: a sweep's output directory before anything is written in it:
 * its default name, the check that it is new, and the .gitignore that keeps
 * flakesweep-out/ out of the repository it sits in.
 */
#ifndef FLAKESWEEP_ENGINE_OUTDIR_H
#define FLAKESWEEP_ENGINE_OUTDIR_H

/* flakesweep-out/YYYYMMDD-HHMMSS, in local time, relative to the working
 * directory. */
char *outdir_default(void);

/* flakesweep-out/NAME (name one path component), relative to the working
 * directory: where a command that finds its directory again from what it
 * was asked (bisect) writes when not given -o. */
char *outdir_named(const char *name);

/* A new output directory must not exist yet, or be an empty directory.
 * Returns 0, or -1 with *err set. */
int outdir_check_new(const char *outdir, char **err);

/* Where dir (an absolute path) lies inside a directory named
 * flakesweep-out, writes a .gitignore there that ignores all of it, unless
 * one is there already. Nothing is said when it cannot be written: the
 * sweep does not need it. */
void outdir_ignore(const char *dir);

/* How many trailing directories of path do not exist yet
 * ("flakesweep-out/STAMP" in a new checkout: 2). */
int outdir_missing(const char *path);

/* Leaves the output directory of a sweep that failed before it began as it
 * was found: takes away the journal and the empty directories the sweep
 * made in it, then the made trailing directories of outdir (an absolute
 * path), with the .gitignore written in a flakesweep-out it made. */
void outdir_undo(const char *outdir, int made);

#endif
