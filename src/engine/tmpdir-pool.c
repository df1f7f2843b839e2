/* SPDX-License-Identifier: MIT */
/*
 * tmpdir-pool.c: the runs' TMPDIRs without a mkdir and an rmdir each. Most
 * runs leave their TMPDIR empty; such a directory becomes the next run's
 * TMPDIR by a rename. One the next run does not take in the same turn of
 * the loop (tmpdir_pool_settle) waits under a hidden idle name beside the
 * others; one it does is renamed once, straight to the next run's name. On
 * ext4 a rename costs a ninth of a mkdir and an rmdir (which frees and
 * truncates an inode each time). A directory the run changed in
 * any way this module can see (an entry, its mode, its type) is never
 * reused: the caller removes it or keeps it. It never removes anything but
 * its own idle, empty directories (and those a killed sweep left).
 *
 * Whether a directory came back empty costs an open, a listing and a close,
 * unless its stamps say so: a directory whose mtime lay well before the
 * clock (a file system's granularity apart) when it was found empty, and
 * whose mtime and ctime are when it comes back what they were when it was
 * lent (read after the rename), with its inode, mode and links, had no
 * entry made or removed in it meanwhile (each would have stamped a later
 * mtime) and no stamp set back (which stamps the ctime), so one lstat
 * tells. A new directory's mtime is set back that far at once, so that
 * its first return is judged by its stamps too.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/tmpdir-pool.h"
#include "base/util.h"

#define TMPDIR_POOL_MODE 0755
/* A file system stamps a change at least its granularity (up to 2 s, FAT)
 * before the time it happened. */
#define TMPDIR_POOL_STAMP_SLACK_S 2
/* Stamped directories remembered under a run's name: more than runs in
 * flight, since a failed run's TMPDIR is kept and never comes back; past
 * this the oldest is forgotten (and, should it come back, listed). */
#define TMPDIR_POOL_LENT_MAX 512

/* An empty directory, as it was when found empty; stamped when its mtime
 * lay well before the clock then. */
struct tmpdir_pool_dir {
	char *path;
	struct stat st;
	bool stamped;
	bool named; /* still under the name of the run that gave it back */
};

struct tmpdir_pool {
	char *dir;
	struct tmpdir_pool_dir *idle; /* empty directories in dir, ready to be renamed */
	size_t nidle, cap;
	size_t nnamed;                /* of them, those still under a run's name */
	struct tmpdir_pool_dir *lent; /* stamped ones under a run's name */
	size_t nlent, lent_cap;
	unsigned next; /* the next idle name's number */
	mode_t mode;   /* a new directory's, after the umask */
	uid_t uid;
};

struct tmpdir_pool *
tmpdir_pool_new(const char *dir)
{
	struct tmpdir_pool *p = xcalloc(1, sizeof *p);
	mode_t mask = umask(0);
	DIR *d = opendir(dir);
	struct dirent *e;

	umask(mask);
	/* Idle ones a sweep killed on the spot left (a resume finds them):
	 * empty, so rmdir takes them and nothing else. */
	while (d != NULL && (e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, ".idle-", 6) == 0)
			unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
	}
	if (d != NULL)
		closedir(d);
	p->dir = xstrdup(dir);
	p->mode = TMPDIR_POOL_MODE & ~mask;
	p->uid = geteuid();
	return p;
}

void
tmpdir_pool_free(struct tmpdir_pool *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nidle; i++) {
		rmdir(p->idle[i].path);
		free(p->idle[i].path);
	}
	for (i = 0; i < p->nlent; i++)
		free(p->lent[i].path);
	free(p->idle);
	free(p->lent);
	free(p->dir);
	free(p);
}

/* Remembers the stamped directory d, just renamed to path, as it is now,
 * the newest last. */
static void
tmpdir_pool_lend(struct tmpdir_pool *p, struct tmpdir_pool_dir *d, const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0 || st.st_ino != d->st.st_ino ||
	    st.st_mtim.tv_sec != d->st.st_mtim.tv_sec ||
	    st.st_mtim.tv_nsec != d->st.st_mtim.tv_nsec)
		return;
	d->st = st;
	if (p->nlent == TMPDIR_POOL_LENT_MAX) {
		free(p->lent[0].path);
		memmove(p->lent, p->lent + 1, sizeof *p->lent * --p->nlent);
	}
	if (p->nlent == p->lent_cap) {
		p->lent_cap = p->lent_cap ? 2 * p->lent_cap : 8;
		p->lent = xrealloc(p->lent, sizeof *p->lent * p->lent_cap);
	}
	d->path = xstrdup(path);
	p->lent[p->nlent++] = *d;
}

/* Makes path a new directory whose mtime lies well before the clock: any
 * entry made or removed in it stamps a later one. */
static int
tmpdir_pool_make(const char *path)
{
	struct timespec t[2] = {{0, UTIME_OMIT}, {0, 0}};
	int rc = util_mkdir_p(path);

	if (rc == 0 && clock_gettime(CLOCK_REALTIME_COARSE, &t[1]) == 0) {
		t[1].tv_sec -= TMPDIR_POOL_STAMP_SLACK_S + 1;
		t[1].tv_nsec = 0;
		utimensat(AT_FDCWD, path, t, AT_SYMLINK_NOFOLLOW);
	}
	return rc;
}

int
tmpdir_pool_take(struct tmpdir_pool *p, const char *path)
{
	while (p->nidle > 0) {
		struct tmpdir_pool_dir d = p->idle[--p->nidle];
		int rc = rename(d.path, path);

		if (d.named)
			p->nnamed--;
		if (rc < 0)
			rmdir(d.path);
		free(d.path);
		if (rc == 0) {
			if (d.stamped)
				tmpdir_pool_lend(p, &d, path);
			return 0;
		}
	}
	return tmpdir_pool_make(path);
}

/* Whether the directory open as fd has no entry but "." and "..". */
static bool
tmpdir_pool_empty(int fd)
{
	char buf[1024];
	ssize_t n;

	while ((n = getdents64(fd, buf, sizeof buf)) > 0) {
		ssize_t off = 0;

		while (off < n) {
			const struct dirent64 *d = (const struct dirent64 *)(buf + off);

			if (strcmp(d->d_name, ".") != 0 && strcmp(d->d_name, "..") != 0)
				return false;
			off += d->d_reclen;
		}
	}
	return n == 0;
}

/* Whether path is the stamped directory lent under that name, unchanged:
 * then it is empty. It is no longer lent either way. */
static bool
tmpdir_pool_unchanged(struct tmpdir_pool *p, const char *path, struct stat *st)
{
	struct tmpdir_pool_dir d;
	size_t i = p->nlent;

	while (i > 0 && strcmp(p->lent[i - 1].path, path) != 0)
		i--;
	if (i-- == 0)
		return false;
	d = p->lent[i];
	memmove(p->lent + i, p->lent + i + 1, sizeof *p->lent * (--p->nlent - i));
	free(d.path);
	return lstat(path, st) == 0 && S_ISDIR(st->st_mode) && st->st_ino == d.st.st_ino &&
	       st->st_dev == d.st.st_dev && st->st_mode == d.st.st_mode &&
	       st->st_uid == d.st.st_uid && st->st_nlink == d.st.st_nlink &&
	       st->st_mtim.tv_sec == d.st.st_mtim.tv_sec &&
	       st->st_mtim.tv_nsec == d.st.st_mtim.tv_nsec &&
	       st->st_ctim.tv_sec == d.st.st_ctim.tv_sec &&
	       st->st_ctim.tv_nsec == d.st.st_ctim.tv_nsec;
}

/* Whether path is a real, empty directory of the pool's mode and owner,
 * read as st. */
static bool
tmpdir_pool_listed_empty(const struct tmpdir_pool *p, const char *path, struct stat *st)
{
	bool ok;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return false;
	ok = fstat(fd, st) == 0 && S_ISDIR(st->st_mode) && st->st_uid == p->uid &&
	     (st->st_mode & 07777) == p->mode && tmpdir_pool_empty(fd);
	close(fd);
	return ok;
}

bool
tmpdir_pool_give(struct tmpdir_pool *p, const char *path)
{
	struct tmpdir_pool_dir d;
	struct timespec now;

	d.stamped = tmpdir_pool_unchanged(p, path, &d.st);
	if (!d.stamped) {
		if (!tmpdir_pool_listed_empty(p, path, &d.st))
			return false;
		d.stamped = clock_gettime(CLOCK_REALTIME_COARSE, &now) == 0 &&
		            d.st.st_mtim.tv_sec + TMPDIR_POOL_STAMP_SLACK_S < now.tv_sec;
	}
	d.path = xstrdup(path);
	d.named = true;
	p->nnamed++;
	if (p->nidle == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->idle = xrealloc(p->idle, sizeof *p->idle * p->cap);
	}
	p->idle[p->nidle++] = d;
	return true;
}

void
tmpdir_pool_settle(struct tmpdir_pool *p)
{
	size_t i, keep = 0;

	if (p->nnamed == 0)
		return;
	p->nnamed = 0;
	for (i = 0; i < p->nidle; i++) {
		struct tmpdir_pool_dir d = p->idle[i];
		char *idle;

		if (d.named) {
			idle = xasprintf("%s/.idle-%u", p->dir, p->next++);
			if (rename(d.path, idle) < 0) {
				rmdir(d.path);
				free(idle);
				free(d.path);
				continue;
			}
			free(d.path);
			d.path = idle;
			d.named = false;
		}
		p->idle[keep++] = d;
	}
	p->nidle = keep;
}
