/* SPDX-License-Identifier: MIT */
/*
 * interference.c: tests that fail when runs of their package overlap. A
 * run is overlapped when another run of the same package was alive at some
 * moment of its life, on any cores (the sweep marks both at the later
 * one's spawn and journals the mark). A test whose failures pile up in
 * overlapped runs shares something between runs: a fixed port, a fixed
 * path, the working directory. Runs overlap more at some (cpu, load) pairs
 * than at others, so the test compares within each pair and combines the
 * pairs exactly (strata.h): a test that fails every run at one pair is no
 * evidence. It never reads or writes files.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "results/interference.h"
#include "results/overlap.h"
#include "results/stats.h"
#include "results/strata.h"
#include "base/util.h"

void
interference_add_run(struct results *r, int pkg, enum results_phase phase, int cpu, int load,
                     const struct outcome *o, bool overlapped)
{
	size_t i;

	for (i = 0; overlapped && !o->unreliable && i < o->ntests; i++) {
		const struct outcome_test *ot = &o->tests[i];
		char *id;
		struct results_test *t;
		struct results_cell *c;

		if (ot->status == OUTCOME_SKIP)
			continue;
		id = xasprintf("%s::%s", r->pkgs[pkg].name, ot->name);
		t = results_find(r, id);
		free(id);
		if (t == NULL)
			continue;
		c = results_get_cell(t, phase, cpu, load);
		c->overlapped_runs++;
		c->overlapped_bad += ot->status == OUTCOME_FAIL || ot->status == OUTCOME_HANG;
	}
}

/* Adds the counts of cell c to table x: alone on side 1, overlapped on 2. */
static void
interference_add_cell(struct stats_table *x, const struct results_cell *c)
{
	x->k1 += c->failures + c->hangs - c->overlapped_bad;
	x->n1 += c->runs - c->overlapped_runs;
	x->k2 += c->overlapped_bad;
	x->n2 += c->overlapped_runs;
}

void
interference_totals(const struct results_test *t, struct stats_table *sum)
{
	strata_totals(t, interference_add_cell, sum);
}

double
interference_p(const struct results_test *t)
{
	return strata_pairs_greater(t, interference_add_cell);
}

bool
interference_suspect(const struct results_test *t)
{
	struct stats_table sum;
	int i;

	memset(&sum, 0, sizeof sum);
	for (i = 0; i < t->ncells; i++)
		if (t->cells[i].phase == RESULTS_SWEEP)
			interference_add_cell(&sum, &t->cells[i]);
	/* k2 / n2 > k1 / n1, or no run alone to compare with. */
	return sum.k2 > 0 && (sum.n1 == 0 || sum.k2 * sum.n1 > sum.k1 * sum.n2);
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
	struct stats_table sum;
	cJSON *o;

	interference_totals(t, &sum);
	if (sum.k1 + sum.k2 == 0 || sum.n2 == 0)
		return NULL;
	o = cJSON_CreateObject();
	cJSON_AddItemToObject(o, "overlapped", interference_side(sum.n2, sum.k2));
	cJSON_AddItemToObject(o, "alone", interference_side(sum.n1, sum.k1));
	cJSON_AddNumberToObject(o, "p", util_round3(interference_p(t)));
	return o;
}

bool
interference_named_by(const struct results_test *t, const struct overlap *ov)
{
	const struct results_core *c;
	int64_t runs, bad;
	double core_p;

	return ov->p >= 0 && ov->p < INTERFERENCE_ALPHA &&
	       !results_core_concentration(t, &c, &runs, &bad, &core_p);
}

bool
interference_named(const struct results_test *t, double *p)
{
	struct overlap ov;

	overlap_judge(t->owner, t, &ov);
	*p = ov.p;
	return interference_named_by(t, &ov);
}

void
interference_text(struct buf *b, const struct results_test *t)
{
	struct overlap ov;

	overlap_judge(t->owner, t, &ov);
	if (!interference_named_by(t, &ov))
		return;
	if (ov.partner == t->pkg)
		buf_printf(
		    b,
		    _("  fails when runs of its package overlap: %lld of %lld overlapped runs "
		      "against %lld of %lld alone (exact test stratified by pair, p=%.2g); "),
		    (long long)ov.bad_with, (long long)ov.n_with, (long long)ov.k_without,
		    (long long)ov.n_without, ov.p);
	else if (ov.partner >= 0)
		buf_printf(b,
		           _("  fails while %s runs: %lld of its %lld failures overlapped a run "
		             "of it (exact test stratified by pair and kind of run, p=%.2g); "),
		           t->owner->pkgs[ov.partner].name, (long long)ov.bad_with,
		           (long long)ov.bad, ov.p);
	else
		buf_printf(b,
		           _("  fails when other runs overlap it: %lld of %lld overlapped runs "
		             "against %lld of %lld alone (exact test stratified by pair and "
		             "kind of run, p=%.2g); "),
		           (long long)ov.k_over, (long long)ov.n_over, (long long)ov.k_alone,
		           (long long)ov.n_alone, ov.p);
	buf_adds(b, _("runs share a fixed port, path or directory: bind to "
	              "FLAKESWEEP_PORT_BASE's window, write under the run's own TMPDIR, or try "
	              "--isolate-net or --private-workdir\n"));
}
