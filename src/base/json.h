/* SPDX-License-Identifier: MIT */
/*
 * json.h: where JSON text goes wrong (RFC 8259), for error messages that
 * name the line, the column and what was expected. Readers call json_error
 * after cJSON refuses a buffer, and json_check before trusting strings
 * cJSON would take (it accepts invalid UTF-8 and cuts a string at a NUL);
 * they parse with json_parse, which reads jsonw's byte escapes.
 */
#ifndef FLAKESWEEP_JSON_H
#define FLAKESWEEP_JSON_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/* The length of the valid UTF-8 character at s (n bytes), or 0 when
 * there is none there (json_utf8_valid's rules). */
size_t json_utf8_len(const char *s, size_t n);

/* True when s (n bytes) is valid UTF-8 (RFC 3629: no overlong forms, no
 * surrogates). */
bool json_utf8_valid(const char *s, size_t n);

/* Checks that text (len bytes) is exactly one JSON value with blanks
 * around it, in valid UTF-8, with no raw control character (NUL included)
 * inside a string. Returns 0, or -EINVAL with *off the byte offset where
 * it goes wrong and *why what was expected there (static, translated). */
int json_check(const char *text, size_t len, size_t *off, const char **why);

/* cJSON_ParseWithLengthOpts(text, len, end, nul_end) for JSON that jsonw
 * wrote: a byte escape, \\udc80 to \\udcff outside a surrogate pair,
 * stands for the byte 0x80 to 0xff that jsonw found outside valid UTF-8
 * (as Python's "surrogateescape" writes it), and the tree's strings hold
 * those bytes (cJSON alone refuses a lone surrogate). *end, when end is
 * not NULL, points into text. */
cJSON *json_parse(const char *text, size_t len, const char **end, bool nul_end);

/* The 1-based line and column (in characters) of byte offset off. */
void json_pos(const char *text, size_t len, size_t off, int *line, int *col);

/* What is wrong with text that cJSON refused (static, translated) and the
 * byte offset *off where: json_check's answer, or, for valid JSON past
 * cJSON's limits, errptr (cJSON_GetErrorPtr() or the parse end). */
const char *json_why(const char *text, size_t len, const char *errptr, size_t *off);

/* "LINE:COL: invalid JSON (WHY)" for text that cJSON refused, errptr being
 * cJSON_GetErrorPtr() or the parse end cJSON_ParseWithLengthOpts gave (see
 * json_why). Caller frees; the caller puts the file name in front. */
char *json_error(const char *text, size_t len, const char *errptr);

#endif
