/* SPDX-License-Identifier: MIT */
/*
 * cpu-shim.c: finds the CPU preload library and composes LD_PRELOAD for a
 * run (cpu-shim.h). It never starts a process and never loads the library
 * itself.
 */
#include "config.h"

#include <stdlib.h>
#include <unistd.h>

#include "engine/cpu-shim.h"
#include "base/datadir.h"
#include "base/util.h"

#define CPU_SHIM_NAME "flakesweep-cpu.so"

char *
cpu_shim_find(void)
{
	const char *env = getenv("FLAKESWEEP_CPU_SHIM");

	if (env != NULL && env[0] != '\0')
		return access(env, R_OK) == 0 ? xstrdup(env) : NULL;
	return datadir_libexec(CPU_SHIM_NAME, R_OK);
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
