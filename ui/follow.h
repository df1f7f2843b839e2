/* SPDX-License-Identifier: MIT */
/*
 * follow.h: the dashboard on a sweep's journal: a finished sweep, or one
 * running elsewhere, followed as its journal grows (`flakesweep view
 * DIR`). It only reads the sweep; decisions taken in it are written to
 * decisions.json and the quarantine file like in a live dashboard.
 */
#ifndef FLAKESWEEP_UI_FOLLOW_H
#define FLAKESWEEP_UI_FOLLOW_H

#include "results/follower.h"
#include "ui.h"

struct follow;

/* A source for the journal of dir. Fills *ev with the events to hand
 * follower_new(): once attached, they refresh the dashboard. */
struct follow *follow_new(const char *dir, struct follower_events *ev);

/* Makes f, whose journal fw follows (borrowed), the source of ui
 * (MODEL_VIEW); closing the dashboard stops the follower. */
void follow_attach(struct follow *f, struct follower *fw, struct ui *ui);

/* Frees f, after the loop ran out; NULL is a no-op. */
void follow_free(struct follow *f);

#endif
