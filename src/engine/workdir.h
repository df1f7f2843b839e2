/* SPDX-License-Identifier: MIT */
/*
 * workdir.h: the package's directory as its runs see it. Runs share it by
 * default, and what they leave there (debris) collides with later runs:
 * a watch lists its entries before the first run and after each run and
 * names the new ones that outlive the runs that may have made them. With
 * --private-workdir each run works in its own copy of it instead, made
 * cheaply: files reflinked where the filesystem can, else copied, the big
 * ones and .git linked to the originals.
 */
#ifndef FLAKESWEEP_WORKDIR_H
#define FLAKESWEEP_WORKDIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Files above this size that cannot be reflinked are symbolic links to the
 * original in a copy: read, they are the same; a run that writes to one
 * writes to the shared file. */
#define WORKDIR_COPY_MAX (1 << 20)

/* Copies the directory src to dst (created, its parents too): directories
 * anew, regular files reflinked (FICLONE) or copied with their mode, files
 * above WORKDIR_COPY_MAX that cannot be reflinked and a .git directory as
 * symbolic links to the originals, symbolic links as they are; sockets,
 * FIFOs and devices are left out, and so is the directory skip (the output
 * directory when it lies inside src; NULL for none). Returns 0 or a
 * negative errno with *err (caller frees) naming the path. */
int workdir_copy(const char *src, const char *dst, const char *skip, char **err);

/* An entry of the package's directory that runs left behind. */
struct workdir_debris {
	char *path;  /* relative to the package's directory */
	int64_t run; /* the run after which it was first seen */
};

struct workdir_watch;

/* Lists dir's entries now, before its package's first run. Entries that
 * interpreters make for themselves (__pycache__, .pytest_cache) are never
 * debris. */
struct workdir_watch *workdir_watch_new(const char *dir);

/* Lists the directory again after run `run` ended. live_min is the
 * smallest id of the package's runs still running (INT64_MAX when none),
 * newest the last run id started. An entry new since the first listing is
 * debris once it is still there after every run that was running when it
 * was first seen has ended. Returns the new debris (*n of them; caller
 * frees with workdir_debris_free), or NULL. */
struct workdir_debris *workdir_watch_scan(struct workdir_watch *w, int64_t run, int64_t live_min,
                                          int64_t newest, size_t *n);

/* Whether debris was in the directory when it was last listed. */
bool workdir_watch_dirty(const struct workdir_watch *w);

/* Frees w. NULL is a no-op. */
void workdir_watch_free(struct workdir_watch *w);

/* Frees n debris entries and the array. */
void workdir_debris_free(struct workdir_debris *d, size_t n);

#endif
