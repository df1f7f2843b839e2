/* SPDX-License-Identifier: MIT */
/*
 * control.h: a running sweep's control socket, OUTDIR/control.sock (man
 * 5 flakesweep, CONTROL SOCKET): a local socket, the owner's only, where
 * any number of `flakesweep view` processes attach. Each gets a hello and
 * the sweep's status at once, then the status again whenever it changed
 * (at most every CONTROL_PUSH_MS), and may pause, resume, confirm and stop
 * the sweep, one JSON object a line both ways. A view leaving never stops
 * the sweep. The socket is served on a thread of its own, so a view is
 * answered while the sweep's loop is busy (control-int.h).
 */
#ifndef FLAKESWEEP_CONTROL_H
#define FLAKESWEEP_CONTROL_H

#include <uv.h>

#define CONTROL_SOCKET "control.sock"
#define CONTROL_PROTOCOL 1
#define CONTROL_PUSH_MS 200
/* The longest line either side sends or takes. */
#define CONTROL_LINE_MAX (1024 * 1024)

struct control;
struct sweep;

/* Serves s (borrowed) on OUTDIR/control.sock, replacing a stale socket
 * there. Returns NULL with *err (caller frees) when it cannot (a path too
 * long for a socket, say): the sweep goes on without one. */
struct control *control_new(uv_loop_t *loop, struct sweep *s, const char *outdir, char **err);

/* Removes the socket, sends every view the last status and closes them
 * and the socket; c frees itself on the loop once the server's thread
 * ended, the loop keeping it till then. Called while c carries out a
 * command (stop), it waits for that command's reply to go first. NULL is
 * a no-op. */
void control_close(struct control *c);

/* The socket's path in dir as bind(2) and connect(2) take it: dir's own
 * path, or, when that is too long for a socket address, a path through a
 * descriptor of dir (/proc/self/fd/N/control.sock) left open in *dirfd,
 * which the caller closes once bound or connected (else *dirfd is -1).
 * Returns NULL with *err (caller frees) when dir cannot be opened. Caller
 * frees. */
char *control_socket_path(const char *dir, int *dirfd, char **err);

#endif
