/* SPDX-License-Identifier: MIT */
/*
 * markdown.h: the Markdown helpers of the bug report: text from outside
 * made safe to show (clean lines, names, UTF-8-safe cuts), code spans and
 * fences that nothing inside can close, and the check that a person's
 * text has no heading. Every function is pure; none reads a file.
 */
#ifndef FLAKESWEEP_MARKDOWN_H
#define FLAKESWEEP_MARKDOWN_H

#include <stdbool.h>
#include <stddef.h>

#include "base/util.h"

/* Splits text at '\n' (a '\r' before it dropped) into new lines; free
 * them with markdown_free_lines(). */
char **markdown_split_lines(const char *text, size_t *n);
void markdown_free_lines(char **v, size_t n);

/* One line from outside, safe to show: no control sequences, valid UTF-8,
 * tabs kept only when keep_tabs. Caller frees. */
char *markdown_clean_line(const char *s, size_t n, bool keep_tabs);

/* Cuts s to at most max bytes, never inside a UTF-8 character. */
void markdown_cut_utf8(char *s, size_t max);

/* A name from a results file: one clean line of bounded length. Caller
 * frees. */
char *markdown_clean_name(const char *s);

/* Multi-line text a person wrote: clean lines, no trailing spaces at the
 * end, no blank lines around it. Caller frees. */
char *markdown_clean_text(const char *text);

/* Appends an inline code span that nothing inside can close. */
void markdown_code(struct buf *b, const char *s);

/* Appends a fenced block whose fence is longer than any backtick run
 * inside, so nothing in text can end it or render as Markdown. */
void markdown_fence(struct buf *b, const char *info, const char *text);

/* Appends a URL path, each byte outside the unreserved set
 * percent-encoded. */
void markdown_url_path(struct buf *b, const char *path);

/* Checks a description or notes text: 0, or -EINVAL with *err (caller
 * frees) when it is empty or has a Markdown heading (ATX, setext or HTML)
 * outside a fenced block. what names it in the message. */
int markdown_check_text(const char *text, const char *what, char **err);

#endif
