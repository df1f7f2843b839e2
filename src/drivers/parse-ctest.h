/* SPDX-License-Identifier: MIT */
/*
 * parse-ctest.h: reads `ctest --show-only=json-v1` and turns what one ctest
 * run of one test writes (its console output, then the --output-junit
 * report the driver appends after PARSE_CTEST_JUNIT_MARK) into a struct
 * outcome. The report is read with libxml2. It never starts processes.
 */
#ifndef FLAKESWEEP_PARSE_CTEST_H
#define FLAKESWEEP_PARSE_CTEST_H

#include <stddef.h>

#include "drivers/outcome.h"
#include "base/proc-exit.h"

#define PARSE_CTEST_JUNIT_MARK "--- flakesweep: ctest junit ---"

/*
 * The rules (CTest 3.25's console and JUnit output):
 * - Each <testcase name="..." status="..."> of the report is a test:
 *   a <failure> child is FAIL, a <skipped> child or status "notrun" is
 *   SKIP, status "disabled" is absent, else PASS. A failing test whose
 *   console line says "***Timeout" (its TIMEOUT property) is a HANG. A
 *   failing or hanging test's lines are its <system-out>.
 * - No report: the run's one test was running. Stopped at the time limit
 *   it is a HANG, otherwise a FAIL with the reason.
 * - A report that is not XML fails the package, naming its line; so does a
 *   non-zero exit with no test failed or hung.
 * - The run's test missing from the report gives selection_failed.
 */

struct parse_ctest;

/* A parser for one run of test (copied). */
struct parse_ctest *parse_ctest_new(const char *test);

void parse_ctest_feed(struct parse_ctest *p, const char *data, size_t len);

/* Ends the run and fills *out (zeroed by the caller). Call it once. */
void parse_ctest_finish(struct parse_ctest *p, const struct proc_exit *exit, struct outcome *out);

/* Frees p. NULL is a no-op. */
void parse_ctest_free(struct parse_ctest *p);

/* Reads `ctest --show-only=json-v1`: the names of its tests in order,
 * those with the DISABLED property left out. Returns 0 and a
 * NULL-terminated vector (util_strv_free()), or -1 with *err saying what is
 * missing (JSON errors name the byte offset). */
int parse_ctest_list(const char *json, char ***tests, size_t *ntests, char **err);

#endif
