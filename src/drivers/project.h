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
	char *gitdir; /* its git directory (a worktree's own one) */
	char *commit; /* HEAD's commit in hex, or NULL (unborn branch, unreadable) */
	char *origin; /* the url of remote "origin", or NULL */
};

/* Finds the checkout holding dir, following a worktree's .git file and
 * commondir. Fills *g (project_git_free). Returns 0, or -ENOENT with *g
 * zeroed when dir is not inside a checkout. */
int project_git_find(const char *dir, struct project_git *g);

/* Frees what project_git_find put in g (not g itself). */
void project_git_free(struct project_git *g);

/* Whether a tracked file of the checkout g differs from what git's index
 * recorded of it: its size or modification time is another (a touched
 * file too, until git refreshes the index), it is missing, or it is
 * unmerged. Changes staged with git add match the index and are not seen;
 * files git is told to ignore (assume-unchanged, skip-worktree,
 * intent-to-add, submodules) are skipped. Returns 1 with *changed (caller
 * frees) the first such path relative to g->top, 0 when none, or a
 * negative errno when the index cannot be read (-EINVAL: malformed or a
 * version other than 2 to 4). */
int project_git_differs(const struct project_git *g, char **changed);

/* Reads a file of the project of at most max bytes into *out (caller
 * frees, NUL-terminated), only if it is a regular file: a FIFO or a device
 * planted there never blocks the reader. Returns 0 or a negative errno
 * (-EINVAL for anything but a regular file, -EFBIG when too big). */
int project_read_file(const char *path, size_t max, char **out);

/* Fills proj->commit, proj->origin and proj->dirty (a tracked file
 * differs from the index: project_git_differs) from the checkout holding
 * proj->root (left NULL and false outside a checkout). */
void project_read_git(struct project *proj);

#endif
