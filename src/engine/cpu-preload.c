/* SPDX-License-Identifier: MIT */
/*
 * cpu-preload.c: the preload library flakesweep puts in LD_PRELOAD of every
 * run of a framework that is not told its CPU count on its command line.
 * sysconf(_SC_NPROCESSORS_ONLN), sysconf(_SC_NPROCESSORS_CONF), get_nprocs()
 * and get_nprocs_conf() answer the size of the calling thread's CPU set
 * (sched_getaffinity) instead of the machine's count, so a program that sizes
 * a pool from std::thread::hardware_concurrency(), os.cpu_count() or sysconf
 * sees the cores its run was pinned to. It is built on its own as a shared
 * object and must never link the rest of flakesweep.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdlib.h>
#include <sys/sysinfo.h>
#include <unistd.h>

/* Exported: the interposed symbols; nothing else is visible. */
#define CPU_PRELOAD_EXPORT __attribute__((visibility("default")))

long sysconf(int name) CPU_PRELOAD_EXPORT;
int get_nprocs(void) CPU_PRELOAD_EXPORT;
int get_nprocs_conf(void) CPU_PRELOAD_EXPORT;

/* The number of CPUs in the calling thread's affinity mask, or 0 when it
 * cannot be read (then the callers fall back to libc's answer). Grows the
 * mask for machines with more than 1024 CPUs. */
static int
cpu_preload_count(void)
{
	size_t ncpu = 1024;

	for (;;) {
		cpu_set_t *set = CPU_ALLOC(ncpu);
		size_t size = CPU_ALLOC_SIZE(ncpu);
		int n = 0;

		if (set == NULL)
			return 0;
		if (sched_getaffinity(0, size, set) == 0)
			n = CPU_COUNT_S(size, set);
		CPU_FREE(set);
		if (n > 0 || ncpu >= 1 << 20)
			return n;
		ncpu *= 2;
	}
}

long
sysconf(int name)
{
	static long (*next)(int);
	int n;

	if (name == _SC_NPROCESSORS_ONLN || name == _SC_NPROCESSORS_CONF) {
		n = cpu_preload_count();
		if (n > 0)
			return n;
	}
	if (next == NULL)
		next = (long (*)(int))dlsym(RTLD_NEXT, "sysconf");
	return next(name);
}

int
get_nprocs(void)
{
	static int (*next)(void);
	int n = cpu_preload_count();

	if (n > 0)
		return n;
	if (next == NULL)
		next = (int (*)(void))dlsym(RTLD_NEXT, "get_nprocs");
	return next();
}

int
get_nprocs_conf(void)
{
	static int (*next)(void);
	int n = cpu_preload_count();

	if (n > 0)
		return n;
	if (next == NULL)
		next = (int (*)(void))dlsym(RTLD_NEXT, "get_nprocs_conf");
	return next();
}
