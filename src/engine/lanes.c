/* SPDX-License-Identifier: MIT */
/*
 * lanes.c: plans lanes from the CPUs the kernel lets flakesweep use. The
 * kernel silently drops CPUs that do not exist, so widths are checked
 * against sched_getaffinity, never against a CPU count from elsewhere.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/lanes.h"
#include "base/util.h"

int
lanes_default_keep(int ncores)
{
	if (ncores <= 4)
		return 0;
	if (ncores <= 16)
		return 2;
	return 8;
}

int
lanes_machine(cpu_set_t *allowed)
{
	CPU_ZERO(allowed);
	if (sched_getaffinity(0, sizeof *allowed, allowed) < 0)
		return -errno;
	return 0;
}

int
lanes_clip_cpus(int *cpus, int n, int usable)
{
	int i, out = 0;

	for (i = 0; i < n; i++) {
		if (cpus[i] <= usable)
			cpus[out++] = cpus[i];
	}
	if (out == 0) {
		cpus[0] = 1;
		out = 1;
	}
	return out;
}

int
lanes_plan(const cpu_set_t *allowed, int keep, int width, struct lanes *out, char **err)
{
	int ids[CPU_SETSIZE], n = 0, i, j, usable;

	memset(out, 0, sizeof *out);
	*err = NULL;
	for (i = 0; i < CPU_SETSIZE; i++) {
		if (CPU_ISSET(i, allowed))
			ids[n++] = i;
	}
	if (keep < 0)
		keep = lanes_default_keep(n);
	if (keep >= n) {
		*err = xasprintf(_("--keep %d leaves no core for runs: this machine lets "
		                   "flakesweep use %d cores"),
		                 keep, n);
		return -EINVAL;
	}
	usable = n - keep;
	if (width < 1 || width > usable) {
		*err =
		    xasprintf(_("--cpu %d does not fit: %d cores usable (%d allowed, --keep %d); "
		                "the widest run that fits is --cpu %d"),
		              width, usable, n, keep, usable);
		return -EINVAL;
	}
	out->ncores = n;
	out->keep = keep;
	out->width = width;
	out->kept = xcalloc((size_t)(keep > 0 ? keep : 1), sizeof *out->kept);
	for (i = 0; i < keep; i++)
		out->kept[i] = ids[i];
	out->nlanes = usable / width;
	out->cores = xcalloc((size_t)out->nlanes, sizeof *out->cores);
	for (i = 0; i < out->nlanes; i++) {
		out->cores[i] = xcalloc((size_t)width, sizeof **out->cores);
		for (j = 0; j < width; j++)
			out->cores[i][j] = ids[keep + i * width + j];
	}
	return 0;
}

void
lanes_free(struct lanes *l)
{
	int i;

	for (i = 0; i < l->nlanes; i++)
		free(l->cores[i]);
	free(l->cores);
	free(l->kept);
	memset(l, 0, sizeof *l);
}

int
lanes_for_sweep(const cpu_set_t *allowed, int keep, int **cpus, int *ncpus, struct lanes *out,
                char **err)
{
	int width = 1, i;

	if (*cpus == NULL) {
		static const int def[] = {1, 2, 4};
		int usable = CPU_COUNT(allowed) -
		             (keep >= 0 ? keep : lanes_default_keep(CPU_COUNT(allowed)));

		*cpus = xmalloc(sizeof def);
		memcpy(*cpus, def, sizeof def);
		*ncpus = lanes_clip_cpus(*cpus, 3, usable > 0 ? usable : 1);
	}
	for (i = 0; i < *ncpus; i++) {
		if ((*cpus)[i] > width)
			width = (*cpus)[i];
	}
	return lanes_plan(allowed, keep, width, out, err);
}
