/* SPDX-License-Identifier: MIT */
/*
 * lanes.h: cuts the machine's usable cores into lanes (DESIGN section 3).
 * It decides which cores each lane owns; it never starts anything.
 */
#ifndef FLAKESWEEP_LANES_H
#define FLAKESWEEP_LANES_H

#include <sched.h>

struct lanes {
	int ncores; /* cores flakesweep may use (sched_getaffinity) */
	int keep;   /* cores left to the tool and the system */
	int *kept;  /* their ids */
	int width;  /* cores per lane: the largest --cpu */
	int nlanes;
	int **cores; /* cores[lane][0..width-1]: CPU ids */
};

/* The --keep default for a machine of ncores: 0 up to 4 cores, 2 up to
 * 16, 8 above. */
int lanes_default_keep(int ncores);

/* Plans lanes on the CPUs in allowed (as sched_getaffinity gives them):
 * the first keep (or the default when keep < 0) are kept, the rest cut into
 * lanes of width cores; leftover cores stay idle. Returns 0, or -EINVAL
 * with *err (caller frees) saying what fits when not even one lane does. */
int lanes_plan(const cpu_set_t *allowed, int keep, int width, struct lanes *out, char **err);

/* Fills allowed with flakesweep's own affinity. Returns 0 or -errno. */
int lanes_machine(cpu_set_t *allowed);

/* Clips a --cpu list to what fits in (ncores - keep) cores, in place.
 * Used for the default list only: an explicit one that does not fit is an
 * error from lanes_plan. Returns the new length (at least 1). */
int lanes_clip_cpus(int *cpus, int n, int usable);

/* The lanes of a sweep on allowed with --keep keep (< 0: the default)
 * and --cpu *cpus (*ncpus of them; NULL: the default 1,2,4 clipped to the
 * usable cores, allocated into *cpus and *ncpus): as wide as the widest.
 * Returns what lanes_plan returns. */
int lanes_for_sweep(const cpu_set_t *allowed, int keep, int **cpus, int *ncpus, struct lanes *out,
                    char **err);

void lanes_free(struct lanes *l);

#endif
