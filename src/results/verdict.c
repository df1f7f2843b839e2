/* SPDX-License-Identifier: MIT */
/*
 * verdict.c: a test's verdict from its cells (passed, flaky, failing,
 * cascade, skip-flaky, skipped) and the counts of each over a sweep.
 */
#include "config.h"

#include "results/results.h"

/* The runs and bad runs (failures and hangs) of t at one pair, sweep and
 * confirm cells together. */
static void
results_pair_totals(const struct results_test *t, int cpu, int load, int64_t *runs, int64_t *bad)
{
	int i;

	*runs = *bad = 0;
	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *c = &t->cells[i];

		if (c->cpu == cpu && c->load == load) {
			*runs += c->runs;
			*bad += c->failures + c->hangs;
		}
	}
}

enum results_verdict
results_verdict(const struct results_test *t)
{
	int64_t all_runs = 0, all_bad = 0;
	int i;

	if (results_cascade(t))
		return RESULTS_CASCADE;
	/* Per pair, not per cell: one all-red confirm cell of a test that
	 * passes half its runs at the same pair is flaky, not failing. */
	for (i = 0; i < t->ncells; i++) {
		int64_t runs, bad;

		results_pair_totals(t, t->cells[i].cpu, t->cells[i].load, &runs, &bad);
		if (runs >= RESULTS_FAILING_MIN_RUNS && bad == runs)
			return RESULTS_FAILING;
		all_runs += t->cells[i].runs;
		all_bad += t->cells[i].failures + t->cells[i].hangs;
	}
	/* Flaky needs a pass: a test red in every run it had is failing,
	 * however few. */
	if (all_bad > 0 && all_bad == all_runs)
		return RESULTS_FAILING;
	if (all_bad > 0)
		return RESULTS_FLAKY;
	/* A failure wins over a skip; without one, the runs it skipped are
	 * runs in which nothing was tested. */
	if (results_test_skipped(t) == 0)
		return RESULTS_PASSED;
	return all_runs > 0 ? RESULTS_SKIP_FLAKY : RESULTS_SKIPPED;
}

const char *
results_verdict_name(enum results_verdict v)
{
	switch (v) {
	case RESULTS_FLAKY:
		return "flaky";
	case RESULTS_FAILING:
		return "failing";
	case RESULTS_CASCADE:
		return "cascade";
	case RESULTS_SKIP_FLAKY:
		return "skip-flaky";
	case RESULTS_SKIPPED:
		return "skipped";
	case RESULTS_PASSED:
		break;
	}
	return "passed";
}

void
results_counts(const struct results *r, int64_t *passed, int64_t *flaky, int64_t *failing)
{
	size_t i;

	*passed = *flaky = *failing = 0;
	for (i = 0; i < r->ntests; i++) {
		switch (results_verdict(&r->tests[i])) {
		case RESULTS_PASSED:
			(*passed)++;
			break;
		case RESULTS_FLAKY:
			(*flaky)++;
			break;
		case RESULTS_FAILING:
			(*failing)++;
			break;
		case RESULTS_CASCADE:
		case RESULTS_SKIP_FLAKY:
		case RESULTS_SKIPPED:
			break;
		}
	}
}

void
results_skip_counts(const struct results *r, int64_t *skip_flaky, int64_t *skipped)
{
	size_t i;

	*skip_flaky = *skipped = 0;
	for (i = 0; i < r->ntests; i++) {
		enum results_verdict v = results_verdict(&r->tests[i]);

		*skip_flaky += v == RESULTS_SKIP_FLAKY;
		*skipped += v == RESULTS_SKIPPED;
	}
}

int64_t
results_test_skipped(const struct results_test *t)
{
	int64_t n = 0;
	int i;

	for (i = 0; i < t->ncells; i++)
		n += t->cells[i].skipped;
	return n;
}
