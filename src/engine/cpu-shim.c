/* SPDX-License-Identifier: MIT */
/*
 * cpu-shim.c: finds the CPU preload library and composes LD_PRELOAD for a
 * run (cpu-shim.h). It never starts a process and never loads the library
 * itself.
 */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/cpu-shim.h"
#include "base/util.h"

#define CPU_SHIM_NAME "flakesweep-cpu.so"

char *
cpu_shim_find(void)
{
	const char *env = getenv("FLAKESWEEP_CPU_SHIM");
	char self[PATH_MAX], *slash, *path;
	ssize_t n;

	if (env != NULL && env[0] != '\0')
		return access(env, R_OK) == 0 ? xstrdup(env) : NULL;
	n = readlink("/proc/self/exe", self, sizeof self - 1);
	if (n > 0) {
		self[n] = '\0';
		slash = strrchr(self, '/');
		if (slash != NULL) {
			*slash = '\0';
			path = xasprintf("%s/%s", self, CPU_SHIM_NAME);
			if (access(path, R_OK) == 0)
				return path;
			free(path);
		}
	}
	path = xasprintf("%s/%s", PKGLIBDIR, CPU_SHIM_NAME);
	if (access(path, R_OK) == 0)
		return path;
	free(path);
	return NULL;
}

char *
cpu_shim_preload(const char *existing, const char *path)
{
	if (existing == NULL || existing[0] == '\0')
		return xstrdup(path);
	return xasprintf("%s:%s", existing, path);
}

char *
cpu_shim_asan_options(const char *existing)
{
	if (existing == NULL || existing[0] == '\0')
		return xstrdup("verify_asan_link_order=0");
	return xasprintf("%s:verify_asan_link_order=0", existing);
}
