/* SPDX-License-Identifier: MIT */
/*
 * fuzz-results.c: libFuzzer target for the results.json reader. The input
 * is the file; either the error names the file, or every cell holds the
 * counts results_load promises and every test has an id.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "input-file.h"
#include "results/results-json.h"
#include "base/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *path = fuzz_file("results", "json", data, size);
	struct results *r = NULL;
	struct results_meta m;
	char *err = NULL;
	size_t i, k;

	if (results_load(path, &r, &m, &err) < 0) {
		if (r != NULL || err == NULL || strstr(err, path) == NULL)
			abort();
		free(err);
		return 0;
	}
	for (i = 0; i < r->ntests; i++) {
		const struct results_test *t = &r->tests[i];

		if (t->test == NULL)
			abort();
		for (k = 0; k < (size_t)t->ncells; k++) {
			const struct results_cell *c = &t->cells[k];

			if (c->cpu < 1 || c->load < 1 || c->failures < 0 || c->hangs < 0 ||
			    c->failures + c->hangs > c->runs)
				abort();
		}
	}
	results_meta_free(&m);
	results_free(r);
	return 0;
}
