/* SPDX-License-Identifier: MIT */
/*
 * follow.h: the dashboard on a sweep's journal: a finished sweep, or one
 * running elsewhere, followed as its journal grows (`flakesweep view
 * DIR`). It only reads the sweep; decisions taken in it are written to
 * decisions.json and the quarantine file like in a live dashboard.
 */
#ifndef FLAKESWEEP_UI_FOLLOW_H
#define FLAKESWEEP_UI_FOLLOW_H

#include <uv.h>

#include "replay.h"
#include "ui.h"

struct follow;

/* Reads DIR/journal.jsonl once. Returns NULL with *err (caller frees)
 * naming the file and line when it cannot be read. */
struct follow *follow_new(const char *dir, char **err);

/* The journal as last read (borrowed). */
const struct replay *follow_replay(const struct follow *f);

/* Makes f the source of ui (MODEL_VIEW) and reads the journal again on
 * loop whenever it changed, until the dashboard closes. */
void follow_attach(struct follow *f, uv_loop_t *loop, struct ui *ui);

/* Frees f, after the loop ran out; NULL is a no-op. */
void follow_free(struct follow *f);

#endif
