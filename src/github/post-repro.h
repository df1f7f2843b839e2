/* SPDX-License-Identifier: MIT */
/*
 * post-repro.h: the reproduce commands of a bug report as a maintainer
 * posts them: run from the repository's root, never with a path of the
 * machine that measured. results.json keeps the sweep's own commands,
 * which cd to the project's absolute root and run the test binary the
 * sweep built (a path in its output directory); a report rewrites the cd
 * relative to the checkout's top and, for Go, runs `go test` in the
 * package's directory instead of the binary. A command it cannot make
 * free of local paths is left out rather than posted.
 */
#ifndef FLAKESWEEP_POST_REPRO_H
#define FLAKESWEEP_POST_REPRO_H

#include <stdbool.h>

/* How the sweep built its test binaries, for the `go test` line. */
struct post_repro_build {
	bool race;        /* -race */
	const char *tags; /* -tags, or NULL */
};

/* line (a flakesweep or direct reproduce command as results.json keeps
 * it, "[export ... && ]cd DIR && COMMAND"; a line without cd is kept as it
 * is unless it holds an absolute path) with DIR made relative to top,
 * the checkout's top directory (the cd dropped when DIR is top). For the
 * Go driver's direct line (driver "go"), COMMAND's test binary becomes
 * `go test` with the same flags (b says how it was built). Returns NULL
 * when DIR is not inside top or the result still holds an absolute path.
 * Caller frees. */
char *post_repro_relative(const char *line, const char *top, const char *driver,
                          const struct post_repro_build *b);

#endif
