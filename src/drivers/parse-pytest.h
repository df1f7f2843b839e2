/* SPDX-License-Identifier: MIT */
/*
 * parse-pytest.h: turns what one pytest run reports through flakesweep's
 * plugin (data/flakesweep_ledger.py, --flakesweep-report-fd) into a struct
 * outcome, as the bytes arrive. The report is its own stream, apart from
 * the run's output; the output is kept only to explain a run that failed
 * outside any test. It never starts processes or sanitises text.
 */
#ifndef FLAKESWEEP_PARSE_PYTEST_H
#define FLAKESWEEP_PARSE_PYTEST_H

#include <stddef.h>

#include "drivers/outcome.h"
#include "base/proc-exit.h"

/*
 * The rules (the report's events are JSON lines, man 5 flakesweep):
 * - {"event":"start","test":ID} opens test ID; {"event":"result","test":ID,
 *   "outcome":O,"channels":[...],"lines":S} closes it. O "passed" is PASS,
 *   "skipped" SKIP, "failed" and "error" FAIL with S as its lines (capped
 *   at OUTCOME_LINES_CAP). The channels are kept with the test, passed or
 *   not.
 * - A line that is not a JSON object (faulthandler's dump of every thread
 *   on SIGTERM) belongs to the open test's stack.
 * - The report ending with a test open: killed at the time limit, it is a
 *   HANG whose lines are the stack; otherwise a FAIL with a reason such as
 *   "process exited with status 1 while running".
 * - {"event":"collected","seed":S} gives the run's shuffle seed.
 * - {"event":"error","lines":S} (a collection error) fails the package.
 * - {"event":"done","exitstatus":N}: 0, and 1 with a failed test, are
 *   normal; 5 (no tests collected) is a run with no tests, or
 *   selection_failed for a confirm run; anything else fails the package.
 * - No "done" and no open test: the package fails (the plugin was not
 *   loaded, pytest could not start, or the run died between tests), with
 *   the tail of the output as its lines.
 * - A test with two results, or a result without its start, makes the run
 *   unreliable. A malformed JSON line is ignored.
 * - A selected name (a confirm run) that no result carries gives
 *   selection_failed.
 */

struct parse_pytest;

/* A parser for one run. selected is a confirm run's node id that must
 * appear, or NULL; it is copied. */
struct parse_pytest *parse_pytest_new(const char *selected);

/* Feeds the next len bytes of the report stream, in any chunking. */
void parse_pytest_feed_report(struct parse_pytest *p, const char *data, size_t len);

/* Feeds the next len bytes of the run's output (stdout and stderr). */
void parse_pytest_feed_output(struct parse_pytest *p, const char *data, size_t len);

/* Ends the run and fills *out (zero-initialised by the caller, then the
 * caller's to outcome_free()). Call it once; only parse_pytest_free() may
 * follow. */
void parse_pytest_finish(struct parse_pytest *p, const struct proc_exit *exit, struct outcome *out);

/* Frees p. NULL is a no-op. */
void parse_pytest_free(struct parse_pytest *p);

#endif
