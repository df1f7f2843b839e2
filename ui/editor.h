/* SPDX-License-Identifier: MIT */
/*
 * editor.h: runs the user's editor ($EDITOR, else vi) or pager ($PAGER,
 * else less) on a file, on the
 * terminal, without blocking the loop: runs in flight keep being reaped
 * while the user writes. The caller suspends curses before and resumes it
 * in the callback. It never reads the file.
 */
#ifndef FLAKESWEEP_UI_EDITOR_H
#define FLAKESWEEP_UI_EDITOR_H

#include <sys/types.h>
#include <uv.h>

struct editor;

/* status: the editor's exit status (0-255), 128 + signal, or -1 when it
 * cannot be known (another reaper took it). The editor frees itself after
 * the call. */
typedef void (*editor_done_cb)(void *arg, int status);

/* Starts `sh -c 'exec ${EDITOR:-vi} "$1"' sh path` in the foreground with
 * the terminal as its stdin, stdout and stderr, and sets *pid. Returns 0,
 * or a negative errno when it cannot start (done is not called then). */
int editor_start(uv_loop_t *loop, const char *path, editor_done_cb done, void *arg, pid_t *pid);

/* editor_start with the user's pager ($PAGER, else less) to read path. */
int editor_start_pager(uv_loop_t *loop, const char *path, editor_done_cb done, void *arg,
                       pid_t *pid);

#endif
