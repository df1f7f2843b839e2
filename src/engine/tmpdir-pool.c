/* SPDX-License-Identifier: MIT */
/*
 * tmpdir-pool.c: the runs' TMPDIRs without a mkdir and an rmdir each. Most
 * runs leave their TMPDIR empty; such a directory is renamed to a hidden
 * idle name beside the others and, renamed again, becomes the next run's
 * TMPDIR. On ext4 two renames cost a tenth of a mkdir and an rmdir (which
 * frees and truncates an inode each time). A directory the run changed in
 * any way this module can see (an entry, its mode, its type) is never
 * reused: the caller removes it or keeps it. It never removes anything but
 * its own idle, empty directories (and those a killed sweep left).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "engine/tmpdir-pool.h"
#include "base/util.h"

#define TMPDIR_POOL_MODE 0755

struct tmpdir_pool {
	char *dir;
	char **idle; /* empty directories in dir, ready to be renamed */
	size_t nidle, cap;
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
		rmdir(p->idle[i]);
		free(p->idle[i]);
	}
	free(p->idle);
	free(p->dir);
	free(p);
}

int
tmpdir_pool_take(struct tmpdir_pool *p, const char *path)
{
	while (p->nidle > 0) {
		char *idle = p->idle[--p->nidle];
		int rc = rename(idle, path);

		if (rc < 0)
			rmdir(idle);
		free(idle);
		if (rc == 0)
			return 0;
	}
	return util_mkdir_p(path);
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

bool
tmpdir_pool_give(struct tmpdir_pool *p, const char *path)
{
	struct stat st;
	char *idle;
	bool ok;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	if (fd < 0)
		return false;
	ok = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == p->uid &&
	     (st.st_mode & 07777) == p->mode && tmpdir_pool_empty(fd);
	close(fd);
	if (!ok)
		return false;
	idle = xasprintf("%s/.idle-%u", p->dir, p->next++);
	if (rename(path, idle) < 0) {
		free(idle);
		return false;
	}
	if (p->nidle == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->idle = xrealloc(p->idle, sizeof *p->idle * p->cap);
	}
	p->idle[p->nidle++] = idle;
	return true;
}
