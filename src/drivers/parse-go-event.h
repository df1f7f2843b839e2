/* SPDX-License-Identifier: MIT */
/*
 * parse-go-event.h: one framing line of a Go test binary's output ("=== RUN
 * X", "--- FAIL: X (0.01s)", the final PASS) read into an event, its syntax
 * only; parse-go.c decides what it means for the test tree.
 */
#ifndef FLAKESWEEP_PARSE_GO_EVENT_H
#define FLAKESWEEP_PARSE_GO_EVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drivers/outcome.h"

/* Go 1.20+'s -test.v=test2json puts it before each framing line. */
#define PARSE_GO_MARKER '\x16'

/* Where a framing line was found. */
enum parse_go_mode {
	PARSE_GO_FRAMED, /* after a ^V marker: certainly the binary's own */
	PARSE_GO_COL0,   /* at the start of a line, no framing marker in use */
	PARSE_GO_GLUED,  /* after text a test left without a newline */
};

enum parse_go_kind {
	PARSE_GO_EV_RUN,
	PARSE_GO_EV_PAUSE,
	PARSE_GO_EV_CONT,
	PARSE_GO_EV_NAME,
	PARSE_GO_EV_REPORT,
	PARSE_GO_EV_FINAL,
};

struct parse_go_event {
	enum parse_go_kind kind;
	const char *name;
	size_t namelen;
	size_t indent;
	enum outcome_status status;
	int test;   /* the known test it names, or -1 */
	int64_t ms; /* a report's "(1.23s)" in ms, or -1 */
};

/* Reads a framing line (s without its newline or marker) into ev. Checks
 * the syntax only. */
bool parse_go_event_read(const char *s, size_t n, enum parse_go_mode mode,
                         struct parse_go_event *ev);

#endif
