/* SPDX-License-Identifier: MIT */
/*
 * durations.c: each package's run times by (cpu, load). Cells are few (a
 * package's pairs), so lookups are linear.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "results/durations.h"

static struct durations_cell *
durations_cell(struct durations *d, int cpu, int load)
{
	struct durations_cell *c;
	size_t i;

	for (i = 0; i < d->ncells; i++)
		if (d->cells[i].cpu == cpu && d->cells[i].load == load)
			return &d->cells[i];
	d->cells = xrealloc(d->cells, sizeof *d->cells * (d->ncells + 1));
	c = &d->cells[d->ncells++];
	memset(c, 0, sizeof *c);
	c->cpu = cpu;
	c->load = load;
	return c;
}

void
durations_add(struct durations *d, int cpu, int load, int64_t ms)
{
	struct durations_cell *c = durations_cell(d, cpu, load);

	if ((size_t)c->runs == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->ms = xrealloc(c->ms, sizeof *c->ms * c->cap);
	}
	c->ms[c->runs++] = ms > INT32_MAX ? INT32_MAX : ms < 0 ? 0 : (int32_t)ms;
}

void
durations_set(struct durations *d, int cpu, int load, int64_t runs, int64_t median_ms)
{
	struct durations_cell *c = durations_cell(d, cpu, load);

	c->runs = c->sorted = runs;
	c->median_ms = median_ms;
}

static int
durations_cmp(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;

	return (x > y) - (x < y);
}

int64_t
durations_median(struct durations_cell *c)
{
	if (c->ms != NULL && c->sorted != c->runs) {
		qsort(c->ms, (size_t)c->runs, sizeof *c->ms, durations_cmp);
		c->median_ms = c->ms[(c->runs - 1) / 2];
		c->sorted = c->runs;
	}
	return c->median_ms;
}

void
durations_absorb(struct durations *dst, const struct durations *src)
{
	size_t i;
	int64_t k;

	for (i = 0; i < src->ncells; i++) {
		const struct durations_cell *c = &src->cells[i];

		if (c->ms == NULL) {
			durations_set(dst, c->cpu, c->load, c->runs, c->median_ms);
			continue;
		}
		for (k = 0; k < c->runs; k++)
			durations_add(dst, c->cpu, c->load, c->ms[k]);
	}
}

void
durations_free(struct durations *d)
{
	size_t i;

	for (i = 0; i < d->ncells; i++)
		free(d->cells[i].ms);
	free(d->cells);
	memset(d, 0, sizeof *d);
}
