/* SPDX-License-Identifier: MIT */
/*
 * forecast-journal.c: the recorder of a plan's virtual sweep. The lanes
 * give the header (the settings, the machine of --cores N) and the build
 * lines; each run that ends gives a run line in which every test of its
 * package (a confirm run: its one test) passed, spawned and reaped at its
 * virtual start and end.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/timefmt.h"
#include "base/util.h"
#include "engine/forecast-journal.h"
#include "engine/lanes.h"
#include "engine/sweep-config.h"
#include "results/journal-header.h"
#include "results/journal.h"

struct forecast_journal {
	struct journal *j;
	const struct options *o;
	const struct forecast_input *in;
	struct pkg **pkgs;
	int64_t started_ms, runs;
	int rc; /* the first write that failed */
};

static void
forecast_journal_write(struct forecast_journal *fj, int rc)
{
	if (rc < 0 && fj->rc == 0)
		fj->rc = rc;
}

static void
forecast_journal_lanes(void *arg, const struct lanes *lanes)
{
	struct forecast_journal *fj = arg;
	const struct results *r = fj->in->durations;
	struct journal_header h;
	const char **levels = xcalloc(r->npkgs + 1, sizeof *levels);
	int nlevels = 0, i, k;
	size_t p;
	cJSON *line;

	memset(&h, 0, sizeof h);
	for (p = 0; p < r->npkgs; p++) {
		for (k = 0; k < nlevels && strcmp(levels[k], r->pkgs[p].level) != 0; k++)
			;
		if (k == nlevels)
			levels[nlevels++] = r->pkgs[p].level;
	}
	h.started_ms = fj->started_ms;
	h.simulated = true;
	sweep_config_from_options(&h.config, fj->o, levels, nlevels, NULL);
	free(levels);
	h.machine.cores = lanes->ncores;
	h.machine.keep = lanes->keep;
	h.machine.nlanes = lanes->nlanes;
	h.machine.width = lanes->width;
	h.machine.lanes =
	    xcalloc((size_t)(lanes->nlanes * lanes->width) + 1, sizeof *h.machine.lanes);
	for (i = 0; i < lanes->nlanes; i++)
		memcpy(h.machine.lanes + i * lanes->width, lanes->cores[i],
		       sizeof *h.machine.lanes * (size_t)lanes->width);
	h.project.driver = xstrdup(fj->o->driver);
	line = journal_header_encode(&h);
	forecast_journal_write(fj, journal_write(fj->j, line));
	cJSON_Delete(line);
	journal_header_free(&h);
	for (p = 0; p < r->npkgs; p++)
		forecast_journal_write(fj, journal_write_build(fj->j, (int)p, fj->pkgs[p]));
}

static void
forecast_journal_run(void *arg, const struct forecast_record *rec)
{
	struct forecast_journal *fj = arg;
	const struct results *r = fj->in->durations;
	struct journal_run jr;
	struct outcome o;
	size_t i;
	int k;

	memset(&jr, 0, sizeof jr);
	memset(&o, 0, sizeof o);
	jr.run = ++fj->runs;
	jr.pkg = rec->pair->pkg;
	jr.phase = rec->pair->phase;
	jr.cpu = rec->pair->cpu;
	jr.load = rec->pair->load;
	jr.lane = rec->lane;
	jr.ms = rec->ms;
	/* The virtual clock from the sweep's start, so a view rebuilds each
	 * lane's runs from them. */
	jr.began = fj->started_ms + rec->start_ms;
	jr.ended = jr.began + rec->ms;
	jr.selected = rec->pair->test;
	for (k = 0; k < rec->ncpus && k < JOURNAL_CORES_MAX; k++)
		jr.cores[jr.ncores++] = rec->cpus[k];
	for (i = 0; i < r->ntests; i++)
		if (r->tests[i].pkg == jr.pkg &&
		    (jr.selected == NULL || strcmp(r->tests[i].test, jr.selected) == 0))
			outcome_add(&o, xstrdup(r->tests[i].test), OUTCOME_PASS, NULL);
	forecast_journal_write(fj, journal_write_run(fj->j, &jr, &o));
	outcome_free(&o);
}

struct forecast_journal *
forecast_journal_new(const char *dir, const struct options *o, const struct forecast_input *in,
                     int64_t started_ms, struct forecast_recorder *rec, char **err)
{
	struct forecast_journal *fj;
	char *path;
	size_t i;

	if (util_mkdir_p(dir) < 0) {
		*err = xasprintf(_("cannot create %s: %s"), dir, strerror(errno));
		return NULL;
	}
	path = xasprintf("%s/journal.jsonl", dir);
	/* A fresh journal: an earlier one in DIR is replaced, not appended to. */
	if (unlink(path) < 0 && errno != ENOENT) {
		*err = xasprintf(_("cannot replace %s: %s"), path, strerror(errno));
		free(path);
		return NULL;
	}
	fj = xcalloc(1, sizeof *fj);
	fj->j = journal_open(path, err);
	free(path);
	if (fj->j == NULL) {
		free(fj);
		return NULL;
	}
	fj->o = o;
	fj->in = in;
	fj->pkgs = forecast_pkgs(in);
	/* No directory of this machine holds a simulated package. */
	for (i = 0; i < in->durations->npkgs; i++)
		fj->pkgs[i]->dir = xstrdup("");
	/* The header says the start to the second: the runs' clock starts
	 * there too. */
	fj->started_ms = started_ms - started_ms % 1000;
	rec->lanes = forecast_journal_lanes;
	rec->run = forecast_journal_run;
	rec->arg = fj;
	return fj;
}

int
forecast_journal_finish(struct forecast_journal *fj, int64_t finished_ms, char **err)
{
	cJSON *end = cJSON_CreateObject();
	char when[40];
	int rc;

	cJSON_AddStringToObject(end, "type", "end");
	cJSON_AddStringToObject(end, "status", "complete");
	timefmt_format_rfc3339(finished_ms, when, sizeof when);
	cJSON_AddStringToObject(end, "finished", when);
	forecast_journal_write(fj, journal_write(fj->j, end));
	cJSON_Delete(end);
	forecast_journal_write(fj, journal_flush(fj->j));
	rc = fj->rc;
	if (rc < 0)
		*err = xasprintf(_("cannot write the simulated journal: %s"), strerror(-rc));
	journal_close(fj->j);
	driver_free_pkgs(fj->pkgs, fj->in->durations->npkgs);
	free(fj);
	return rc;
}

void
forecast_journal_abandon(struct forecast_journal *fj, const char *dir)
{
	char *path = xasprintf("%s/journal.jsonl", dir);

	journal_close(fj->j);
	unlink(path);
	free(path);
	driver_free_pkgs(fj->pkgs, fj->in->durations->npkgs);
	free(fj);
}
