/* SPDX-License-Identifier: MIT */
/*
 * follow.h: the dashboard on a sweep's journal: a finished sweep, or one
 * running elsewhere, followed as its journal grows (`flakesweep view
 * DIR`). Attached to a running sweep's control socket it shows its lanes
 * live and steers it; a sweep that is over takes confirm runs here.
 * Decisions taken in it are written to decisions.json and the quarantine
 * file like in a live dashboard.
 */
#ifndef FLAKESWEEP_UI_FOLLOW_H
#define FLAKESWEEP_UI_FOLLOW_H

#include <uv.h>

#include "results/follower.h"
#include "ui.h"

struct follow;

/* A source for the journal of dir. Fills *ev with the events to hand
 * follower_new(): once attached, they refresh the dashboard. */
struct follow *follow_new(const char *dir, struct follower_events *ev);

/* Attaches to the sweep serving dir's control socket, on loop (which
 * also runs a sweep resumed here for confirm runs). Returns 0, or a
 * negative errno with *err (caller frees): -ENOENT without a socket,
 * -ECONNREFUSED when it is stale (the sweep was killed); the view then
 * only follows the journal. */
int follow_connect(struct follow *f, uv_loop_t *loop, char **err);

/* Makes f, whose journal fw follows (borrowed), the source of ui
 * (MODEL_VIEW); closing the dashboard stops the follower. */
void follow_attach(struct follow *f, struct follower *fw, struct ui *ui);

/* Detaches from the sweep (it goes on) and stops following the journal
 * fw (if attached); the dashboard's quit does it. */
void follow_close(struct follow *f);

/* Frees f, after the loop ran out; NULL is a no-op. */
void follow_free(struct follow *f);

#endif
