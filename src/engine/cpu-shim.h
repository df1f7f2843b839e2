/* SPDX-License-Identifier: MIT */
/*
 * cpu-shim.h: finds the preload library (cpu-preload.c, installed as
 * flakesweep-cpu.so) that makes a run's sysconf(_SC_NPROCESSORS_ONLN),
 * get_nprocs() and friends answer its CPU set, and composes the LD_PRELOAD
 * that loads it. It never starts a process.
 */
#ifndef FLAKESWEEP_CPU_SHIM_H
#define FLAKESWEEP_CPU_SHIM_H

/* The library's absolute path: $FLAKESWEEP_CPU_SHIM when set, else
 * flakesweep-cpu.so next to the running binary (the build tree), else the
 * one in pkglibdir. Returns a new string, or NULL when none exists. */
char *cpu_shim_find(void);

/* The LD_PRELOAD value that adds path to existing (NULL or empty when
 * there is none): "existing:path". Returns a new string. */
char *cpu_shim_preload(const char *existing, const char *path);

/* The ASAN_OPTIONS value that adds verify_asan_link_order=0 to existing
 * (NULL or empty when there is none): AddressSanitizer refuses to start
 * when a preloaded library comes before its runtime. Returns a new string. */
char *cpu_shim_asan_options(const char *existing);

#endif
