/* SPDX-License-Identifier: MIT */
/*
 * results-json-check.c: the rules of results.json that no single value
 * shows, checked as results-json.c reads the file. A test's cells are a
 * set: a cell that repeats an earlier one's phase, cpu and load would have
 * its runs summed into the same pair and counted twice, so it is refused
 * as a repeated test is. It reads no file itself.
 */
#include "config.h"

#include <stdlib.h>

#include "base/util.h"
#include "results/results-json-check.h"

/* A cell's place in the set, and where the file has it. */
struct results_json_check_key {
	enum results_phase phase;
	int cpu, load, index;
};

static int
results_json_check_key_cmp(const void *a, const void *b)
{
	const struct results_json_check_key *x = a, *y = b;

	if (x->phase != y->phase)
		return x->phase < y->phase ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	if (x->load != y->load)
		return x->load < y->load ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

int
results_json_check_cells(struct results_json_in *in, const struct results_test *t)
{
	struct results_json_check_key *keys = xcalloc((size_t)t->ncells + 1, sizeof *keys);
	int i, repeat = -1, earlier = -1, rc = 0;
	char *what;

	for (i = 0; i < t->ncells; i++)
		keys[i] = (struct results_json_check_key){t->cells[i].phase, t->cells[i].cpu,
		                                          t->cells[i].load, i};
	/* Sorted, a repeat is next to the cell it repeats; the first repeat in
	 * the file's order is named. */
	qsort(keys, (size_t)t->ncells, sizeof *keys, results_json_check_key_cmp);
	for (i = 1; i < t->ncells; i++) {
		if (keys[i - 1].phase == keys[i].phase && keys[i - 1].cpu == keys[i].cpu &&
		    keys[i - 1].load == keys[i].load && (repeat < 0 || keys[i].index < repeat)) {
			repeat = keys[i].index;
			earlier = keys[i - 1].index;
		}
	}
	free(keys);
	if (repeat < 0)
		return 0;
	what = xasprintf(_("repeats the cell at phase %s, cpu %d, load %d (cells[%d])"),
	                 results_phase_name(t->cells[repeat].phase), t->cells[repeat].cpu,
	                 t->cells[repeat].load, earlier);
	results_json_push(in, "cells", 0);
	results_json_push(in, NULL, repeat);
	rc = results_json_fail(in, NULL, what);
	results_json_pop(in);
	results_json_pop(in);
	free(what);
	return rc;
}
