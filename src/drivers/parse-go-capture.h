/* SPDX-License-Identifier: MIT */
/*
 * parse-go-capture.h: one test's output as the Go parser keeps it, bounded:
 * its head and its tail, with the bytes cut between them counted. Every
 * capture of a run charges one shared byte count against
 * PARSE_GO_CAPTURE_BUDGET. It only keeps and composes bytes; which test they
 * belong to is parse-go.c's business.
 */
#ifndef FLAKESWEEP_PARSE_GO_CAPTURE_H
#define FLAKESWEEP_PARSE_GO_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "drivers/outcome.h"

/* All tests' kept output (and goroutine stacks) of one run together, in
 * bytes, so a run with ten thousand talkative subtests still costs a
 * bounded amount. */
#define PARSE_GO_CAPTURE_BUDGET (8u << 20)

/* Zero-initialised: empty. */
struct parse_go_capture {
	char *head;
	size_t hlen, hcap;
	char *tail; /* 2 * PARSE_GO_CAPTURE_TAIL bytes once the head is full */
	size_t tlen;
	uint64_t cut;
};

/* Keeps n output bytes in c, charging what it allocates to *stored; what
 * does not fit the head, the tail or the budget is counted as cut. A NUL,
 * which the C string handed out cannot hold, is kept as the text \x00. */
void parse_go_capture_add(struct parse_go_capture *c, size_t *stored, const char *data, size_t n);

/* Frees c's bytes, gives them back to *stored and empties c. */
void parse_go_capture_free(struct parse_go_capture *c, size_t *stored);

/* The kept bytes as one string of at most OUTCOME_LINES_CAP bytes: all of
 * them, or the head, a line saying how much was cut, and the tail from a
 * line start. Caller frees. */
char *parse_go_capture_text(const struct parse_go_capture *c);

#endif
