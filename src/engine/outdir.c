/* SPDX-License-Identifier: MIT */
/*
 * outdir.c: a sweep's output directory before anything is written in it.
 * The default one, flakesweep-out/TIMESTAMP, lies in the directory the
 * sweep started from, often the repository it sweeps: a .gitignore there
 * (as pytest writes in .pytest_cache) keeps the test binaries, logs and
 * journals out of a `git add -A`.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/outdir.h"
#include "base/gettext.h"
#include "base/util.h"

#define OUTDIR_NAME "flakesweep-out"

char *
outdir_default(void)
{
	char stamp[32];
	time_t t = (time_t)(util_now_ms() / 1000);
	struct tm tm;

	localtime_r(&t, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm);
	return outdir_named(stamp);
}

char *
outdir_named(const char *name)
{
	return xasprintf(OUTDIR_NAME "/%s", name);
}

/* The sweep writes and removes files in its output directory (DESIGN
 * section 9), and must never do that among someone else's files. */
int
outdir_check_new(const char *outdir, char **err)
{
	struct stat st;
	struct dirent *de;
	DIR *d;
	bool empty = true;

	if (lstat(outdir, &st) < 0) {
		if (errno == ENOENT)
			return 0;
		*err = xasprintf("%s: %s", outdir, strerror(errno));
		return -1;
	}
	if (!S_ISDIR(st.st_mode)) {
		*err = xasprintf(_("%s exists and is not a directory: choose another -o"), outdir);
		return -1;
	}
	d = opendir(outdir);
	if (d == NULL) {
		*err = xasprintf("%s: %s", outdir, strerror(errno));
		return -1;
	}
	while (empty && (de = readdir(d)) != NULL)
		empty = strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0;
	closedir(d);
	if (!empty) {
		*err =
		    xasprintf(_("%s is not empty and holds no sweep (no journal.jsonl): choose a "
		                "new or empty directory with -o"),
		              outdir);
		return -1;
	}
	return 0;
}

void
outdir_ignore(const char *dir)
{
	static const char text[] = "# Written by flakesweep: its output is no part of the "
	                           "repository.\n*\n";
	const char *p = dir, *top = NULL;
	size_t n = strlen(OUTDIR_NAME);
	char *path;
	int fd;

	while ((p = strstr(p, "/" OUTDIR_NAME)) != NULL) {
		if (p[n + 1] == '/' || p[n + 1] == '\0')
			top = p;
		p += n + 1;
	}
	if (top == NULL)
		return;
	path = xasprintf("%.*s/.gitignore", (int)(top - dir) + (int)n + 1, dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd >= 0) {
		if (write(fd, text, sizeof text - 1) != (ssize_t)(sizeof text - 1))
			unlink(path);
		close(fd);
	}
	free(path);
}

int
outdir_missing(const char *path)
{
	char *p = xstrdup(path), *slash;
	int n = 0;

	while (p[0] != '\0' && access(p, F_OK) < 0 && errno == ENOENT) {
		n++;
		slash = strrchr(p, '/');
		if (slash == NULL || slash == p)
			break;
		*slash = '\0';
	}
	free(p);
	return n;
}

void
outdir_undo(const char *outdir, int made)
{
	static const char *const inside[] = {"runs", "bin", "tmp"};
	char *path = xasprintf("%s/journal.jsonl", outdir), *slash;
	size_t i;
	int n;

	unlink(path);
	free(path);
	for (i = 0; i < UTIL_ARRAY_LEN(inside); i++) {
		path = xasprintf("%s/%s", outdir, inside[i]);
		rmdir(path);
		free(path);
	}
	path = xstrdup(outdir);
	for (n = 0; n < made; n++) {
		slash = strrchr(path, '/');
		if (slash != NULL && strcmp(slash + 1, OUTDIR_NAME) == 0) {
			char *ignore = xasprintf("%s/.gitignore", path);

			unlink(ignore);
			free(ignore);
		}
		if (rmdir(path) < 0 || slash == NULL || slash == path)
			break;
		*slash = '\0';
	}
	free(path);
}
