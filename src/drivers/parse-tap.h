/* SPDX-License-Identifier: MIT */
/*
 * parse-tap.h: turns what one run of a TAP producer writes (TAP 13 or 14,
 * stdout and stderr merged) into a struct outcome, as the bytes arrive. It
 * reads the stream only; it never starts processes or sanitises text.
 */
#ifndef FLAKESWEEP_PARSE_TAP_H
#define FLAKESWEEP_PARSE_TAP_H

#include <stddef.h>

#include "drivers/outcome.h"
#include "base/proc-exit.h"

/*
 * The rules (TAP 14 with what Node's and Perl's producers really print):
 * - A test point "(not )ok [N] [-] [description] [# directive]" is a test
 *   named by its description (with \# and \\ unescaped), or "test N" when it
 *   has none. A name seen twice in one run gets "#01", "#02"... as Go does.
 * - "not ok" is FAIL. "# SKIP" (any case) is SKIP, whether ok or not ok.
 *   "# TODO" is SKIP too: a TODO point's result is not a verdict either way.
 * - A child stream indented 4 spaces per level is a subtest of the point
 *   that closes it at the parent's level; its tests are named
 *   "parent/child". "# Subtest: NAME" announces one.
 * - The YAML block after a failing point (indented 2 more, from "---" to
 *   "...") and the comment lines after it, up to the next point or
 *   announcement, become the test's lines (raw, a NUL as the text \x00,
 *   capped at OUTCOME_LINES_CAP).
 * - Lines that are not TAP between "# Subtest: NAME" and the point that
 *   ends it are what that test printed while it ran: they come first in
 *   its lines when it fails or hangs (the innermost announcement owns
 *   them).
 * - "Bail out!" at any level fails the package with that line as the
 *   reason; what follows is ignored.
 * - At the top level, a missing plan, more than one plan, a plan that does
 *   not match the points, or points out of sequence fail the package.
 *   "1..0 # SKIP ..." is a run with no tests, not a failure.
 * - A non-zero exit fails the package when no test failed or hung.
 * - The stream ending inside a subtest, or after "# Subtest: NAME" without
 *   that test's point: that subtest (and its open parents) was running. If
 *   flakesweep killed the run at its time limit it is a HANG, otherwise a
 *   FAIL with a reason such as "process exited with status 1 while running".
 *   Killed at the limit with no subtest open, the package fails (TAP does
 *   not say which test had started): the reason names the last test point.
 * - A selected name (a confirm run) that no point carries gives
 *   selection_failed.
 */

struct parse_tap;

/* A parser for one run. selected is a confirm run's full test name that must
 * appear, or NULL; it is copied. */
struct parse_tap *parse_tap_new(const char *selected);

/* Feeds the next len bytes of the run's output, in any chunking. */
void parse_tap_feed(struct parse_tap *p, const char *data, size_t len);

/* Ends the run and fills *out (zero-initialised by the caller, then the
 * caller's to outcome_free()). Call it once; only parse_tap_free() may
 * follow. */
void parse_tap_finish(struct parse_tap *p, const struct proc_exit *exit, struct outcome *out);

/* Frees p. NULL is a no-op. */
void parse_tap_free(struct parse_tap *p);

#endif
