/* SPDX-License-Identifier: MIT */
/*
 * workdir.c: private copies of a package's directory (--private-workdir)
 * and the watch that finds debris runs leave in the shared one. It copies
 * and lists directories; it never runs or kills anything, and it never
 * removes what a run left in the shared directory: that is the user's.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/gettext.h"
#include "base/util.h"
#include "engine/workdir.h"

#define WORKDIR_MAX_DEPTH 64

/* Copies the regular file src (of stat st) to dst: a reflink, else bytes
 * (copy_file_range, then read and write), else for a big file a link. */
static int
workdir_copy_file(const char *src, const char *dst, const struct stat *st)
{
	int in = -1, out = -1, rc = 0;
	char chunk[65536];
	ssize_t n;

	in = open(src, O_RDONLY | O_CLOEXEC);
	if (in < 0) {
		rc = -errno;
		goto out;
	}
	out = open(dst, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (out < 0) {
		rc = -errno;
		goto out;
	}
	if (ioctl(out, FICLONE, in) == 0)
		goto mode;
	if (st->st_size > WORKDIR_COPY_MAX) {
		close(out);
		out = -1;
		if (unlink(dst) < 0 || symlink(src, dst) < 0)
			rc = -errno;
		goto out;
	}
	while ((n = copy_file_range(in, NULL, out, NULL, (size_t)WORKDIR_COPY_MAX, 0)) > 0)
		;
	if (n < 0 && errno != EXDEV && errno != ENOSYS && errno != EINVAL && errno != EOPNOTSUPP) {
		rc = -errno;
		goto out;
	}
	if (n < 0) {
		/* Those filesystems cannot: plain reads and writes, from the
		 * start again. */
		if (lseek(in, 0, SEEK_SET) < 0 || lseek(out, 0, SEEK_SET) < 0 ||
		    ftruncate(out, 0) < 0) {
			rc = -errno;
			goto out;
		}
		while ((n = read(in, chunk, sizeof chunk)) > 0) {
			if (write(out, chunk, (size_t)n) != n) {
				rc = errno != 0 ? -errno : -EIO;
				goto out;
			}
		}
		if (n < 0) {
			rc = -errno;
			goto out;
		}
	}
mode:
	if (fchmod(out, st->st_mode & 07777) < 0)
		rc = -errno;
out:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return rc;
}

static int
workdir_copy_dir(const char *src, const char *dst, const struct stat *skip, int depth, char **err)
{
	DIR *d;
	struct dirent *e;
	int rc = 0;

	if (depth > WORKDIR_MAX_DEPTH)
		return 0;
	d = opendir(src);
	if (d == NULL) {
		rc = -errno;
		*err = xasprintf(_("cannot read %s: %s"), src, strerror(-rc));
		return rc;
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		char *from, *to, target[PATH_MAX];
		struct stat st;
		ssize_t n;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		from = xasprintf("%s/%s", src, e->d_name);
		to = xasprintf("%s/%s", dst, e->d_name);
		if (lstat(from, &st) < 0) {
			rc = errno == ENOENT ? 0 : -errno;
		} else if (S_ISDIR(st.st_mode)) {
			if (skip != NULL && st.st_dev == skip->st_dev && st.st_ino == skip->st_ino)
				; /* the output directory */
			else if (strcmp(e->d_name, ".git") == 0)
				rc = symlink(from, to) < 0 ? -errno : 0;
			else if (mkdir(to, (st.st_mode & 07777) | 0700) < 0)
				rc = -errno;
			else
				rc = workdir_copy_dir(from, to, skip, depth + 1, err);
		} else if (S_ISREG(st.st_mode)) {
			rc = workdir_copy_file(from, to, &st);
		} else if (S_ISLNK(st.st_mode)) {
			n = readlink(from, target, sizeof target - 1);
			if (n < 0) {
				rc = -errno;
			} else {
				target[n] = '\0';
				rc = symlink(target, to) < 0 ? -errno : 0;
			}
		}
		if (rc < 0 && *err == NULL)
			*err = xasprintf(_("cannot copy %s to %s: %s"), from, to, strerror(-rc));
		free(from);
		free(to);
	}
	closedir(d);
	return rc;
}

int
workdir_copy(const char *src, const char *dst, const char *skip, char **err)
{
	struct stat sk;
	int rc;

	*err = NULL;
	rc = util_mkdir_p(dst);
	if (rc < 0) {
		*err = xasprintf(_("cannot create %s: %s"), dst, strerror(-rc));
		return rc;
	}
	return workdir_copy_dir(src, dst, skip != NULL && stat(skip, &sk) == 0 ? &sk : NULL, 0,
	                        err);
}

struct workdir_candidate {
	char *name;
	int64_t seen;    /* the run after which it was first seen */
	int64_t horizon; /* the newest run started then */
	bool debris;
};

struct workdir_watch {
	char *dir;
	char **before; /* sorted */
	size_t nbefore;
	char **now; /* the last listing, sorted */
	size_t nnow;
	struct stat listed; /* the directory as it was when listed */
	bool trusted;       /* an unchanged mtime means an unchanged listing */
	struct workdir_candidate *cands;
	size_t ncands;
	bool dirty;
};

/* A file system stamps a change at least its granularity (up to 2 s, FAT)
 * before the time it happened. */
#define WORKDIR_STAMP_SLACK_S 2

static int
workdir_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The entries of dir that may be debris, sorted; *n of them. */
static char **
workdir_list(const char *dir, size_t *n)
{
	static const char *const own[] = {".", "..", "__pycache__", ".pytest_cache"};
	char **v = NULL;
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t i;

	*n = 0;
	while (d != NULL && (e = readdir(d)) != NULL) {
		for (i = 0; i < UTIL_ARRAY_LEN(own) && strcmp(e->d_name, own[i]) != 0; i++)
			;
		if (i == UTIL_ARRAY_LEN(own))
			util_strv_add(&v, n, e->d_name);
	}
	if (d != NULL)
		closedir(d);
	if (*n > 1)
		qsort(v, *n, sizeof *v, workdir_cmp);
	return v;
}

struct workdir_watch *
workdir_watch_new(const char *dir)
{
	struct workdir_watch *w = xcalloc(1, sizeof *w);

	w->dir = xstrdup(dir);
	w->before = workdir_list(dir, &w->nbefore);
	return w;
}

static bool
workdir_has(char **v, size_t n, const char *name)
{
	return n > 0 && bsearch(&name, v, n, sizeof *v, workdir_cmp) != NULL;
}

/* The watched directory's entries, listed again only when its mtime
 * changed: a change made after a listing stamps a time after the coarse
 * clock read before it, so a directory whose mtime lies well before that
 * clock (its granularity apart) has not changed while its mtime stays. */
static void
workdir_watch_list(struct workdir_watch *w)
{
	struct timespec coarse;
	struct stat st;
	bool ok;

	ok = clock_gettime(CLOCK_REALTIME_COARSE, &coarse) == 0 && stat(w->dir, &st) == 0;
	if (ok && w->trusted && st.st_ino == w->listed.st_ino && st.st_dev == w->listed.st_dev &&
	    st.st_mtim.tv_sec == w->listed.st_mtim.tv_sec &&
	    st.st_mtim.tv_nsec == w->listed.st_mtim.tv_nsec)
		return;
	util_strv_free_n(w->now, (int)w->nnow);
	w->now = workdir_list(w->dir, &w->nnow);
	if (ok)
		w->listed = st;
	w->trusted = ok && st.st_mtim.tv_sec + WORKDIR_STAMP_SLACK_S < coarse.tv_sec;
}

struct workdir_debris *
workdir_watch_scan(struct workdir_watch *w, int64_t run, int64_t live_min, int64_t newest,
                   size_t *n)
{
	struct workdir_debris *found = NULL;
	size_t nnow, i, j, keep = 0;
	char **now;

	workdir_watch_list(w);
	now = w->now;
	nnow = w->nnow;
	*n = 0;
	/* Candidates gone before they were debris were a live run's own. */
	for (i = 0; i < w->ncands; i++) {
		struct workdir_candidate *c = &w->cands[i];

		if (c->debris || workdir_has(now, nnow, c->name))
			w->cands[keep++] = *c;
		else
			free(c->name);
	}
	w->ncands = keep;
	for (i = 0; i < nnow; i++) {
		if (workdir_has(w->before, w->nbefore, now[i]))
			continue;
		for (j = 0; j < w->ncands && strcmp(w->cands[j].name, now[i]) != 0; j++)
			;
		if (j == w->ncands) {
			w->cands = xrealloc(w->cands, sizeof *w->cands * (w->ncands + 1));
			w->cands[j].name = xstrdup(now[i]);
			w->cands[j].seen = run;
			w->cands[j].horizon = newest;
			w->cands[j].debris = false;
			w->ncands++;
		}
	}
	w->dirty = false;
	for (i = 0; i < w->ncands; i++) {
		struct workdir_candidate *c = &w->cands[i];

		if (!c->debris && live_min > c->horizon) {
			c->debris = true;
			found = xrealloc(found, sizeof *found * (*n + 1));
			found[*n].path = xstrdup(c->name);
			found[*n].run = c->seen;
			(*n)++;
		}
		if (c->debris && workdir_has(now, nnow, c->name))
			w->dirty = true;
	}
	return found;
}

bool
workdir_watch_dirty(const struct workdir_watch *w)
{
	return w->dirty;
}

void
workdir_watch_free(struct workdir_watch *w)
{
	size_t i;

	if (w == NULL)
		return;
	for (i = 0; i < w->ncands; i++)
		free(w->cands[i].name);
	free(w->cands);
	util_strv_free_n(w->before, (int)w->nbefore);
	util_strv_free_n(w->now, (int)w->nnow);
	free(w->dir);
	free(w);
}

void
workdir_debris_free(struct workdir_debris *d, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(d[i].path);
	free(d);
}
