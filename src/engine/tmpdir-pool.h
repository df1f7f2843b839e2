/* SPDX-License-Identifier: MIT */
/*
 * tmpdir-pool.h: the runs' TMPDIRs, reused rather than made and removed
 * for each run.
 */
#ifndef FLAKESWEEP_ENGINE_TMPDIR_POOL_H
#define FLAKESWEEP_ENGINE_TMPDIR_POOL_H

#include <stdbool.h>

struct tmpdir_pool;

/* A pool of empty directories in dir (the output directory's tmp/), kept
 * there under hidden names (.idle-N); those a killed sweep left there are
 * removed. */
struct tmpdir_pool *tmpdir_pool_new(const char *dir);

/* Removes the idle directories (each is empty) and frees the pool;
 * tmpdir_pool_free(NULL) does nothing. */
void tmpdir_pool_free(struct tmpdir_pool *p);

/* Makes path, a name in the pool's directory, an empty directory of mode
 * 0755 less the umask: an idle one renamed, else a new one. Returns 0 or a negative
 * errno. */
int tmpdir_pool_take(struct tmpdir_pool *p, const char *path);

/* Takes path back when the run left it as it was made: empty, a real
 * directory, the mode it was made with. Returns false otherwise; the caller removes it.
 * It stays under its name until tmpdir_pool_take renames it to the next
 * run's or tmpdir_pool_settle to an idle one. */
bool tmpdir_pool_give(struct tmpdir_pool *p, const char *path);

/* Renames the directories given back since the last call and not taken
 * again to idle names: called at the end of each turn of the loop, so
 * that a passing run's name does not outlast the turn it ended in. */
void tmpdir_pool_settle(struct tmpdir_pool *p);

#endif
