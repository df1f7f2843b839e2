/* SPDX-License-Identifier: MIT */
/*
 * parse-go.h: turns what one run of a Go test binary writes (stdout and
 * stderr merged on one pipe) into a struct outcome, in C and as the bytes
 * arrive, without test2json. It decides which test a crash, a hang or a stray
 * line belongs to; it never starts processes, reads files or sanitises text.
 */
#ifndef FLAKESWEEP_PARSE_GO_H
#define FLAKESWEEP_PARSE_GO_H

#include <stdbool.h>
#include <stddef.h>

#include "drivers/outcome.h"
#include "base/proc-exit.h"

/*
 * The binary runs as `BIN -test.v -test.paniconexit0 -test.count=1 ...`
 * (Go 1.19), or with -test.v=test2json on Go >= 1.20, where the binary's own
 * framing lines start with the byte 0x16 (^V) and nothing a test prints can
 * pass for them. The rules, from Go's test2json behaviour and the real
 * failures under ../shared/cases:
 *
 * - "=== RUN" starts a test. The tree comes from RUN order: a subtest's
 *   parent is the longest running test whose name plus '/' starts its name.
 *   A RUN at the same level as a running non-parallel test means that one
 *   finished (Go 1.19 prints subtest results only when the parent ends).
 * - "--- PASS/FAIL/SKIP: NAME (N.NNs)" is the evidence of a result. Without
 *   ^V framing it must be indented 4 spaces per level, or glued after text a
 *   test left without a newline ("100%--- PASS: TestX (0.00s)"), and only
 *   counts for a test that started. "=== CONT/PAUSE/NAME" glued the same way
 *   are followed too.
 * - Exit status 0 with a final "PASS" line means every started test passed
 *   (skipped ones stay skipped): fake framing printed by tests cannot make a
 *   failure then. A test with two different results in one run makes the
 *   run unreliable; the first result is kept.
 * - Top-level names outside opts->listed are ignored, with their subtests.
 * - Go's own timeout ("panic: test timed out after D"): the hung tests are
 *   those in its "running tests:" list (Go >= 1.20), else the deepest
 *   running tests whose top-level function has a frame in the goroutine
 *   dump, else every deepest running test. Each is a HANG whose lines are the
 *   panic line, the list and its goroutine stacks; a test that printed its
 *   result is never blamed.
 * - The process died (panic, os.Exit, log.Fatal, a signal, exit 0 without
 *   the final PASS) while exactly one test was running at the deepest level:
 *   that test FAILs with a reason such as "process exited with status 2
 *   while running". Several: the package fails, naming them as candidates.
 *   None, and no test failed before: the package fails (TestMain, init).
 * - proc_exit.timed_out (flakesweep killed the run at its limit): every
 *   deepest running test is a HANG; with none, the package fails.
 * - A parent whose subtest failed fails; a parent of a hung test hangs.
 * - Tests whose result the run did not show (a crash cut them short while
 *   they waited or after they finished unreported) are left out, as tests
 *   that never started are: they do not count toward their runs.
 * - "-test.shuffle N" gives outcome.seed; "testing: warning: no tests to
 *   run", or opts->selected never starting, gives selection_failed.
 * - Per-test output is kept raw (a NUL byte as the text \x00, since the
 *   lines are a C string), at most OUTCOME_LINES_CAP bytes: the head
 *   and the tail with a "[... N bytes cut ...]" line between. Lines longer
 *   than 64 KiB are processed in pieces; memory stays bounded whatever the
 *   binary writes.
 */

struct parse_go_opts {
	/* The binary runs with -test.v=test2json (Go >= 1.20): only lines that
	 * carry the ^V marker are framing. */
	bool framing_marker;
	/* The package's import path ("example.com/case08"), used to read test
	 * functions in goroutine dumps; NULL accepts any package. */
	const char *import_path;
	/* NULL-terminated top-level test names from -test.list, or NULL to
	 * accept every name. */
	const char *const *listed;
	/* A confirm run's exact full test name that must start, or NULL. */
	const char *selected;
};

struct parse_go;

/* A parser for one run. opts and the strings it points to are copied. */
struct parse_go *parse_go_new(const struct parse_go_opts *opts);

/* Feeds the next len bytes of the run's output, in any chunking. Work is
 * linear in the bytes fed; no regular expressions. */
void parse_go_feed(struct parse_go *p, const char *data, size_t len);

/* Ends the run: how the process exited (status, signal, whether flakesweep
 * killed it at the limit) decides what the unfinished tests mean. Fills
 * *out, which must be zero-initialised and is then the caller's to
 * outcome_free(). Call it once; only parse_go_free() may follow. */
void parse_go_finish(struct parse_go *p, const struct proc_exit *exit, struct outcome *out);

/* Frees p. NULL is a no-op. */
void parse_go_free(struct parse_go *p);

/* The -test.run value that selects exactly the test full_name in a confirm
 * run: full_name split on '/', each element escaped like Go's
 * regexp.QuoteMeta and anchored as ^...$, joined with '/'. Example:
 * "TestNames/should_(fail)" gives "^TestNames$/^should_\(fail\)$". Caller
 * frees. */
char *parse_go_run_pattern(const char *full_name);

/* "^(A|B)$" for top-level tests A and B (NULL-terminated), each quoted. */
char *parse_go_run_alternation(char *const *tests);

#endif
