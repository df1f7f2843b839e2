/* SPDX-License-Identifier: MIT */
/*
 * interference.c: tests that fail when runs of their package overlap. A
 * run is overlapped when another run of the same package was alive at some
 * moment of its life, on any cores (the sweep marks both at the later
 * one's spawn and journals the mark). A test whose failures pile up in
 * overlapped runs shares something between runs: a fixed port, a fixed
 * path, the working directory. It never reads or writes files.
 */
#include "config.h"

#include <stdlib.h>

#include "results/interference.h"
#include "results/stats.h"
#include "base/util.h"

void
interference_add_run(struct results *r, int pkg, const struct outcome *o, bool overlapped)
{
	size_t i;

	for (i = 0; !o->unreliable && i < o->ntests; i++) {
		const struct outcome_test *ot = &o->tests[i];
		char *id;
		struct results_test *t;
		bool bad = ot->status == OUTCOME_FAIL || ot->status == OUTCOME_HANG;

		if (ot->status == OUTCOME_SKIP)
			continue;
		id = xasprintf("%s::%s", r->pkgs[pkg].name, ot->name);
		t = results_find(r, id);
		free(id);
		if (t == NULL)
			continue;
		if (overlapped) {
			t->overlapped_runs++;
			t->overlapped_bad += bad;
		} else {
			t->alone_runs++;
			t->alone_bad += bad;
		}
	}
}

double
interference_p(const struct results_test *t)
{
	double greater;

	stats_fisher(t->alone_bad, t->alone_runs, t->overlapped_bad, t->overlapped_runs, NULL,
	             &greater);
	return greater;
}

static cJSON *
interference_side(int64_t runs, int64_t failures)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "runs", (double)runs);
	cJSON_AddNumberToObject(o, "failures", (double)failures);
	return o;
}

cJSON *
interference_json(const struct results_test *t)
{
	cJSON *o;

	if (t->overlapped_bad + t->alone_bad == 0)
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "overlapped",
	                      interference_side(t->overlapped_runs, t->overlapped_bad));
	cJSON_AddItemToObject(o, "alone", interference_side(t->alone_runs, t->alone_bad));
	cJSON_AddNumberToObject(o, "p", util_round3(interference_p(t)));
	return o;
}

void
interference_text(struct buf *b, const struct results_test *t)
{
	double p = interference_p(t);

	if (t->overlapped_bad + t->alone_bad == 0 || p >= INTERFERENCE_ALPHA)
		return;
	buf_printf(b,
	           _("  fails when runs of its package overlap: %lld of %lld overlapped runs "
	             "against %lld of %lld alone (Fisher exact p=%.2g); runs share a fixed "
	             "port, path or directory: bind to FLAKESWEEP_PORT_BASE's window, write "
	             "under the run's own TMPDIR, or try --isolate-net or --private-workdir\n"),
	           (long long)t->overlapped_bad, (long long)t->overlapped_runs,
	           (long long)t->alone_bad, (long long)t->alone_runs, p);
}
