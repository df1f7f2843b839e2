/* SPDX-License-Identifier: MIT */
/*
 * sanitize.h: makes raw test output safe to show on a terminal or inside a
 * Markdown code block. It only cleans bytes; fencing, mentions and size
 * limits are the report's business.
 */
#ifndef FLAKESWEEP_SANITIZE_H
#define FLAKESWEEP_SANITIZE_H

#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>

/* Returns a new NUL-terminated copy of the len bytes at raw (which may hold
 * NULs) that is valid UTF-8 and carries no control sequence:
 * - escape sequences (CSI such as colours, OSC such as window titles, DCS,
 *   APC, PM, SOS, two- and three-byte escapes, and their 8-bit C1 forms)
 *   are removed; a string sequence missing its terminator ends at the line
 *   end, so it cannot hide the rest of the output;
 * - other C0 controls, DEL and C1 controls are removed, except \n and \t;
 * - "\r\n" becomes "\n"; a lone \r drops the text before it on that line,
 *   as a terminal redraw shows only the last state ("progress 100%");
 * - each maximal invalid UTF-8 subpart becomes U+FFFD (so "\xff\xfe" gives
 *   two), as do surrogates and overlong forms;
 * - U+2028, U+2029 and NEL become \n; bidirectional controls and other
 *   invisible format characters (U+FEFF, U+200E/F, U+202A-E, U+2066-9,
 *   U+061C, U+FFF9-B) are removed.
 * The caller frees the result. */
char *sanitize_text(const char *raw, size_t len);

/* Writes the len bytes at raw to f as sanitize_text cleans them: every
 * string from a test, a file or a server reaches a terminal this way. */
void sanitize_write(FILE *f, const char *raw, size_t len);

/* fprintf(f, fmt, ...), the whole formatted text cleaned as by
 * sanitize_write. */
void sanitize_fprintf(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Quotes s as one shell word: as it is when it is made only of safe
 * characters; with a byte that is not printable text, as
 * sanitize_shell_ansi does; else in single quotes with ' written as '\''.
 * Caller frees. */
char *sanitize_shell_quote(const char *s);

/* Whether word holds a byte that is not printable text: invalid UTF-8, a
 * control or an invisible format character (what sanitize_text would
 * change), so that only sanitize_shell_ansi quotes it faithfully. */
bool sanitize_shell_escapes(const char *word);

/* word as one shell word in ANSI-C quotes ($'...', bash, zsh, ksh and
 * POSIX.1-2024 sh): each byte that is not printable text as \xHH, the
 * rest as it is, so the command selects the same bytes when pasted and
 * shows no byte a terminal acts on. The caller frees the result. */
char *sanitize_shell_ansi(const char *word);

#endif
