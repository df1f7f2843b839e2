/* SPDX-License-Identifier: MIT */
/*
 * follow-shards.h: the dashboard on several output directories at once,
 * the shards of one sweep (`flakesweep view DIR DIR...`): each journal
 * followed as it grows, their results merged as `flakesweep merge` would
 * (shardset.h), each running sweep's lanes from its control socket under
 * a line for its host. A directory named before its sweep wrote a journal
 * is waited for.
 */
#ifndef FLAKESWEEP_UI_FOLLOW_SHARDS_H
#define FLAKESWEEP_UI_FOLLOW_SHARDS_H

#include <uv.h>

#include "ui.h"

struct follow_shards;

/* A source for the n directories (copied), on loop. */
struct follow_shards *follow_shards_new(uv_loop_t *loop, char *const *dirs, int n);

/* Follows the directories that have a journal and attaches to the control
 * socket of each sweep that serves one; the others are waited for.
 * Returns 0, or a negative errno with *err (caller frees) when a journal
 * cannot be read, is not a shard's, or two directories are not shards of
 * one sweep (shardset.h names both and the field): then close f, run the
 * loop out and free it. */
int follow_shards_start(struct follow_shards *f, char **err);

/* The project's root of the first directory with a journal, or NULL. */
const char *follow_shards_root(const struct follow_shards *f);

/* Makes f the source of ui (MODEL_VIEW). */
void follow_shards_attach(struct follow_shards *f, struct ui *ui);

/* Detaches from every sweep (they go on) and stops following; the
 * dashboard's quit does it. */
void follow_shards_close(struct follow_shards *f);

/* Frees f, after the loop ran out; NULL is a no-op. */
void follow_shards_free(struct follow_shards *f);

#endif
