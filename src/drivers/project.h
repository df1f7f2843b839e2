/* SPDX-License-Identifier: MIT */
/*
 * project.h: the only reader of git. It finds the checkout that holds a
 * directory, its HEAD commit and the url of remote "origin", by reading
 * the files under .git itself: no git process runs, and only regular
 * files are opened, so a .git that is a FIFO or a device cannot hang it.
 */
#ifndef FLAKESWEEP_PROJECT_H
#define FLAKESWEEP_PROJECT_H

#include "drivers/driver.h"

struct project_git {
	char *top;    /* the checkout's top directory (resolved) */
	char *commit; /* HEAD's commit in hex, or NULL (unborn branch, unreadable) */
	char *origin; /* the url of remote "origin", or NULL */
};

/* Finds the checkout holding dir, following a worktree's .git file and
 * commondir. Fills *g (project_git_free). Returns 0, or -ENOENT with *g
 * zeroed when dir is not inside a checkout. */
int project_git_find(const char *dir, struct project_git *g);

/* Frees what project_git_find put in g (not g itself). */
void project_git_free(struct project_git *g);

/* Reads a file of the project of at most max bytes into *out (caller
 * frees, NUL-terminated), only if it is a regular file: a FIFO or a device
 * planted there never blocks the reader. Returns 0 or a negative errno
 * (-EINVAL for anything but a regular file, -EFBIG when too big). */
int project_read_file(const char *path, size_t max, char **out);

/* Fills proj->commit and proj->origin from the checkout holding
 * proj->root (left NULL outside a checkout). */
void project_read_git(struct project *proj);

#endif
