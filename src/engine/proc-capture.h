/* SPDX-License-Identifier: MIT */
/*
 * proc-capture.h: a command run to completion off the loop, its stdout and
 * stderr captured: what flakesweep asks of go, git and build tools.
 */
#ifndef FLAKESWEEP_ENGINE_PROC_CAPTURE_H
#define FLAKESWEEP_ENGINE_PROC_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

/* The time limit of proc_capture: generous, for go list, go env and git
 * (10 minutes). */
#define PROC_CAPTURE_LIMIT_MS (10 * 60 * 1000)

/* Runs argv to completion (no pinning, no loop) in its own process group,
 * which gets SIGKILL at limit_ms or when flakesweep dies, capturing stdout
 * and stderr merged, at most max bytes (more is dropped). SIGINT, SIGTERM
 * and SIGHUP meanwhile kill the child and are then delivered to
 * flakesweep's handlers. Returns the exit status (0-255), 128+signal,
 * -ETIMEDOUT at the limit, -EINTR after such a signal, or another negative
 * errno when it could not start; *output is always set (caller frees). */
int proc_capture_limit(char *const *argv, const char *cwd, char *const *envp, size_t max,
                       int64_t limit_ms, char **output);

/* proc_capture_limit with PROC_CAPTURE_LIMIT_MS. */
int proc_capture(char *const *argv, const char *cwd, char *const *envp, size_t max, char **output);

/* The signal that stopped a capture (then delivered to its handler), or 0
 * when none did: the sweep stops as if interrupted. */
int proc_interrupted(void);

/* Runs argv like proc_capture and returns the first line of its output
 * (caller frees), or NULL when it failed or printed nothing. */
char *proc_capture_line(char *const *argv, const char *cwd);

#endif
