/* SPDX-License-Identifier: MIT */
/*
 * order.c: the polluter searches at the end of the confirm phase. A test
 * that failed only in shuffled sweep runs and passed alone gets a search
 * (polluter.h) under its first failure's seed, when the driver can select
 * tests in a shuffled order; each probe is one run of its package, alone
 * on the machine at the failure's cpu count and load 1, that counts in no
 * cell. Each polluter found gets the command of the probe that found it
 * (the pair's, under that probe's seed). The result goes into the test's
 * results and a journal line, so a resumed or rebuilt sweep has it without
 * searching again.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/sweep-int.h"
#include "results/journal.h"
#include "base/util.h"

/* True when t gets a search that has not been made. */
static bool
order_wants(const struct sweep *s, const struct results_test *t)
{
	return s->driver->select_in_order != NULL && t->polluter == NULL &&
	       results_order_dependent(t) && s->pkgs[t->pkg]->build_ok;
}

/* Schedules one probe run of t's package: the whole package when tests is
 * NULL, else those tests in their shuffled order. */
static void
order_probe(struct sweep *s, const struct results_test *t, char *const *tests)
{
	struct sweep_order *q = &s->order;
	struct plan_pair *p = xcalloc(1, sizeof *p);
	p->phase = RESULTS_CONFIRM;
	p->pkg = t->pkg;
	p->cpu = t->first->cpu;
	p->load = 1;
	p->target = 1;
	p->seed = xstrdup(polluter_seed(q->search));
	p->run_re = tests != NULL ? s->driver->select_in_order(tests) : NULL;
	q->probes = xrealloc(q->probes, sizeof *q->probes * (q->nprobes + 1));
	q->probes[q->nprobes++] = p;
	sched_core_probe(s->core, p);
}

/* The polluters of the ended search, each with its seed and command, as
 * the journal line's polluters. */
static cJSON *
order_polluters_json(const struct sweep_order *q)
{
	cJSON *all = cJSON_CreateArray();
	const char *name, *seed;
	size_t i;

	for (i = 0; (name = polluter_nth(q->search, i, &seed)) != NULL; i++) {
		cJSON *one = cJSON_CreateObject();

		cJSON_AddStringToObject(one, "test", name);
		cJSON_AddStringToObject(one, "seed", seed);
		if (i < q->ncommands && q->commands[i] != NULL)
			cJSON_AddStringToObject(one, "command", q->commands[i]);
		cJSON_AddItemToArray(all, one);
	}
	return all;
}

/* Records the ended search of test t in the results and the journal. */
static void
order_record(struct sweep *s, struct results_test *t)
{
	struct sweep_order *q = &s->order;
	const char *found = polluter_found(q->search), *name, *seed, *first = q->seed;
	const char *command = q->ncommands > 0 ? q->commands[0] : NULL;
	cJSON *line = cJSON_CreateObject();
	size_t i;

	/* The first may have shown only under a new seed: its pair's seed. */
	polluter_nth(q->search, 0, &first);
	results_set_polluter(t, found, first, command, polluter_first_runs(q->search));
	t->polluter->search_runs = polluter_runs(q->search);
	for (i = 1; (name = polluter_nth(q->search, i, &seed)) != NULL; i++)
		results_add_polluter(t, name, seed, i < q->ncommands ? q->commands[i] : NULL);
	cJSON_AddStringToObject(line, "type", "polluter");
	cJSON_AddStringToObject(line, "test", t->id);
	if (found != NULL)
		cJSON_AddStringToObject(line, "polluter", found);
	else
		cJSON_AddNullToObject(line, "polluter");
	cJSON_AddStringToObject(line, "seed", first);
	cJSON_AddNumberToObject(line, "runs", (double)polluter_first_runs(q->search));
	cJSON_AddNumberToObject(line, "search_runs", (double)polluter_runs(q->search));
	if (command != NULL)
		cJSON_AddStringToObject(line, "command", command);
	cJSON_AddItemToObject(line, "polluters", order_polluters_json(q));
	sweep_journal_check(s, journal_write(s->journal, line));
	cJSON_Delete(line);
	for (i = 0; (name = polluter_nth(q->search, i, &seed)) != NULL; i++)
		sweep_message(s, _("%s fails after %s under seed %s (%lld runs to find it)"), t->id,
		              name, seed, (long long)polluter_runs(q->search));
}

/* Forgets the commands of the last search's polluters. */
static void
order_forget_commands(struct sweep_order *q)
{
	util_strv_free_n(q->commands, (int)q->ncommands);
	q->commands = NULL;
	q->ncommands = 0;
}

bool
order_next(struct sweep *s)
{
	struct sweep_order *q = &s->order;
	char *const *tests;

	for (;;) {
		struct results_test *t;

		if (q->search == NULL) {
			while (q->next < s->results->ntests &&
			       !order_wants(s, &s->results->tests[q->next]))
				q->next++;
			if (q->next >= s->results->ntests)
				return false;
			q->test = q->next++;
			t = &s->results->tests[q->test];
			free(q->seed);
			q->seed = xstrdup(t->first->seed);
			q->search = polluter_new(t->test, q->seed, s->driver->subtests);
		}
		t = &s->results->tests[q->test];
		if (polluter_next(q->search, &tests)) {
			order_probe(s, t, tests);
			return true;
		}
		order_record(s, t);
		polluter_free(q->search);
		q->search = NULL;
		order_forget_commands(q);
	}
}

void
order_feed(struct sweep *s, const struct plan_pair *probe, const int *cpus, const struct outcome *o)
{
	struct sweep_order *q = &s->order;
	struct driver_run dr;
	char *command = NULL;

	if (q->search == NULL)
		return;
	polluter_feed(q->search, o);
	if (polluter_count(q->search) == q->ncommands)
		return;
	/* The probe found a polluter: it ran the pair under its seed. */
	if (probe->run_re != NULL) {
		memset(&dr, 0, sizeof dr);
		dr.cpu = probe->cpu;
		dr.timeout_ms = s->o->timeout_ms;
		dr.seed = probe->seed;
		dr.run_re = probe->run_re;
		command = s->driver->reproduce(s->pkgs[probe->pkg], &dr, cpus, 1);
	}
	q->commands = xrealloc(q->commands, sizeof *q->commands * (q->ncommands + 1));
	q->commands[q->ncommands++] = command;
}

void
order_free(struct sweep *s)
{
	struct sweep_order *q = &s->order;
	size_t i;

	polluter_free(q->search);
	for (i = 0; i < q->nprobes; i++) {
		free((char *)q->probes[i]->seed);
		free(q->probes[i]->run_re);
		free(q->probes[i]);
	}
	free(q->probes);
	free(q->seed);
	order_forget_commands(q);
	memset(q, 0, sizeof *q);
}
