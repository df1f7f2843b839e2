/* SPDX-License-Identifier: MIT */
/*
 * control-client.h: the view's end of a sweep's control socket (see
 * control.h): connects, checks the hello's protocol, decodes each pushed
 * status and sends the commands. The status it hands on is what a live
 * sweep's sweep_status() fills, so a front end draws both the same way.
 */
#ifndef FLAKESWEEP_CONTROL_CLIENT_H
#define FLAKESWEEP_CONTROL_CLIENT_H

#include <stdbool.h>
#include <uv.h>

#include "engine/status.h"

struct control_client;

struct control_client_events {
	void *arg;
	/* The sweep's status (borrowed until the next one); end_status is
	 * how it ended, or NULL while it runs. */
	void (*status)(void *arg, const struct sweep_status *st, const char *end_status);
	/* The answer to a command: NULL when done, else why not. */
	void (*reply)(void *arg, const char *error);
	/* The sweep went away (it ended or was killed) or spoke out of turn
	 * (why, or NULL for an orderly end); nothing more comes. */
	void (*closed)(void *arg, const char *why);
};

/* Connects to the sweep serving dir. Returns NULL with *err (caller frees)
 * and *rc, a negative errno: -ENOENT with no socket, -ECONNREFUSED when
 * the socket is stale (its sweep was killed), others. */
struct control_client *control_client_new(uv_loop_t *loop, const char *dir,
                                          const struct control_client_events *ev, int *rc,
                                          char **err);

/* Sends a command: "pause", "resume", "stop", or "confirm" with test and
 * count. Returns 0 or a negative errno (the sweep went away). */
int control_client_send(struct control_client *c, const char *cmd, const char *test, int count);

/* Closes the connection (the sweep goes on); c frees itself once closed,
 * and sends no more events. NULL is a no-op. */
void control_client_close(struct control_client *c);

#endif
