/* SPDX-License-Identifier: MIT */
/*
 * datadir.c: the directory of flakesweep's data files, looked up from the
 * running binary's own path (datadir.h).
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

/* DATADIR moved as exe moved from BINDIR: below their common prefix, the
 * same path under exe's. NULL when exe does not end as BINDIR does. */
static char *
datadir_relocated(const char *exe)
{
	const char *bin = BINDIR, *data = DATADIR;
	size_t common = 0, i, elen = strlen(exe), blen;

	for (i = 0; bin[i] != '\0' && bin[i] == data[i]; i++) {
		if (bin[i] == '/')
			common = i;
	}
	if (bin[i] == '\0' && data[i] == '/')
		common = i;
	blen = strlen(bin + common);
	if (elen < blen || strcmp(exe + elen - blen, bin + common) != 0)
		return NULL;
	return xasprintf("%.*s%s", (int)(elen - blen), exe, data + common);
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
			dir = datadir_relocated(exe);
		}
		if (dir != NULL && !datadir_has(dir, file)) {
			free(dir);
			dir = NULL;
		}
	}
	free(exe);
	return dir != NULL ? dir : xstrdup(DATADIR);
}
