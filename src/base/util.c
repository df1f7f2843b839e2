/* SPDX-License-Identifier: MIT */
/*
 * util.c: allocation, fatal errors, buffers, the clock, durations and small
 * file helpers shared by every module. It holds no state except the fatal
 * hook and the replaceable clock.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"

static util_fatal_hook_cb fatal_hook;
static util_clock_cb clock_override;

void
util_set_fatal_hook(util_fatal_hook_cb hook)
{
	fatal_hook = hook;
}

void
fatal(const char *fmt, ...)
{
	va_list ap;

	if (fatal_hook != NULL)
		fatal_hook();
	fputs("flakesweep: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(2);
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (p == NULL)
		fatal("%s", _("out of memory"));
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (p == NULL)
		fatal("%s", _("out of memory"));
	return p;
}

void *
xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (p == NULL)
		fatal("%s", _("out of memory"));
	return p;
}

void *
xgrow(void *p, size_t n, size_t size)
{
	if (n == 0 || (n & (n - 1)) == 0)
		p = xrealloc(p, size * (n == 0 ? 1 : 2 * n));
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	struct buf b;

	buf_init(&b);
	buf_vprintf(&b, fmt, ap);
	return buf_steal(&b);
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}

void
buf_init(struct buf *b)
{
	b->data = NULL;
	b->len = 0;
	b->cap = 0;
}

void
buf_free(struct buf *b)
{
	free(b->data);
	buf_init(b);
}

void
buf_reset(struct buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

void
buf_reserve(struct buf *b, size_t extra)
{
	size_t need = b->len + extra + 1;

	if (need <= b->cap)
		return;
	if (b->cap == 0)
		b->cap = 64;
	while (b->cap < need)
		b->cap *= 2;
	b->data = xrealloc(b->data, b->cap);
}

void
buf_add(struct buf *b, const void *data, size_t len)
{
	buf_reserve(b, len);
	if (len > 0)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void
buf_adds(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
	va_list copy;
	int n;

	va_copy(copy, ap);
	n = vsnprintf(NULL, 0, fmt, copy);
	va_end(copy);
	if (n < 0)
		fatal("%s", _("bad format string"));
	buf_reserve(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

char *
buf_steal(struct buf *b)
{
	char *p;

	if (b->data == NULL)
		return xstrdup("");
	p = b->data;
	buf_init(b);
	return p;
}

void
util_strv_add(char ***v, size_t *n, const char *s)
{
	*v = xrealloc(*v, sizeof **v * (*n + 2));
	(*v)[(*n)++] = xstrdup(s);
	(*v)[*n] = NULL;
}

void
util_strv_free(char **v)
{
	size_t i;

	for (i = 0; v != NULL && v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

void
util_strv_free_n(char **v, int n)
{
	int i;

	for (i = 0; v != NULL && i < n; i++)
		free(v[i]);
	free(v);
}

int64_t
util_now_ms(void)
{
	struct timespec ts;

	if (clock_override != NULL)
		return clock_override();
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void
util_set_clock(util_clock_cb clock)
{
	clock_override = clock;
}

int64_t
util_mono_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int
util_parse_int_list(const char *s, int **out, int *n)
{
	int *v = NULL, count = 0;
	const char *p = s;

	if (s == NULL || *s == '\0')
		return -EINVAL;
	for (;;) {
		char *end;
		long x;

		if (*p < '0' || *p > '9')
			goto bad;
		errno = 0;
		x = strtol(p, &end, 10);
		if (errno != 0 || x <= 0 || x > UTIL_LIST_MAX)
			goto bad;
		v = xrealloc(v, sizeof *v * (size_t)(count + 1));
		v[count++] = (int)x;
		p = end;
		if (*p == '\0')
			break;
		if (*p != ',')
			goto bad;
		p++;
	}
	*out = v;
	*n = count;
	return 0;
bad:
	free(v);
	return -EINVAL;
}

/* The most pieces one writev takes (IOV_MAX on Linux). */
#define UTIL_WRITEV_MAX 1024

static int
util_write_file_tmp(const char *path, const struct iovec *iov, int n, bool sync)
{
	char *tmp = xasprintf("%s.tmp.%ld", path, (long)getpid());
	struct iovec *v = xcalloc((size_t)n + 1, sizeof *v);
	int fd, i = 0, rc = 0;

	memcpy(v, iov, sizeof *v * (size_t)n);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		rc = -errno;
		goto out;
	}
	while (i < n) {
		ssize_t w = writev(fd, v + i, n - i < UTIL_WRITEV_MAX ? n - i : UTIL_WRITEV_MAX);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			close(fd);
			unlink(tmp);
			goto out;
		}
		/* Past the pieces written whole, into the one cut short. */
		for (; i < n && (size_t)w >= v[i].iov_len; i++)
			w -= (ssize_t)v[i].iov_len;
		if (i < n) {
			v[i].iov_base = (char *)v[i].iov_base + w;
			v[i].iov_len -= (size_t)w;
		}
	}
	if ((sync && fsync(fd) < 0) || close(fd) < 0) {
		rc = -errno;
		unlink(tmp);
		goto out;
	}
	if (rename(tmp, path) < 0) {
		rc = -errno;
		unlink(tmp);
	}
out:
	free(v);
	free(tmp);
	return rc;
}

int
util_write_file_atomic(const char *path, const char *data, size_t len)
{
	struct iovec v = {(void *)data, len};

	return util_write_file_tmp(path, &v, 1, true);
}

int
util_write_file_replace(const char *path, const char *data, size_t len)
{
	struct iovec v = {(void *)data, len};

	return util_write_file_tmp(path, &v, 1, false);
}

int
util_write_file_replacev(const char *path, const struct iovec *iov, int n)
{
	return util_write_file_tmp(path, iov, n, false);
}

int
util_read_file(const char *path, size_t max, char **out, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = util_read_fd(fd, max, out, len);
	close(fd);
	return rc;
}

int
util_read_regular(const char *path, size_t max, char **out, size_t *len)
{
	struct stat st;
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY), rc;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		rc = -errno;
	else if (!S_ISREG(st.st_mode))
		rc = -EINVAL;
	else
		rc = util_read_fd(fd, max, out, len);
	close(fd);
	return rc;
}

/* util_read_fd from where fd stands (at < 0) or util_pread_whole from at:
 * a pread shorter than asked ends it. */
static int
util_read_from(int fd, off_t at, size_t max, char **out, size_t *len)
{
	struct buf b;
	char chunk[65536];
	int rc = 0;

	buf_init(&b);
	for (;;) {
		ssize_t r =
		    at < 0 ? read(fd, chunk, sizeof chunk) : pread(fd, chunk, sizeof chunk, at);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			rc = -errno;
			break;
		}
		if (r == 0)
			break;
		if (b.len + (size_t)r > max) {
			rc = -EFBIG;
			break;
		}
		buf_add(&b, chunk, (size_t)r);
		if (at >= 0) {
			at += r;
			if ((size_t)r < sizeof chunk)
				break;
		}
	}
	if (rc < 0) {
		buf_free(&b);
		return rc;
	}
	if (len != NULL)
		*len = b.len;
	*out = buf_steal(&b);
	return 0;
}

int
util_read_fd(int fd, size_t max, char **out, size_t *len)
{
	return util_read_from(fd, -1, max, out, len);
}

int
util_pread_whole(int fd, size_t max, char **out, size_t *len)
{
	return util_read_from(fd, 0, max, out, len);
}

int64_t
util_file_signature(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	/* The size is weighed so a same-nanosecond rewrite of another length
	 * still changes the sum. */
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec + st.st_size * 7919;
}

int
util_mkdir_p(const char *dir)
{
	char *p, *s;
	int rc = 0;

	/* Usually only the last component is missing (a run's TMPDIR): one
	 * mkdir, not one for each component. */
	if (mkdir(dir, 0755) == 0 || errno == EEXIST)
		return 0;
	p = xstrdup(dir);
	for (s = p + 1; *s != '\0'; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			rc = -errno;
			goto out;
		}
		*s = '/';
	}
	if (mkdir(p, 0755) < 0 && errno != EEXIST)
		rc = -errno;
out:
	free(p);
	return rc;
}

static int
util_rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

int
util_rm_rf(const char *path)
{
	/* Most run directories are left empty: one rmdir is enough. */
	if (rmdir(path) == 0 || errno == ENOENT)
		return 0;
	if (nftw(path, util_rm_one, 16, FTW_DEPTH | FTW_PHYS) < 0)
		return errno == ENOENT ? 0 : -errno;
	return 0;
}

/* The most symbolic links util_lock_file follows (Linux's MAXSYMLINKS). */
#define UTIL_LINKS_MAX 40

/* The file path's symbolic links lead to (it need not exist), new; a
 * relative link is read from the directory of the link. NULL with errno
 * set when a link cannot be read or there are more than UTIL_LINKS_MAX. */
static char *
util_follow_links(const char *path)
{
	char *cur = xstrdup(path);
	int hops;

	for (hops = 0; hops <= UTIL_LINKS_MAX; hops++) {
		struct stat st;
		char to[PATH_MAX], *next;
		const char *slash;
		ssize_t n;

		/* Not a link (or not there): the file itself. */
		if (lstat(cur, &st) < 0 || !S_ISLNK(st.st_mode))
			return cur;
		n = readlink(cur, to, sizeof to);
		if (n < 0 || (size_t)n >= sizeof to) {
			if (n >= 0)
				errno = ENAMETOOLONG;
			free(cur);
			return NULL;
		}
		to[n] = '\0';
		slash = strrchr(cur, '/');
		next = to[0] == '/' || slash == NULL
		           ? xstrdup(to)
		           : xasprintf("%.*s/%s", (int)(slash - cur), cur, to);
		free(cur);
		cur = next;
	}
	free(cur);
	errno = ELOOP;
	return NULL;
}

int
util_lock_file(const char *path, char **target)
{
	char *file, *dir, *again;
	const char *slash;
	int fd;

	*target = NULL;
	file = util_follow_links(path);
	if (file == NULL)
		return -errno;
	slash = strrchr(file, '/');
	dir = slash == NULL   ? xstrdup(".")
	      : slash == file ? xstrdup("/")
	                      : xstrndup(file, (size_t)(slash - file));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0 || flock(fd, LOCK_EX) < 0) {
		int rc = -errno;

		if (fd >= 0)
			close(fd);
		free(file);
		return rc;
	}
	/* A link changed while this waited for the lock: lock where it
	 * leads now. */
	again = util_follow_links(path);
	if (again == NULL || strcmp(again, file) != 0) {
		free(again);
		free(file);
		close(fd);
		return util_lock_file(path, target);
	}
	free(again);
	*target = file;
	return fd;
}

void
util_feed_lines(struct buf *line, size_t max, const char *data, size_t len,
                void (*fn)(void *arg, const char *s, size_t n), void *arg)
{
	while (len > 0) {
		const char *nl = memchr(data, '\n', len);
		size_t k = nl != NULL ? (size_t)(nl - data) : len;
		size_t room = line->len < max ? max - line->len : 0;

		buf_add(line, data, k < room ? k : room);
		if (nl == NULL)
			return;
		fn(arg, line->data != NULL ? line->data : "", line->len);
		buf_reset(line);
		data += k + 1;
		len -= k + 1;
	}
}

double
util_round3(double v)
{
	double unit;

	if (v <= 0)
		return 0;
	unit = pow(10, floor(log10(v)) - 2);
	return round(v / unit) * unit;
}
