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

#include "base/gettext.h"

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
/* Makes room in array p (n elements of size bytes) for one more, doubling
 * its allocation at each power of two so n appends cost O(n). */
void *xgrow(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char *xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/* A growable byte buffer, always NUL-terminated after len bytes. */
struct buf {
	char *data;
	size_t len;
	size_t cap;
};

void buf_init(struct buf *b);
void buf_free(struct buf *b);
void buf_reset(struct buf *b);
/* Makes room for extra more bytes: a writer that knows about how much it
 * writes grows the buffer once. */
void buf_reserve(struct buf *b, size_t extra);
void buf_add(struct buf *b, const void *data, size_t len);
void buf_adds(struct buf *b, const char *s);
void buf_addc(struct buf *b, char c);
void buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void buf_vprintf(struct buf *b, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
/* Hands the bytes to the caller (free()) and leaves b empty. */
char *buf_steal(struct buf *b);

/* Feeds len bytes of a stream to fn one line at a time, without its
 * newline, keeping a partial line in *line between calls; a line over max
 * bytes is cut to max. */
void util_feed_lines(struct buf *line, size_t max, const char *data, size_t len,
                     void (*fn)(void *arg, const char *s, size_t n), void *arg);

/* Appends a copy of s to the NULL-terminated string vector *v of *n
 * entries, which grows. */
void util_strv_add(char ***v, size_t *n, const char *s);

/* Frees a NULL-terminated string vector and its strings. NULL is a no-op. */
void util_strv_free(char **v);

/* Frees the first n strings of v, then v. NULL is a no-op. */
void util_strv_free_n(char **v, int n);

/* Milliseconds of wall-clock time since the Unix epoch. Every module reads
 * time through this so tests can replace it with util_set_clock(). */
typedef int64_t (*util_clock_cb)(void);
int64_t util_now_ms(void);
void util_set_clock(util_clock_cb clock);

/* Milliseconds from a monotonic clock, for durations and timers. */
int64_t util_mono_ms(void);

/* The largest value util_parse_int_list takes (--cpu, --load). */
#define UTIL_LIST_MAX (1 << 20)

/* Parses a comma-separated list of positive integers ("1,2,4"), each at
 * most UTIL_LIST_MAX, into a new array (caller frees) and its length.
 * Returns 0 or -EINVAL. */
int util_parse_int_list(const char *s, int **out, int *n);

/* Writes len bytes to path atomically: a temporary file beside it, fsync,
 * then rename. Returns 0 or a negative errno. */
int util_write_file_atomic(const char *path, const char *data, size_t len);

/* The same without the fsync: readers still see the old file or the new
 * one whole, but an operating system crash may lose the new one. For a
 * file rewritten often from a record kept elsewhere. */
int util_write_file_replace(const char *path, const char *data, size_t len);

/* util_write_file_replace of the n pieces at iov, one after the other. */
struct iovec;
int util_write_file_replacev(const char *path, const struct iovec *iov, int n);

/* Reads a whole file into a new NUL-terminated buffer (caller frees) and
 * its length. Returns 0 or a negative errno. max caps the size (bytes). */
int util_read_file(const char *path, size_t max, char **out, size_t *len);

/* util_read_file of a regular file only: O_NONBLOCK keeps open() from
 * waiting on a FIFO, and anything but a regular file is -EINVAL. */
int util_read_regular(const char *path, size_t max, char **out, size_t *len);

/* A number that changes when the file at path is rewritten: its mtime in
 * ns and its size. -1 when it cannot be stat()ed. */
int64_t util_file_signature(const char *path);

/* Locks the file at path for a read-modify-write cycle that replaces it
 * by rename. path's symbolic links are followed to the file they lead to,
 * which need not exist yet: *target (caller frees) is its path, the one to
 * give util_write_file_atomic so the links stay links, and the lock
 * (LOCK_EX, waiting for it) is on its directory, so that writers through
 * different links to one file never lose each other's changes. Returns the
 * descriptor to close for unlocking, or a negative errno (-ELOOP for more
 * than 40 links). */
int util_lock_file(const char *path, char **target);

/* util_read_file on an open descriptor, read to its end; fd stays open. */
int util_read_fd(int fd, size_t max, char **out, size_t *len);
/* The same from the start of fd with pread(2), for a file kept open and
 * read again (a /proc file is made anew): a read shorter than asked is
 * taken as the end, which holds for regular files and for /proc's files,
 * which fill a read unless they are at their end. */
int util_pread_whole(int fd, size_t max, char **out, size_t *len);

/* Creates dir and its parents (mode 0755). Returns 0 or a negative errno. */
int util_mkdir_p(const char *dir);

/* Removes path recursively. Returns 0 or a negative errno. */
int util_rm_rf(const char *path);

/* v (>= 0) rounded to three significant digits, for p-values in JSON. */
double util_round3(double v);

#endif
