/* SPDX-License-Identifier: MIT */
/*
 * follower.h: follows a sweep's journal as it grows, for `flakesweep view
 * DIR` on a sweep finished or running elsewhere. It replays the journal
 * once, then reads on from where it stopped each time the journal grew,
 * never the whole journal again, and tells its owner.
 */
#ifndef FLAKESWEEP_FOLLOWER_H
#define FLAKESWEEP_FOLLOWER_H

#include <uv.h>

#include "results/replay.h"

struct follower;

struct follower_events {
	void *arg;
	/* The journal changed and next holds what it says now; next is
	 * follower_replay() when this returns (a replay it replaces, when
	 * the journal was replaced, is freed then: refresh what borrows
	 * from it here). */
	void (*changed)(void *arg, const struct replay *next);
	/* The journal changed and could not be read: the previous replay
	 * stays. */
	void (*error)(void *arg, const char *text);
};

/* Replays DIR/journal.jsonl and starts following it on loop. Returns NULL
 * with *err (caller frees) when the journal cannot be read. */
struct follower *follower_new(uv_loop_t *loop, const char *dir, const struct follower_events *ev,
                              char **err);

/* The latest replay; valid until the next changed event. */
const struct replay *follower_replay(const struct follower *f);

/* Reads what was appended to the journal now, without waiting for the
 * next look: a sweep that just ended wrote its last lines first. */
void follower_poll(struct follower *f);

/* Stops following (closes the timer); follower_free after the loop ran. */
void follower_stop(struct follower *f);

/* Frees f. NULL is a no-op. */
void follower_free(struct follower *f);

#endif
