/* SPDX-License-Identifier: MIT */
/*
 * outcome.h: what one run showed, as a driver's parser reports it and the
 * results module counts it. Parsers fill it; nothing here does I/O.
 */
#ifndef FLAKESWEEP_OUTCOME_H
#define FLAKESWEEP_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct buf;

enum outcome_status {
	OUTCOME_PASS,
	OUTCOME_FAIL,
	OUTCOME_SKIP,
	OUTCOME_HANG, /* still running when the run hit its time limit */
};

/* One test (or subtest) that started in the run. Tests that never started
 * are absent: they do not count toward their runs at that pair. */
struct outcome_test {
	char *name; /* full name with subtests ("TestX/a_case"), exactly as the framework printed it
	             */
	enum outcome_status status;
	/* For FAIL and HANG: the test's own output lines, raw bytes (not yet
	 * sanitised), at most OUTCOME_LINES_CAP bytes with a truncation mark;
	 * NULL otherwise. For a HANG, the timeout line and the test's stack. */
	char *lines;
	/* Why a parser decided FAIL or HANG when the framework printed no result
	 * for the test ("process exited with status 2 while running", "test
	 * timed out after 1s"), or NULL. */
	char *reason;
	/* The ambient channels the test read ("clock", "env:HOME"), sorted,
	 * NULL-terminated; NULL when the framework does not say. */
	char **channels;
	/* The test's own run time as its framework reported it (ms), or -1
	 * when it did not (TAP, a test that never ended). */
	int64_t ms;
};

#define OUTCOME_LINES_CAP 8192

/* How the process ended, as proc.c saw it. */
struct outcome {
	struct outcome_test *tests; /* in the order they started */
	size_t ntests;
	/* A failure that belongs to no single test: TestMain or init failed, the
	 * process crashed or exited with no test running, or died while several
	 * parallel tests ran (then candidates lists them). */
	bool package_failed;
	char *package_reason; /* one line, e.g. "exit status 3 with no test running" */
	char *package_lines;  /* raw excerpt, capped like outcome_test.lines, or NULL */
	char **candidates;    /* NULL-terminated, or NULL */
	/* The run's results contradict themselves (one test both skipped and
	 * failed, say): nothing from it is counted either way. */
	bool unreliable;
	char *unreliable_reason;
	/* A confirm run's filter selected no test ("no tests to run"). */
	bool selection_failed;
	/* The run ended before its framework reached any test (pytest: the
	 * plugin did not load, only collection errors, nothing collected): why,
	 * with the fix; NULL when it reached its tests or the driver cannot
	 * tell. A sweep whose every package's runs end so stops (run.c). */
	char *unreached;
	char *seed; /* the shuffle seed the binary printed, or NULL */
};

/* Frees everything o owns and zeroes it; o itself is the caller's. */
void outcome_free(struct outcome *o);

/* Appends a test; takes ownership of name and lines (either may be NULL for
 * lines). Returns the new entry. */
struct outcome_test *outcome_add(struct outcome *o, char *name, enum outcome_status status,
                                 char *lines);

/* Returns the entry for name, or NULL. */
struct outcome_test *outcome_find(const struct outcome *o, const char *name);

/* True when the run counts as failed for the package: any test failed or
 * hung, or the package failed. */
bool outcome_failed(const struct outcome *o);

/* Appends n bytes of a test's output to b, capped for outcome_test.lines
 * (OUTCOME_LINES_CAP less room for the mark), adding what does not fit to
 * *cut; a NUL byte is kept as the text \x00. */
void outcome_keep(struct buf *b, uint64_t *cut, const char *s, size_t n);

/* A copy of b's bytes for outcome_test.lines, ending in a
 * "[... N bytes cut ...]" line when *cut is not 0. Caller frees. */
char *outcome_kept(const struct buf *b, uint64_t cut);

#endif
