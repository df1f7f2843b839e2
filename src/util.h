/* SPDX-License-Identifier: MIT */
/*
 * util.h: allocation that never fails, fatal errors, growable buffers and
 * the one clock the rest of flakesweep reads. Nothing here knows about runs
 * or tests.
 */
#ifndef FLAKESWEEP_UTIL_H
#define FLAKESWEEP_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "gettext.h"

#define _(s) gettext(s)
#define N_(s) gettext_noop(s)

#define UTIL_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* Called by fatal() before it prints, so a front end can restore the
 * terminal. NULL (the default) does nothing. */
typedef void (*util_fatal_hook_cb)(void);
void util_set_fatal_hook(util_fatal_hook_cb hook);

/* Prints "flakesweep: MESSAGE" to stderr and exits with status 2. Out of
 * memory and broken invariants end here; everything else returns an error. */
void fatal(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

/* Allocation: each aborts through fatal() when memory runs out, so callers
 * never check for NULL. The caller owns what they return (free()). */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable byte buffer, always NUL-terminated after len bytes. */
struct buf {
	char *data;
	size_t len;
	size_t cap;
};

void buf_init(struct buf *b);
void buf_free(struct buf *b);
void buf_reset(struct buf *b);
void buf_add(struct buf *b, const void *data, size_t len);
void buf_adds(struct buf *b, const char *s);
void buf_addc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Hands the bytes to the caller (free()) and leaves b empty. */
char *buf_steal(struct buf *b);

/* Appends a copy of s to the NULL-terminated string vector *v of *n
 * entries, which grows. */
void util_strv_add(char ***v, size_t *n, const char *s);

/* Frees a NULL-terminated string vector and its strings. NULL is a no-op. */
void util_strv_free(char **v);

/* Milliseconds of wall-clock time since the Unix epoch. Every module reads
 * time through this so tests can replace it with util_set_clock(). */
typedef int64_t (*util_clock_cb)(void);
int64_t util_now_ms(void);
void util_set_clock(util_clock_cb clock);

/* Milliseconds from a monotonic clock, for durations and timers. */
int64_t util_mono_ms(void);

/* Parses a duration in Go's syntax ("90s", "2m", "1h30m", "1.5s", "250ms")
 * into *ms. Returns 0, or -EINVAL for anything else. */
int util_parse_duration(const char *s, int64_t *ms);

/* Formats ms as Go would print it ("2m0s", "1.5s") into out (size bytes). */
void util_format_duration(int64_t ms, char *out, size_t size);

/* Parses a comma-separated list of positive integers ("1,2,4") into a new
 * array (caller frees) and its length. Returns 0 or -EINVAL. */
int util_parse_int_list(const char *s, int **out, int *n);

/* Writes len bytes to path atomically: a temporary file beside it, fsync,
 * then rename. Returns 0 or a negative errno. */
int util_write_file_atomic(const char *path, const char *data, size_t len);

/* Reads a whole file into a new NUL-terminated buffer (caller frees) and
 * its length. Returns 0 or a negative errno. max caps the size (bytes). */
int util_read_file(const char *path, size_t max, char **out, size_t *len);

/* Creates dir and its parents (mode 0755). Returns 0 or a negative errno. */
int util_mkdir_p(const char *dir);

/* Removes path recursively. Returns 0 or a negative errno. */
int util_rm_rf(const char *path);

/* Quotes s for a POSIX shell: returned as is when it is made only of safe
 * characters, else in single quotes with ' written as '\''. Caller frees. */
char *util_shell_quote(const char *s);

/* Formats t (ms since the epoch) as RFC 3339 in UTC, e.g.
 * "2026-11-30T02:14:00Z", into out (at least 32 bytes). */
void util_format_rfc3339(int64_t ms, char *out, size_t size);

/* v (>= 0) rounded to three significant digits, for p-values in JSON. */
double util_round3(double v);

#endif
