/* SPDX-License-Identifier: MIT */
/*
 * cmd-plan.c: `flakesweep plan`, a sweep's run phases predicted for a
 * machine of --cores N from the run times of an earlier results.json
 * (--durations), with no test run: the lanes, the runs and wall time of
 * each phase, how busy the cores are and when the night ends, as text or
 * as JSON (--json). The work is engine/forecast.c's.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonw.h"
#include "base/sanitize.h"
#include "base/timefmt.h"
#include "base/util.h"
#include "cli.h"
#include "cmd.h"
#include "drivers/driver.h"
#include "engine/forecast-journal.h"
#include "engine/forecast.h"
#include "engine/lanes.h"
#include "results/replay.h"
#include "results/results-json.h"

/* Plan's own options, taken out of the command line before the rest is
 * read as a sweep's (cmd_stress_parse): --durations is the file the plan
 * reads its run times from, not a sweep's shard weights. */
#define CMD_PLAN_CORES 1000
#define CMD_PLAN_SPAWN_MS 1001

static const struct cli_option cmd_plan_options[] = {
    {"cores", true, CMD_PLAN_CORES},
    {"durations", true, OPTIONS_DURATIONS},
    {"spawn-ms", true, CMD_PLAN_SPAWN_MS},
    {NULL, false, 0},
};

struct cmd_plan {
	struct options o;
	int cores;
	const char *durations; /* into o once the sweep's options are read */
	double spawn_ms;       /* --spawn-ms: the loop's time a run; 0: not modelled */
};

static void
cmd_plan_usage(FILE *f)
{
	fputs(_("Usage: flakesweep plan --cores N --durations FILE [OPTIONS] [PACKAGES...]\n"
	        "\n"
	        "Predicts a sweep on a machine of N cores from the run times an earlier\n"
	        "results.json measured, with the scheduler a sweep uses and no test run:\n"
	        "its lanes, the runs and wall time of each phase, the share of the usable\n"
	        "cores kept busy and when the night ends.\n"
	        "\n"
	        "It takes a sweep's command line (flakesweep --help), so plan can go in\n"
	        "front of one; what the plan does not model is said on standard error.\n"
	        "\n"
	        "Options:\n"
	        "  --cores N          the machine's cores (default: this machine's)\n"
	        "  --durations FILE   an earlier results.json: packages, run times, failures\n"
	        "  --spawn-ms MS      the loop's own time to start a run (default 0: none)\n"
	        "  --cpu LIST, --load LIST, --count N, --confirm N, --keep N, --run RE,\n"
	        "  --canaries PERCENT and the other options of a sweep, as for a sweep\n"
	        "  --json             print the plan as JSON (man 5 flakesweep)\n"
	        "  -o DIR             write the virtual sweep to DIR as a simulated sweep\n"
	        "                     (journal.jsonl, results.json) that view opens\n"
	        "  --help             print this help\n"),
	      f);
}

static int
cmd_plan_set(void *arg, int id, const char *value)
{
	struct cmd_plan *p = arg;
	char *end;
	long n;
	double ms;

	if (id == OPTIONS_DURATIONS) {
		p->durations = value;
		return 0;
	}
	if (id == CMD_PLAN_SPAWN_MS) {
		ms = strtod(value, &end);
		if (*value != '\0' && *end == '\0' && ms >= 0 && ms <= 1000) {
			p->spawn_ms = ms;
			return 0;
		}
		sanitize_fprintf(stderr,
		                 _("flakesweep: invalid value \"%s\" for --%s: expected %s\n"),
		                 value, "spawn-ms", _("milliseconds from 0 to 1000"));
		return 2;
	}
	n = strtol(value, &end, 10);
	if (*value != '\0' && *end == '\0' && n >= 1 && n <= 1024) {
		p->cores = (int)n;
		return 0;
	}
	sanitize_fprintf(stderr, _("flakesweep: invalid value \"%s\" for --%s: expected %s\n"),
	                 value, "cores", _("a whole number of cores from 1 to 1024"));
	return 2;
}

/* Reads plan's own options and then the rest as a sweep's into p.
 * Returns 0 to go on, 1 after --help, 2 after an error said on stderr. */
static int
cmd_plan_parse(struct cmd_plan *p, int argc, char **argv)
{
	struct cli c = {cmd_plan_options, cmd_plan_set, p, 0, 0, NULL, NULL};
	const struct cmd_stress_host host = {cmd_plan_options, "plan", cmd_plan_usage};
	int rc = cmd_stress_parse_after(&c, &p->o, argc, argv, &host);

	if (rc == 0 && p->durations != NULL)
		p->o.durations = xstrdup(p->durations);
	return rc;
}

/* What a sweep of o would do that the plan leaves out, said on stderr:
 * each option that changes the schedule in a way the plan does not model. */
static void
cmd_plan_left_out(const struct options *o)
{
	const struct {
		bool given;
		const char *option, *why;
	} left[] = {
	    {o->for_ms > 0 || o->until != NULL, o->for_ms > 0 ? "--for" : "--until",
	     N_("the plan runs --count runs a pair, not the runs a time budget chooses")},
	    {o->resume != NULL, "--resume", N_("the plan is of the whole sweep, not what is left")},
	    {o->shard_count > 0 || o->shard_plan, "--shard",
	     N_("the plan is of every package, not one shard's")},
	    {o->nexclusive > 0, "--exclusive", N_("the plan may run a group's runs two at a time")},
	    {o->lease_dir != NULL, "--lease-dir",
	     N_("the plan never waits for another sweep's lease")},
	    {o->quiet > 0, "--quiet",
	     N_("the plan's machine has no other work, so no lane is held for it")},
	};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(left); i++)
		if (left[i].given)
			fprintf(stderr, _("flakesweep: plan leaves out %s: %s\n"), left[i].option,
			        _(left[i].why));
}

static void
cmd_plan_json_phase(struct jsonw *w, const char *name, const struct forecast_phase *ph)
{
	jsonw_object(w, name);
	jsonw_int(w, "runs", ph->runs);
	jsonw_num(w, "wall_s", ph->wall_s);
	jsonw_num(w, "busy_core_s", ph->busy_core_s);
	jsonw_num(w, "utilisation", ph->utilisation);
	jsonw_end(w);
}

static void
cmd_plan_json(const struct forecast *f, const struct results *r, const char *ends, double spawn_ms)
{
	struct buf b;
	struct jsonw w;
	size_t i;

	buf_init(&b);
	jsonw_init(&w, &b);
	jsonw_object(&w, NULL);
	jsonw_int(&w, "cores", f->cores);
	jsonw_int(&w, "keep", f->keep);
	jsonw_int(&w, "lanes", f->nlanes);
	jsonw_int(&w, "lane_width", f->width);
	jsonw_int(&w, "runs", f->runs);
	jsonw_int(&w, "canary_runs", f->canary_runs);
	if (spawn_ms > 0) {
		jsonw_num(&w, "spawn_ms", spawn_ms);
		jsonw_num(&w, "spawn_s", f->spawn_s);
	}
	jsonw_num(&w, "wall_s", f->wall_s);
	jsonw_num(&w, "busy_core_s", f->busy_core_s);
	jsonw_num(&w, "usable_core_s", f->usable_core_s);
	jsonw_num(&w, "utilisation", f->utilisation);
	jsonw_str(&w, "ends", ends);
	jsonw_object(&w, "phases");
	cmd_plan_json_phase(&w, "sweep", &f->sweep);
	cmd_plan_json_phase(&w, "confirm", &f->confirm);
	jsonw_end(&w);
	jsonw_array(&w, "scaled");
	for (i = 0; i < f->nscaled; i++) {
		const struct forecast_scaled *s = &f->scaled[i];

		jsonw_object(&w, NULL);
		jsonw_str(&w, "package", r->pkgs[s->pkg].name);
		jsonw_int(&w, "cpu", s->cpu);
		jsonw_int(&w, "load", s->load);
		if (s->from_cpu > 0) {
			jsonw_int(&w, "from_cpu", s->from_cpu);
			jsonw_int(&w, "from_load", s->from_load);
		} else if (s->from_cpu < 0) {
			jsonw_bool(&w, "new", true);
		}
		jsonw_end(&w);
	}
	jsonw_end(&w);
	jsonw_end(&w);
	buf_adds(&b, "\n");
	fwrite(b.data, 1, b.len, stdout);
	buf_free(&b);
}

static bool
cmd_plan_same_scale(const struct forecast_scaled *a, const struct forecast_scaled *b)
{
	return a->cpu == b->cpu && a->load == b->load && a->from_cpu == b->from_cpu &&
	       a->from_load == b->from_load;
}

static void
cmd_plan_text(const struct forecast *f, const char *ends, double spawn_ms)
{
	size_t i;

	printf(_("machine: %d cores, %d kept, %d lanes of %d\n"), f->cores, f->keep, f->nlanes,
	       f->width);
	printf(_("sweep:   %lld runs in %.1f s, utilisation %.3f\n"), (long long)f->sweep.runs,
	       f->sweep.wall_s, f->sweep.utilisation);
	printf(_("confirm: %lld runs in %.1f s, utilisation %.3f\n"), (long long)f->confirm.runs,
	       f->confirm.wall_s, f->confirm.utilisation);
	printf(_("canaries: %lld runs\n"), (long long)f->canary_runs);
	if (spawn_ms > 0)
		printf(_("spawn:   %g ms a run on the one loop that starts them: %.1f s of it\n"),
		       spawn_ms, f->spawn_s);
	printf(_("wall:    %.1f s; cores busy %.1f of %.1f core-s: utilisation %.3f\n"), f->wall_s,
	       f->busy_core_s, f->usable_core_s, f->utilisation);
	printf(_("ends:    %s if it starts now\n"), ends);
	/* One line per measure taken for another pair, with the packages. */
	for (i = 0; i < f->nscaled; i++) {
		const struct forecast_scaled *s = &f->scaled[i];
		size_t j, n = 0;

		for (j = 0; j < i && !cmd_plan_same_scale(s, &f->scaled[j]); j++)
			;
		if (j < i)
			continue;
		for (j = i; j < f->nscaled; j++)
			n += cmd_plan_same_scale(s, &f->scaled[j]);
		if (s->from_cpu < 0)
			printf(
			    ngettext("new:     cpu %d load %d from the other packages' median (%zu "
			             "package not in the durations file)\n",
			             "new:     cpu %d load %d from the other packages' median (%zu "
			             "packages not in the durations file)\n",
			             n),
			    s->cpu, s->load, n);
		else if (s->from_cpu > 0)
			printf(
			    ngettext("scaled:  cpu %d load %d from cpu %d load %d (%zu package)\n",
			             "scaled:  cpu %d load %d from cpu %d load %d (%zu packages)\n",
			             n),
			    s->cpu, s->load, s->from_cpu, s->from_load, n);
		else
			printf(ngettext("scaled:  cpu %d load %d from the mean of every run: the "
			                "file has no durations (%zu package)\n",
			                "scaled:  cpu %d load %d from the mean of every run: the "
			                "file has no durations (%zu packages)\n",
			                n),
			       s->cpu, s->load, n);
	}
}

/* The packages the patterns name now (the driver's discovery: go list),
 * added to r after its own when r lacks them: new since the durations were
 * measured. Discovery that fails is said on stderr; the plan goes on with
 * r's packages. */
static void
cmd_plan_discover(struct options *o, struct results *r)
{
	const struct driver *d = driver_find(o->driver);
	struct project proj;
	struct pkg **pkgs = NULL;
	size_t npkgs = 0, i, k;
	char *err = NULL;

	memset(&proj, 0, sizeof proj);
	if (d == NULL || d->discover(o, &proj, &pkgs, &npkgs, &err) < 0) {
		sanitize_fprintf(stderr,
		                 _("flakesweep: cannot look the packages up (%s): the plan holds "
		                   "the packages of %s\n"),
		                 err != NULL ? err : o->driver, o->durations);
		free(err);
		driver_free_project(&proj);
		return;
	}
	for (i = 0; i < npkgs; i++) {
		for (k = 0; k < r->npkgs; k++)
			if (strcmp(r->pkgs[k].name, pkgs[i]->name) == 0 &&
			    strcmp(r->pkgs[k].level, pkgs[i]->level) == 0)
				break;
		if (k == r->npkgs)
			results_add_pkg(r, pkgs[i]->name, pkgs[i]->level);
	}
	driver_free_pkgs(pkgs, npkgs);
	driver_free_project(&proj);
}

static int
cmd_plan(int argc, char **argv)
{
	struct cmd_plan p;
	struct forecast_input in;
	struct forecast f;
	struct forecast_recorder rec;
	struct forecast_journal *fj = NULL;
	struct results *r = NULL;
	struct results_meta meta;
	cpu_set_t allowed;
	char *err = NULL, ends[40];
	size_t measured;
	int64_t now_ms;
	int rc = 2;

	memset(&p, 0, sizeof p);
	memset(&meta, 0, sizeof meta);
	options_init(&p.o);
	rc = cmd_plan_parse(&p, argc, argv);
	if (rc != 0) {
		rc = rc == 1 ? 0 : 2;
		goto out;
	}
	rc = 2;
	if (p.o.durations == NULL) {
		fputs(_("flakesweep: plan needs --durations FILE, the results.json of an earlier "
		        "sweep: its packages and their run times\n"),
		      stderr);
		goto out;
	}
	if (results_load(p.o.durations, &r, &meta, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		goto out;
	}
	if (r->npkgs == 0) {
		sanitize_fprintf(stderr, _("flakesweep: %s holds no package: nothing to plan\n"),
		                 p.o.durations);
		goto out;
	}
	measured = r->npkgs;
	if (p.o.npackages > 0)
		cmd_plan_discover(&p.o, r);
	cmd_plan_left_out(&p.o);
	if (p.cores == 0)
		p.cores = lanes_machine(&allowed) == 0 ? CPU_COUNT(&allowed) : 1;
	memset(&in, 0, sizeof in);
	in.cores = p.cores;
	in.keep = p.o.keep;
	in.cpus = p.o.cpus;
	in.ncpus = p.o.ncpus;
	in.loads = p.o.loads;
	in.nloads = p.o.nloads;
	in.count = p.o.count;
	in.confirm = p.o.confirm;
	in.run = p.o.run_re != NULL;
	in.canaries = p.o.canaries;
	in.spawn_us = (int64_t)(p.spawn_ms * 1000 + 0.5);
	in.durations = r;
	in.measured = measured;
	now_ms = util_now_ms();
	if (p.o.outdir != NULL &&
	    (fj = forecast_journal_new(p.o.outdir, &p.o, &in, now_ms, &rec, &err)) == NULL) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		goto out;
	}
	in.record = fj != NULL ? &rec : NULL;
	if (forecast_run(&in, &f, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		if (fj != NULL)
			forecast_journal_abandon(fj, p.o.outdir);
		goto out;
	}
	timefmt_format_rfc3339(now_ms + (int64_t)(f.wall_s * 1000), ends, sizeof ends);
	if (fj != NULL &&
	    (forecast_journal_finish(fj, now_ms + (int64_t)(f.wall_s * 1000), &err) < 0 ||
	     cmd_report_rebuild(p.o.outdir, REPLAY_SIMULATED) == 2)) {
		if (err != NULL)
			sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		forecast_free(&f);
		goto out;
	}
	if (p.o.json)
		cmd_plan_json(&f, r, ends, p.spawn_ms);
	else
		cmd_plan_text(&f, ends, p.spawn_ms);
	forecast_free(&f);
	rc = 0;
out:
	free(err);
	results_meta_free(&meta);
	results_free(r);
	options_free(&p.o);
	return rc;
}

const struct cmd_entry cmd_plan_entry = {"plan", cmd_plan};
