/* SPDX-License-Identifier: MIT */
/*
 * datadir.c: the directory of flakesweep's data files and the path of its
 * helper programs, looked up from the running binary's own path
 * (datadir.h).
 */
#include "config.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/datadir.h"
#include "base/util.h"

/* The running binary's directory, or NULL. */
static char *
datadir_exe_dir(void)
{
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	slash = strrchr(self, '/');
	if (slash == NULL)
		return NULL;
	*slash = '\0';
	return xstrdup(self);
}

/* Whether dir holds file. */
static bool
datadir_has(const char *dir, const char *file)
{
	char *path = xasprintf("%s/%s", dir, file);
	bool ok = access(path, R_OK) == 0;

	free(path);
	return ok;
}

/* The source tree's data/ when exe is the build tree's directory, or NULL. */
static char *
datadir_build_tree(const char *exe)
{
	char *build = realpath(ABS_TOP_BUILDDIR, NULL), *src, *dir = NULL;

	if (build != NULL && strcmp(build, exe) == 0) {
		src = realpath(ABS_TOP_SRCDIR, NULL);
		if (src != NULL)
			dir = xasprintf("%s/data", src);
		free(src);
	}
	free(build);
	return dir;
}

/* dir moved as exe moved from bin: below their common prefix, the same
 * path under exe's. NULL when exe does not end as bin does. */
static char *
datadir_relocated(const char *exe, const char *bin, const char *dir)
{
	size_t common = 0, i, elen = strlen(exe), blen;

	for (i = 0; bin[i] != '\0' && bin[i] == dir[i]; i++) {
		if (bin[i] == '/')
			common = i;
	}
	if (bin[i] == '\0' && dir[i] == '/')
		common = i;
	blen = strlen(bin + common);
	if (elen < blen || strcmp(exe + elen - blen, bin + common) != 0)
		return NULL;
	return xasprintf("%.*s%s", (int)(elen - blen), exe, dir + common);
}

/* dir/name when it can be accessed with mode, else NULL; dir is taken. */
static char *
datadir_with(char *dir, const char *name, int mode)
{
	char *path = NULL;

	if (dir != NULL) {
		path = xasprintf("%s/%s", dir, name);
		if (access(path, mode) != 0) {
			free(path);
			path = NULL;
		}
	}
	free(dir);
	return path;
}

char *
datadir_libexec_in(const char *exe_dir, const char *bindir, const char *pkglibdir, const char *name,
                   int mode)
{
	char *bin = realpath(bindir, NULL), *path = datadir_with(xstrdup(exe_dir), name, mode);

	if (path == NULL)
		path = datadir_with(
		    datadir_relocated(exe_dir, bin != NULL ? bin : bindir, pkglibdir), name, mode);
	free(bin);
	return path;
}

char *
datadir_libexec(const char *name, int mode)
{
	char *exe = datadir_exe_dir(), *path = NULL;

	if (exe != NULL)
		path = datadir_libexec_in(exe, BINDIR, PKGLIBDIR, name, mode);
	free(exe);
	return path;
}

char *
datadir_find(const char *file)
{
	const char *env = getenv("FLAKESWEEP_DATADIR");
	char *exe, *dir = NULL;

	if (env != NULL && *env != '\0')
		return xstrdup(env);
	exe = datadir_exe_dir();
	if (exe != NULL) {
		dir = datadir_build_tree(exe);
		if (dir == NULL || !datadir_has(dir, file)) {
			free(dir);
			dir = datadir_relocated(exe, BINDIR, DATADIR);
		}
		if (dir != NULL && !datadir_has(dir, file)) {
			free(dir);
			dir = NULL;
		}
	}
	free(exe);
	return dir != NULL ? dir : xstrdup(DATADIR);
}
