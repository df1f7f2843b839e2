/* SPDX-License-Identifier: MIT */
/*
 * exits.h: the exits of a loop's children, watched through their pidfds
 * in one epoll set of the loop's: one libuv handle for all of them, so a
 * child's exit costs one epoll_ctl to watch and one to forget. It knows
 * nothing of runs or output.
 */
#ifndef FLAKESWEEP_ENGINE_EXITS_H
#define FLAKESWEEP_ENGINE_EXITS_H

#include <stdbool.h>
#include <uv.h>

struct exits;

/* Called on the loop when the process of a watched pidfd has exited. It
 * may be called once more in the same turn for an arg whose pidfd was
 * forgotten meanwhile (arg must stay valid until the turn ends): the
 * callee ignores a process it has already reaped. */
typedef void (*exits_cb)(void *arg);

/* Watches pidfd on loop, cb(arg) once its process has exited; the loop's
 * set is made by its first watch (every watch of a loop passes the same
 * cb). Returns the set, or NULL (errno set) when the pidfd cannot be
 * watched: the caller watches some other way. */
struct exits *exits_watch(uv_loop_t *loop, int pidfd, exits_cb cb, void *arg);

/* Closes pidfd, watched in x: its last watch gone, the set is closed
 * unless it is kept. */
void exits_forget(struct exits *x, int pidfd);

/* Keeps the loop's set (made now if need be) while no child is watched, or
 * no longer: a sweep keeps it from its first run to its end, so that the
 * set is not made again for each run that finds no other in flight. The
 * loop cannot be closed while it is kept. */
void exits_keep(uv_loop_t *loop, exits_cb cb, bool keep);

#endif
