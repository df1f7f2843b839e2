/* SPDX-License-Identifier: MIT */
/*
 * classify.c: the class of each flaky test, from its causes (causes.c),
 * the canaries (harness.h) and its package's debris, in the order of the
 * isolation proposal's table: the rows about the environment first, so a
 * failure the harness may have caused is never called the test's own. It
 * never reads or writes files.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "base/jsonw.h"
#include "results/classify.h"

static const char *const classify_names[] = {
    NULL, "isolation-broken", "harness-bug", "race", "test-flake", "unexplained",
};

/* Whether t failed or hung without company (in a run no other run of its
 * package overlapped: interference.h) at cpu and load (0: any). */
static bool
classify_fails_alone(const struct results_test *t, int cpu, int load)
{
	int i;

	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *x = &t->cells[i];

		if ((cpu == 0 || x->cpu == cpu) && (load == 0 || x->load == load) &&
		    x->failures + x->hangs > x->overlapped_bad)
			return true;
	}
	return false;
}

/* The class of a test that is not a cascade. */
static enum classify_class
classify_own(const struct results *r, const struct causes *c, size_t i, char *channel)
{
	const struct results_test *t = &r->tests[i];
	int cpu, load;
	unsigned named = causes_named(c, i, &cpu, &load);
	bool debris =
	    t->pkg >= 0 && (size_t)t->pkg < r->npkgs && r->pkgs[t->pkg].runs_after_debris > 0;

	channel[0] = '\0';
	if (!harness_clean(&r->harness))
		return CLASSIFY_ISOLATION_BROKEN;
	if ((named & (CAUSES_NAMED_INTERFERENCE | CAUSES_NAMED_NOISE | CAUSES_NAMED_EPISODE)) ||
	    debris)
		return CLASSIFY_HARNESS_BUG;
	/* A race fails at its channel also without company: one that fails
	 * there only with company is not the code's alone. */
	if ((named & (CAUSES_NAMED_CPU | CAUSES_NAMED_LOAD)) &&
	    classify_fails_alone(t, cpu, load)) {
		if (cpu > 0 && load > 0)
			snprintf(channel, CLASSIFY_CHANNEL_MAX, "cpu=%d,load=%d", cpu, load);
		else if (cpu > 0)
			snprintf(channel, CLASSIFY_CHANNEL_MAX, "cpu=%d", cpu);
		else
			snprintf(channel, CLASSIFY_CHANNEL_MAX, "load=%d", load);
		return CLASSIFY_RACE;
	}
	if ((named & CAUSES_NAMED_TIMING) ||
	    ((named & CAUSES_NAMED_ORDER) && t->polluter != NULL && t->polluter->test != NULL)) {
		snprintf(channel, CLASSIFY_CHANNEL_MAX, "any");
		return CLASSIFY_TEST_FLAKE;
	}
	return CLASSIFY_UNEXPLAINED;
}

enum classify_class
classify_test(const struct results *r, const struct causes *c, size_t i, char *channel)
{
	const struct results_test *t = &r->tests[i];
	enum results_verdict v = results_verdict(t);
	const char *root;
	size_t j;

	channel[0] = '\0';
	if (v == RESULTS_CASCADE) {
		/* The root is one of the tests of r: results_cascade_root
		 * returns its name. */
		root = results_cascade_root(t);
		for (j = 0; root != NULL && j < r->ntests; j++)
			if (r->tests[j].test == root)
				return classify_own(r, c, j, channel);
		return classify_own(r, c, i, channel);
	}
	return v == RESULTS_FLAKY ? classify_own(r, c, i, channel) : CLASSIFY_NONE;
}

void
classify_write(struct jsonw *w, const struct results *r, const struct causes *c, size_t i)
{
	char channel[CLASSIFY_CHANNEL_MAX];
	enum classify_class k = classify_test(r, c, i, channel);

	if (k == CLASSIFY_NONE)
		jsonw_null(w, "class");
	else
		jsonw_str(w, "class", classify_name(k));
	if (channel[0] == '\0')
		jsonw_null(w, "class_channel");
	else
		jsonw_str(w, "class_channel", channel);
}

const char *
classify_name(enum classify_class k)
{
	return classify_names[k];
}

enum classify_class
classify_parse(const char *name)
{
	size_t k;

	for (k = 1; name != NULL && k < sizeof classify_names / sizeof *classify_names; k++)
		if (strcmp(name, classify_names[k]) == 0)
			return (enum classify_class)k;
	return CLASSIFY_NONE;
}

const char *
classify_advice(enum classify_class k)
{
	switch (k) {
	case CLASSIFY_ISOLATION_BROKEN:
		return _("a canary misbehaved in the sweep: find out why before trusting any "
		         "verdict, then sweep again");
	case CLASSIFY_HARNESS_BUG:
		return _("the environment makes it fail (interference, host noise or debris): fix "
		         "the isolation or the host, then sweep again");
	case CLASSIFY_RACE:
		return _("it fails only at some cpu counts or loads: fix the race in the code, or "
		         "quarantine it only on the channel where it fails");
	case CLASSIFY_UNEXPLAINED:
		return _("there is not enough evidence for a class: sweep it with more runs first");
	default:
		return "";
	}
}
