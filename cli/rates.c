/* SPDX-License-Identifier: MIT */
/*
 * rates.c: the options and inputs compare, verify and bisect share (see
 * rates.h). It prints its own errors, one line each.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "cmd.h"
#include "rates.h"
#include "engine/options.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "results/results-json.h"
#include "results/results.h"

int
rates_set(struct compare_options *co, int id, const char *value)
{
	static const char *const names[] = {"level", "margin", "alpha"};
	double *slot, v;
	char *end;

	switch (id) {
	case RATES_LEVEL:
		slot = &co->level;
		break;
	case RATES_MARGIN:
		slot = &co->margin;
		break;
	case RATES_ALPHA:
		slot = &co->alpha;
		break;
	default:
		return 0;
	}
	errno = 0;
	v = strtod(value, &end);
	if (errno != 0 || end == value || *end != '\0' || !(v > 0 && v <= 1)) {
		sanitize_fprintf(stderr,
		                 _("flakesweep: --%s %s: expected a number above 0, at most 1\n"),
		                 names[id - RATES_LEVEL], value);
		return -1;
	}
	*slot = v;
	return 1;
}

/* Whether path begins as a journal does: its header line. */
static bool
rates_is_journal(const char *path)
{
	static const char head[] = "{\"type\":\"header\"";
	char buf[sizeof head - 1];
	FILE *f = fopen(path, "r");
	bool yes = f != NULL && fread(buf, 1, sizeof buf, f) == sizeof buf &&
	           memcmp(buf, head, sizeof buf) == 0;

	if (f != NULL)
		fclose(f);
	return yes;
}

struct results *
rates_load_project(const char *arg, cJSON **project)
{
	struct results_meta m = {0};
	struct results *r = NULL;
	struct stat st;
	char *path, *err = NULL;

	path = stat(arg, &st) == 0 && S_ISDIR(st.st_mode) ? xasprintf("%s/results.json", arg)
	                                                  : xstrdup(arg);
	if (results_load(path, &r, project != NULL ? &m : NULL, &err) < 0) {
		if (rates_is_journal(path))
			sanitize_fprintf(
			    stderr,
			    _("flakesweep: %s is a sweep's journal: give its results.json, "
			      "or the directory that holds them\n"),
			    path);
		else
			sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
	}
	if (project != NULL) {
		*project = m.project;
		m.project = NULL;
		results_meta_free(&m);
	}
	free(path);
	return r;
}

struct results *
rates_load(const char *arg)
{
	return rates_load_project(arg, NULL);
}

enum {
	RATES_TEST = 3000,
	RATES_RESULTS,
	RATES_GOOD,
	RATES_BAD,
	RATES_BUDGET,
};

static const struct cli_option rates_seq_options[] = {
    {"test", true, RATES_TEST}, {"results", true, RATES_RESULTS}, {"good", true, RATES_GOOD},
    {"bad", true, RATES_BAD},   {"budget", true, RATES_BUDGET},   RATES_OPTIONS,
    {NULL, false, 0},
};

static int
rates_seq_set(void *arg, int id, const char *value)
{
	struct rates_seq *a = arg;
	char *end;

	switch (id) {
	case RATES_TEST:
		a->test = value;
		return 0;
	case RATES_RESULTS:
		a->results = value;
		return 0;
	case RATES_GOOD:
		a->good = value;
		return 0;
	case RATES_BAD:
		a->bad = value;
		return 0;
	case RATES_BUDGET:
		errno = 0;
		a->budget = strtoll(value, &end, 10);
		if (errno != 0 || end == value || *end != '\0' || a->budget < 1 ||
		    a->budget > OPTIONS_COUNT_MAX) {
			sanitize_fprintf(stderr,
			                 _("flakesweep: --budget %s: expected a positive whole "
			                   "number, at most 100000000\n"),
			                 value);
			return 2;
		}
		return 0;
	}
	return rates_set(&a->co, id, value) < 0 ? 2 : 0;
}

int
rates_seq_parse(struct rates_seq *a, struct options *o, int argc, char **argv, const char *name,
                void (*usage)(FILE *f))
{
	struct cli c = {rates_seq_options, rates_seq_set, a, 0, 0, NULL, NULL};
	const struct cmd_stress_host host = {rates_seq_options, name, usage};

	memset(a, 0, sizeof *a);
	a->budget = 1000;
	compare_options_default(&a->co);
	options_init(o);
	return cmd_stress_parse_after(&c, o, argc, argv, &host);
}

void
rates_seq_package(struct options *o, const char *package)
{
	if (strcmp(o->driver, "go") == 0 && o->npackages == 0 && package != NULL)
		options_add_package(o, package);
}
