/* SPDX-License-Identifier: MIT */
/*
 * excerpt.h: orders a failed test's kept output so the failure comes first.
 * A chatty test logs hundreds of lines before its assertion or panic; the
 * first lines of its output are then noise. It only reorders text; it
 * never sanitises and never reads files.
 */
#ifndef FLAKESWEEP_EXCERPT_H
#define FLAKESWEEP_EXCERPT_H

#include <stddef.h>

/* Output with at most this many lines is left as it is. */
#define EXCERPT_SHORT_LINES 20

/* The test's own error lines first, then the output as it came, in at most
 * cap bytes (a "[... N bytes cut ...]" line marks a cut). The error lines
 * are, in order: the framework's result line ("--- FAIL: ...", "not ok
 * ..."), the last EXCERPT_ERROR_LINES assertion lines ("    x_test.go:12:
 * ..." as Go's testing package prints t.Errorf and t.Log, and testify's
 * "Error:" lines), and the panic with its goroutine stacks ("panic: " to
 * the end). Returns a new string; text itself when it is short or holds
 * none of those lines (a copy). */
char *excerpt_failure_first(const char *text, size_t cap);

#define EXCERPT_ERROR_LINES 5

struct buf;

/* The error lines a parser picked (lead, at most cap / 2 bytes of it, cut
 * at a line end), then "[... the output in order ...]" and text, in at
 * most cap bytes in all. Takes lead's text (lead is left empty) and
 * returns it. */
char *excerpt_lead(struct buf *lead, const char *text, size_t cap);

#endif
