/* SPDX-License-Identifier: MIT */
/*
 * budget-forecast.c: a budget's first count from the plan (see
 * budget-forecast.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine/budget-forecast.h"
#include "engine/forecast.h"
#include "engine/shard.h"
#include "results/results-json.h"
#include "base/util.h"

/* The two counts played: the line through them gives the rest. */
#define BUDGET_FORECAST_LOW 4
#define BUDGET_FORECAST_HIGH 8

/* The sweep phase's wall time, in seconds, at count; < 0 when it cannot
 * be played. */
static double
budget_forecast_wall(struct forecast_input *in, int count)
{
	struct forecast f;
	char *err = NULL;
	double wall;

	in->count = count;
	if (forecast_run(in, &f, &err) < 0) {
		free(err);
		return -1;
	}
	wall = f.sweep.wall_s;
	forecast_free(&f);
	return wall;
}

/* Adds the packages r does not know, after its own. */
static void
budget_forecast_new_pkgs(struct results *r, struct pkg *const *pkgs, size_t npkgs)
{
	size_t i, k;

	for (i = 0; i < npkgs; i++) {
		if (!pkgs[i]->build_ok || pkgs[i]->empty)
			continue;
		for (k = 0; k < r->npkgs && (strcmp(r->pkgs[k].name, pkgs[i]->name) != 0 ||
		                             strcmp(r->pkgs[k].level, pkgs[i]->level) != 0);
		     k++)
			;
		if (k == r->npkgs)
			results_add_pkg(r, pkgs[i]->name, pkgs[i]->level);
	}
}

int
budget_forecast_count(const struct options *o, int cores, struct pkg *const *pkgs, size_t npkgs,
                      int64_t left_ms)
{
	struct forecast_input in;
	struct results *r = NULL;
	double low, high, slope, n = 0;
	char *path, *err = NULL;
	int rc;

	if (o->durations == NULL)
		return 0;
	path = shard_durations_path(o->durations);
	rc = results_load(path, &r, NULL, &err);
	free(path);
	free(err);
	if (rc < 0)
		return 0;
	memset(&in, 0, sizeof in);
	in.measured = r->npkgs;
	budget_forecast_new_pkgs(r, pkgs, npkgs);
	in.cores = cores;
	in.keep = o->keep;
	in.cpus = o->cpus;
	in.ncpus = o->ncpus;
	in.loads = o->loads;
	in.nloads = o->nloads;
	in.run = o->run_re != NULL;
	in.canaries = o->canaries;
	in.durations = r;
	low = budget_forecast_wall(&in, BUDGET_FORECAST_LOW);
	high = budget_forecast_wall(&in, BUDGET_FORECAST_HIGH);
	slope = (high - low) / (BUDGET_FORECAST_HIGH - BUDGET_FORECAST_LOW);
	if (low >= 0 && high >= 0 && slope > 0)
		n = floor(((double)left_ms / 1000 - (low - slope * BUDGET_FORECAST_LOW)) / slope);
	results_free(r);
	return n < 1 ? 0 : n > OPTIONS_COUNT_MAX ? OPTIONS_COUNT_MAX : (int)n;
}
