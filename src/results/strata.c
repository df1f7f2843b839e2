/* SPDX-License-Identifier: MIT */
/*
 * strata.c: builds one 2x2 table per (cpu, load) pair of a test, from its
 * cells of every phase, for the exact stratified test. Which runs go on
 * which side is the caller's (interference.c, causes.c). It never reads
 * or writes files.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "results/strata.h"
#include "base/util.h"

void
strata_totals(const struct results_test *t, strata_add_cb add, struct stats_table *sum)
{
	int i;

	memset(sum, 0, sizeof *sum);
	for (i = 0; i < t->ncells; i++)
		add(sum, &t->cells[i]);
}

double
strata_pairs_greater(const struct results_test *t, strata_add_cb add)
{
	struct stats_table *strata = xcalloc((size_t)t->ncells + 1, sizeof *strata);
	int i, j, n = 0;
	double p;

	/* One table per (cpu, load) pair, its phases together, made at the
	 * pair's first cell. */
	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *c = &t->cells[i];

		for (j = 0; j < i && (t->cells[j].cpu != c->cpu || t->cells[j].load != c->load);
		     j++)
			;
		if (j < i)
			continue;
		for (j = i; j < t->ncells; j++)
			if (t->cells[j].cpu == c->cpu && t->cells[j].load == c->load)
				add(&strata[n], &t->cells[j]);
		n++;
	}
	p = stats_strata_greater(strata, (size_t)n);
	free(strata);
	return p;
}
