/* SPDX-License-Identifier: MIT */
/*
 * results-polluter.c: what the polluter search found for a test, kept
 * with it: the first polluter, with its seed, command and the runs to it,
 * and the others found after it, each with its own.
 */
#include "config.h"

#include <stdlib.h>

#include "results/results.h"
#include "base/jsonw.h"
#include "base/util.h"

void
results_polluter_free(struct results_polluter *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; i < p->nmore; i++) {
		free(p->more[i].test);
		free(p->more[i].seed);
		free(p->more[i].command);
	}
	free(p->more);
	free(p->test);
	free(p->seed);
	free(p->command);
	free(p);
}

void
results_set_polluter(struct results_test *t, const char *test, const char *seed,
                     const char *command, int64_t runs)
{
	struct results_polluter *p = xcalloc(1, sizeof *p);

	p->test = test != NULL ? xstrdup(test) : NULL;
	p->seed = xstrdup(seed);
	p->command = command != NULL ? xstrdup(command) : NULL;
	p->runs = runs;
	p->search_runs = runs;
	results_polluter_free(t->polluter);
	t->polluter = p;
}

void
results_add_polluter(struct results_test *t, const char *test, const char *seed,
                     const char *command)
{
	struct results_polluter *p = t->polluter;
	struct results_polluter_more *m;

	p->more = xrealloc(p->more, sizeof *p->more * (p->nmore + 1));
	m = &p->more[p->nmore++];
	m->test = xstrdup(test);
	m->seed = xstrdup(seed);
	m->command = command != NULL ? xstrdup(command) : NULL;
}

void
results_copy_polluter(struct results_test *t, const struct results_polluter *p)
{
	size_t i;

	results_set_polluter(t, p->test, p->seed, p->command, p->runs);
	t->polluter->search_runs = p->search_runs;
	for (i = 0; i < p->nmore; i++)
		results_add_polluter(t, p->more[i].test, p->more[i].seed, p->more[i].command);
}

/* One of results.json's polluters. */
static void
results_polluter_json(struct jsonw *w, const char *test, const char *seed, const char *command)
{
	jsonw_object(w, NULL);
	jsonw_str(w, "test", test);
	jsonw_str(w, "seed", seed);
	jsonw_str(w, "reproduce", command);
	jsonw_end(w);
}

void
results_polluters_json(struct jsonw *w, const struct results_polluter *p)
{
	size_t i;

	jsonw_array(w, "polluters");
	if (p->test != NULL)
		results_polluter_json(w, p->test, p->seed, p->command);
	for (i = 0; i < p->nmore; i++)
		results_polluter_json(w, p->more[i].test, p->more[i].seed, p->more[i].command);
	jsonw_end(w);
}
