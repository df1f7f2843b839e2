/* SPDX-License-Identifier: MIT */
/*
 * parse-gtest.h: turns what one run of a GoogleTest binary writes into a
 * struct outcome, as the bytes arrive, and reads its --gtest_list_tests
 * listing. It reads text only; it never starts processes.
 */
#ifndef FLAKESWEEP_PARSE_GTEST_H
#define FLAKESWEEP_PARSE_GTEST_H

#include <stddef.h>

#include "drivers/outcome.h"
#include "base/proc-exit.h"

/* The line the gtest driver prints between the binary's console output and
 * the --gtest_output=json file it then copies to the same stream. */
#define PARSE_GTEST_JSON_MARK "--- flakesweep: gtest json ---"

/*
 * The rules (GoogleTest 1.12's console printer and JSON output):
 * - "[ RUN      ] Suite.Name" starts a test; "[       OK ] Suite.Name (N ms)"
 *   passes it, "[  FAILED  ] Suite.Name[, where ...] (N ms)" fails it,
 *   "[  SKIPPED ] Suite.Name (N ms)" skips it. The lines between RUN and
 *   its end are the test's lines (capped at OUTCOME_LINES_CAP).
 * - After PARSE_GTEST_JSON_MARK comes the JSON report. When it parses, it
 *   decides each test that ran: a non-empty "failures" is FAIL, result
 *   "SKIPPED" is SKIP, else PASS; a test the console ended otherwise makes
 *   the run unreliable. Tests with status "NOTRUN" (disabled) are absent.
 * - The stream ending after a RUN without its end: that test was running.
 *   Stopped at the time limit it is a HANG, otherwise a FAIL with a reason
 *   such as "process killed by signal 11 while running".
 * - A non-zero exit with no test failed or hung fails the package, as does
 *   a report that is not valid JSON.
 * - "Note: Randomizing tests' orders with a seed of N ." gives the seed.
 * - A selected name (a confirm run) that no RUN line carries gives
 *   selection_failed.
 */

struct parse_gtest;

/* A parser for one run; selected is a confirm run's test or NULL (copied). */
struct parse_gtest *parse_gtest_new(const char *selected);

/* Feeds the next len bytes of the run's output, in any chunking. */
void parse_gtest_feed(struct parse_gtest *p, const char *data, size_t len);

/* Ends the run and fills *out (zeroed by the caller). Call it once. */
void parse_gtest_finish(struct parse_gtest *p, const struct proc_exit *exit, struct outcome *out);

/* Frees p. NULL is a no-op. */
void parse_gtest_free(struct parse_gtest *p);

/* Reads the output of --gtest_list_tests ("Suite." lines, then "  Name"
 * lines, each maybe followed by "  # GetParam() = ..."), giving the full
 * names "Suite.Name" in order, disabled tests (a DISABLED_ prefix on the
 * suite or the name) left out. Returns 0 and a NULL-terminated vector
 * (util_strv_free()), or -1 with *err naming the line that is neither. */
int parse_gtest_list(const char *text, char ***tests, size_t *ntests, char **err);

#endif
