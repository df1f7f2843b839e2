/* SPDX-License-Identifier: MIT */
/*
 * results-json-durations.c: each package's run times by (cpu, load) in
 * results.json: what `flakesweep plan --durations` reads.
 */
#include "config.h"

#include "base/util.h"
#include "results/results-json-durations.h"

void
results_json_durations_write(struct jsonw *w, const struct durations *d)
{
	size_t i;

	if (d->ncells == 0)
		return;
	jsonw_array(w, "durations");
	for (i = 0; i < d->ncells; i++) {
		struct durations_cell *c = (struct durations_cell *)&d->cells[i];

		jsonw_object(w, NULL);
		jsonw_int(w, "cpu", c->cpu);
		jsonw_int(w, "load", c->load);
		jsonw_int(w, "runs", c->runs);
		jsonw_int(w, "median_ms", durations_median(c));
		jsonw_end(w);
	}
	jsonw_end(w);
}

int
results_json_durations_read(struct results_json_in *in, const cJSON *p, struct durations *d)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(p, "durations"), *c;
	int64_t cpu, load, runs, median;
	int rc = 0, i = 0;

	if (a == NULL)
		return 0;
	if (!cJSON_IsArray(a))
		return results_json_fail(in, "durations", _("expected an array"));
	results_json_push(in, "durations", 0);
	cJSON_ArrayForEach(c, a)
	{
		results_json_push(in, NULL, i++);
		if (!cJSON_IsObject(c))
			rc = results_json_fail(in, NULL, _("expected an object"));
		if (rc == 0)
			rc = results_json_int(in, c, "cpu", true, 1, 4096, &cpu);
		if (rc == 0)
			rc = results_json_int(in, c, "load", true, 1, 64, &load);
		if (rc == 0)
			rc =
			    results_json_int(in, c, "runs", true, 0, RESULTS_JSON_COUNT_MAX, &runs);
		if (rc == 0)
			rc = results_json_int(in, c, "median_ms", true, 0, INT32_MAX, &median);
		results_json_pop(in);
		if (rc < 0)
			break;
		durations_set(d, (int)cpu, (int)load, runs, median);
	}
	results_json_pop(in);
	return rc;
}
