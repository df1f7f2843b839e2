/* SPDX-License-Identifier: MIT */
/*
 * sweep.c: a sweep's life: it is made (options, output directory,
 * journal, lanes), started fresh (discover, then build.c's build phase) or
 * resumed from its journal, paused, stopped and freed. The engine is a
 * pipeline: plan.c plans each phase's pairs, sched-core.c schedules them,
 * sweep-exec.c carries out its decisions, run.c spawns and collects one
 * run, the journal and sweep-end.c record. None of those parts calls back
 * into this file. It never draws anything: front ends get the observer's
 * callbacks; the state the parts share is in sweep-int.h.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/journal.h"
#include "engine/budget.h"
#include "engine/exclusive.h"
#include "engine/canary.h"
#include "engine/control.h"
#include "engine/lanes.h"
#include "engine/noise.h"
#include "engine/plan.h"
#include "engine/sched.h"
#include "engine/status.h"
#include "engine/proc.h"
#include "drivers/project.h"
#include "decisions/quarantine.h"
#include "results/replay.h"
#include "results/report-keep.h"
#include "results/report.h"
#include "results/results-json.h"
#include "base/sanitize.h"
#include "engine/sweep-config.h"
#include "engine/shard.h"
#include "engine/sweep.h"
#include "engine/outdir.h"
#include "engine/run-env.h"
#include "engine/sweep-int.h"
#include "base/timefmt.h"
#include "base/util.h"

/* The variables of flakesweep's own environment that change what a build
 * or a run does, so a reproduce line can set them in a fresh shell; the
 * driver adds its own (driver.repro_env). */
static const char *const sweep_repro_env[] = {
    "GOPATH",      "GO111MODULE",  "GOFLAGS",     "GOWORK",
    "GOTOOLCHAIN", "GOEXPERIMENT", "CGO_ENABLED", NULL,
};

/* The machine as the header records it: this sweep's lanes. */
static void
sweep_header_machine(const struct sweep *s, struct journal_machine *m)
{
	char host[256];
	int i;

	free(m->lanes);
	free(m->host);
	m->host = gethostname(host, sizeof host) == 0 ? xstrndup(host, sizeof host) : NULL;
	m->cores = s->lanes.ncores;
	m->keep = s->lanes.keep;
	m->nlanes = s->lanes.nlanes;
	m->width = s->lanes.width;
	m->lanes = xcalloc((size_t)(m->nlanes * m->width) + 1, sizeof *m->lanes);
	for (i = 0; i < m->nlanes; i++)
		memcpy(m->lanes + i * m->width, s->lanes.cores[i],
		       sizeof *m->lanes * (size_t)m->width);
}

/* The header of a fresh sweep: its options, the levels discovery found,
 * this machine and the project. */
static void
sweep_header(const struct sweep *s, struct journal_header *h)
{
	const char **levels = xcalloc(s->npkgs + 1, sizeof *levels);
	int nlevels = 0, k;
	size_t i;

	memset(h, 0, sizeof *h);
	for (i = 0; i < s->npkgs; i++) {
		for (k = 0; k < nlevels && strcmp(levels[k], s->pkgs[i]->level) != 0; k++)
			;
		if (k == nlevels)
			levels[nlevels++] = s->pkgs[i]->level;
	}
	h->started_ms = s->started_ms;
	sweep_config_from_options(&h->config, s->o, levels, nlevels,
	                          s->quarantine != NULL ? s->quarantine->path : NULL);
	free(levels);
	sweep_header_machine(s, &h->machine);
	h->project.driver = xstrdup(s->driver->name);
	h->project.root = s->proj.root != NULL ? xstrdup(s->proj.root) : NULL;
	h->project.commit = s->proj.commit != NULL ? xstrdup(s->proj.commit) : NULL;
	h->project.toolchain = s->proj.toolchain != NULL ? xstrdup(s->proj.toolchain) : NULL;
	h->project.origin = s->proj.origin != NULL ? xstrdup(s->proj.origin) : NULL;
	h->project.dirty = s->proj.dirty;
	sweep_config_keep_env(&h->config, sweep_repro_env);
	sweep_config_keep_env(&h->config, s->driver->repro_env);
}

/* Reads the quarantine file: --quarantine FILE, else the project's default
 * one if it exists. Quarantined tests are still swept; the file only marks
 * them in the results. A file with errors is reported and kept: its valid
 * entries still count. */
static int
sweep_load_quarantine(struct sweep *s, const char *given, char **err)
{
	char *path = given != NULL ? xstrdup(given) : quarantine_default_path(), *lerr = NULL;
	size_t i;
	int rc;

	rc = quarantine_load(path, &s->quarantine, &lerr);
	if (rc == -ENOENT && given == NULL) {
		free(lerr);
		free(path);
		return 0;
	}
	if (rc < 0) {
		*err = lerr;
		free(path);
		return -1;
	}
	free(lerr);
	free(path);
	for (i = 0; i < s->quarantine->nproblems; i++)
		sweep_message(s, "%s", s->quarantine->problems[i].message);
	return 0;
}

/* Withholds the GitHub token variables and the --scrub-env names from
 * every child, so none sees them: not go list, not a build, not a
 * listing's TestMain, not a run. A test printing its environment would
 * record a token in the output directory, and a report could post it.
 * flakesweep's own environment keeps them: a dashboard that started
 * confirm runs still posts with the token. */
static void
sweep_scrub_environ(const struct options *o)
{
	size_t i;

	proc_withhold_tokens();
	for (i = 0; i < (size_t)o->nscrub_env; i++)
		proc_withhold_env(o->scrub_env[i]);
}

static int
sweep_plan_lanes(struct sweep *s, char **err)
{
	cpu_set_t allowed;
	int rc;

	if ((rc = lanes_machine(&allowed)) < 0) {
		*err = xasprintf("sched_getaffinity: %s", strerror(-rc));
		return -1;
	}
	if (lanes_for_sweep(&allowed, s->o->keep, &s->o->cpus, &s->o->ncpus, &s->lanes, err) < 0)
		return -1;
	s->build_parallel = CPU_COUNT(&allowed);
	return 0;
}

struct sweep *
sweep_new(uv_loop_t *loop, struct options *o, const struct observer *obs, char **err)
{
	struct sweep *s = xcalloc(1, sizeof *s);
	char *jpath = NULL, *dir, *exe;
	size_t i;

	*err = NULL;
	s->loop = loop;
	s->o = o;
	if (obs != NULL)
		s->obs = *obs;
	s->results = results_new();
	s->json_cache = report_keep_new();
	s->started_ms = util_now_ms();
	s->noise = noise_new(NULL);
	exe = realpath("/proc/self/exe", NULL);
	s->canary_program =
	    canary_program_for(exe != NULL ? exe : "/proc/self/exe", BINDIR, PKGLIBDIR);
	free(exe);
	if (o->resume != NULL) {
		const struct journal_header *h;
		char *diff;

		s->outdir = xstrdup(o->resume);
		jpath = xasprintf("%s/journal.jsonl", s->outdir);
		if (replay_journal(jpath, &s->replay, err) < 0)
			goto fail;
		h = &s->replay.header;
		diff = sweep_config_diff(o, &h->config);
		if (diff != NULL && !o->force) {
			*err = xasprintf(_("%s was swept with other settings (%s ); rerun without "
			                   "them, or add --force"),
			                 s->outdir, diff);
			free(diff);
			goto fail;
		}
		free(diff);
		sweep_config_to_options(&h->config, o);
		for (i = 0; i < s->replay.nmask_env; i++)
			options_add_mask_env(o, s->replay.mask_env[i]);
		for (i = 0; i < s->replay.nscrub_env; i++)
			options_add_scrub_env(o, s->replay.scrub_env[i]);
		/* The cores kept back stay as many: container levels pin
		 * their containers there. Where they and the widest run do
		 * not fit, the refusal says what the header asks. */
		if (o->keep < 0) {
			cpu_set_t allowed;

			o->keep = h->machine.keep;
			if (lanes_machine(&allowed) == 0 &&
			    (*err = sweep_config_cores_short(h, s->outdir, CPU_COUNT(&allowed))) !=
			        NULL)
				goto fail;
		}
		/* Discovery, when the sweep died before it was recorded, runs
		 * where the sweep ran. */
		if (h->project.root != NULL) {
			free(o->dir);
			o->dir = xstrdup(h->project.root);
		}
		s->resumed = true;
		s->started_ms = s->replay.started_ms ? s->replay.started_ms : s->started_ms;
	} else {
		s->outdir = o->outdir != NULL ? xstrdup(o->outdir) : outdir_default();
		jpath = xasprintf("%s/journal.jsonl", s->outdir);
		if (access(jpath, F_OK) == 0) {
			*err =
			    xasprintf(_("%s already holds a sweep: use --resume %s, or another -o"),
			              s->outdir, s->outdir);
			goto fail;
		}
		if (outdir_check_new(s->outdir, err) < 0)
			goto fail;
	}
	/* After --resume has added the header's --mask-env and --scrub-env
	 * names, before any child runs. */
	sweep_scrub_environ(o);
	sweep_secrets_begin(s);
	s->driver = driver_find(o->driver);
	if (s->driver == NULL) {
		*err = xasprintf(_("unknown driver %s"), o->driver);
		goto fail;
	}
	if (sweep_plan_lanes(s, err) < 0)
		goto fail;
	s->quiet_waiting = xcalloc((size_t)s->lanes.nlanes + 1, sizeof *s->quiet_waiting);
	if (sweep_load_quarantine(s, o->quarantine, err) < 0)
		goto fail;
	if (!s->resumed)
		s->outdir_made = outdir_missing(s->outdir);
	dir = xasprintf("%s/runs", s->outdir);
	if (util_mkdir_p(dir) < 0) {
		*err = xasprintf(_("cannot create %s: %s"), dir, strerror(errno));
		free(dir);
		goto fail;
	}
	free(dir);
	/* Runs start in their package's directory: every path handed to them
	 * (binaries, TMPDIR) must be absolute. */
	dir = realpath(s->outdir, NULL);
	if (dir == NULL) {
		*err = xasprintf(_("cannot resolve %s: %s"), s->outdir, strerror(errno));
		goto fail;
	}
	free(s->outdir);
	s->outdir = dir;
	outdir_ignore(s->outdir);
	free(jpath);
	jpath = xasprintf("%s/journal.jsonl", s->outdir);
	dir = xasprintf("%s/bin", s->outdir);
	util_mkdir_p(dir);
	free(dir);
	dir = xasprintf("%s/tmp", s->outdir);
	util_mkdir_p(dir);
	s->tmp_pool = tmpdir_pool_new(dir);
	free(dir);
	/* --resume has just read it whole. */
	s->journal = s->resumed ? journal_open_read(jpath, s->replay.tail, s->replay.torn, err)
	                        : journal_open(jpath, err);
	if (s->journal == NULL)
		goto fail;
	free(jpath);
	sweep_init_timers(s);
	return s;
fail:
	free(jpath);
	s->finished = true;
	sweep_free(s);
	return NULL;
}

/* --shard I/N: keeps the packages of shard I, and records its buckets.
 * The header's levels stay those of every shard. */
static int
sweep_shard(struct sweep *s, char **err)
{
	struct shard_plan p;

	if (shard_plan_make(&p, s->o->shard_count, s->o->durations, err) < 0)
		return -1;
	shard_plan_warn(&p, s->o->durations, s->pkgs, s->npkgs);
	s->hdr.config.shard_buckets =
	    shard_plan_buckets(&p, s->o->shard_index, &s->hdr.config.nshard_buckets);
	shard_plan_free(&p);
	shard_select(s->pkgs, &s->npkgs, s->hdr.config.shard_buckets, s->hdr.config.nshard_buckets);
	return 0;
}

static int
sweep_start_fresh(struct sweep *s, char **err)
{
	size_t i;

	sweep_set_phase(s, SWEEP_PHASE_DISCOVER);
	if (s->driver->discover(s->o, &s->proj, &s->pkgs, &s->npkgs, err) < 0)
		return -1;
	for (i = 0; i < s->proj.nwarnings; i++)
		sweep_message(s, "%s", s->proj.warnings[i]);
	*err = exclusive_unmatched(s->o->exclusive, s->o->nexclusive, s->o->dir, s->pkgs, s->npkgs);
	if (*err != NULL)
		return -1;
	sweep_header(s, &s->hdr);
	if (levels_load(s->proj.root != NULL ? s->proj.root : ".", &s->hdr.config.level_config,
	                err) < 0)
		return -1;
	if (s->o->shard_count > 0 && sweep_shard(s, err) < 0)
		return -1;
	s->header = journal_header_encode(&s->hdr);
	sweep_harness_on(s);
	if (journal_write(s->journal, s->header) < 0) {
		*err = xasprintf(_("cannot write the journal in %s"), s->outdir);
		return -1;
	}
	sweep_set_phase(s, SWEEP_PHASE_BUILD);
	build_next(s);
	return 0;
}

static int
sweep_start_resumed(struct sweep *s, char **err)
{
	const struct journal_project *project = &s->replay.header.project;
	char *mark;
	size_t i;
	int killed = 0;

	if (project->root != NULL) {
		struct project_git g;

		if (project_git_find(project->root, &g) == 0 && g.commit != NULL &&
		    project->commit != NULL && strcmp(g.commit, project->commit) != 0 &&
		    !s->o->force) {
			*err = xasprintf(_("the project is at commit %s, the journal at %s: "
			                   "add --force to resume anyway"),
			                 g.commit, project->commit);
			project_git_free(&g);
			return -1;
		}
		project_git_free(&g);
		s->proj.root = xstrdup(project->root);
	}
	for (i = 0; i < s->replay.nunfinished; i++)
		killed += proc_kill_stale(s->replay.unfinished[i].pid,
		                          s->replay.unfinished[i].start_ticks);
	/* Daemons of those runs left their groups; their TMPDIR names them. */
	mark = xasprintf("TMPDIR=%s/tmp/", s->outdir);
	killed += proc_kill_by_env(mark, true, false);
	free(mark);
	if (killed > 0)
		sweep_message(s, _("killed %d processes left behind by the interrupted sweep"),
		              killed);
	if (s->replay.torn)
		sweep_message(s, _("the journal's last line was torn and is ignored"));
	for (i = 0; i < s->replay.run_ids.nwarnings; i++)
		sweep_message(s, "%s", s->replay.run_ids.warnings[i]);
	/* The resumed sweep's machine is this one. */
	s->hdr = s->replay.header;
	memset(&s->replay.header, 0, sizeof s->replay.header);
	sweep_header_machine(s, &s->hdr.machine);
	s->header = journal_header_encode(&s->hdr);
	results_free(s->results);
	s->results = s->replay.results;
	s->replay.results = NULL;
	s->next_run = s->replay.max_run;
	s->next_canary = s->replay.max_canary;
	sweep_resume_line(s);
	if (s->replay.npkgs == 0) {
		/* The sweep died while building: discover and build again, in
		 * the recorded root (o->dir), which discovery finds anew. */
		results_free(s->results);
		s->results = results_new();
		driver_free_project(&s->proj);
		if (s->driver->discover(s->o, &s->proj, &s->pkgs, &s->npkgs, err) < 0)
			return -1;
		if (s->hdr.config.shard_count > 0)
			shard_select(s->pkgs, &s->npkgs, s->hdr.config.shard_buckets,
			             s->hdr.config.nshard_buckets);
		sweep_set_phase(s, SWEEP_PHASE_BUILD);
		build_next(s);
		return 0;
	}
	s->pkgs = s->replay.pkgs;
	s->npkgs = s->replay.npkgs;
	s->replay.pkgs = NULL;
	s->replay.npkgs = 0;
	for (i = 0; i < s->npkgs; i++) {
		if (s->pkgs[i]->build_ok && !s->pkgs[i]->empty && s->pkgs[i]->binary != NULL &&
		    access(s->pkgs[i]->binary, X_OK) < 0) {
			*err = xasprintf(_("%s is gone: the sweep cannot resume without its test "
			                   "binaries"),
			                 s->pkgs[i]->binary);
			return -1;
		}
	}
	sweep_watch_containers(s);
	/* The images were built before the sweep was interrupted. */
	sweep_envs_find(s);
	sweep_begin_sweep(s);
	return 0;
}

int
sweep_start(struct sweep *s, char **err)
{
	bool interrupted;
	int rc;

	*err = NULL;
	proc_become_subreaper();
	proc_raise_fd_limit();
	sweep_start_timers(s);
	rc = s->resumed ? sweep_start_resumed(s, err) : sweep_start_fresh(s, err);
	if (rc == 0)
		return 0;
	/* A signal that stopped discovery interrupted it: not an error. */
	interrupted = proc_interrupted() != 0;
	if (interrupted) {
		free(*err);
		*err = NULL;
	} else {
		s->infra_error = true;
	}
	sweep_finish(s, "interrupted");
	if (!interrupted)
		s->exit_status = 2;
	if (!s->resumed && s->header == NULL)
		outdir_undo(s->outdir, s->outdir_made);
	return interrupted ? 0 : rc;
}
void
sweep_stop(struct sweep *s)
{
	if (s->finished || s->interrupting || s->phase < SWEEP_PHASE_SWEEP)
		return;
	s->stopped = true;
	sweep_interrupt(s);
}

void
sweep_pause(struct sweep *s, bool paused)
{
	if (sweep_sched(s) == NULL)
		return;
	sched_pause(sweep_sched(s), paused);
	if (!paused)
		sweep_drive(s);
}

const char *
sweep_end_status(const struct sweep *s)
{
	return s->end_status;
}

int
sweep_exit_status(const struct sweep *s)
{
	return s->exit_status;
}

void
sweep_free(struct sweep *s)
{
	size_t i;

	if (s == NULL)
		return;
	control_close(s->control);
	free(s->reopen_test);
	for (i = 0; i < s->nlive; i++)
		run_free(s->live[i]);
	free(s->live);
	sched_core_free(s->core);
	free(s->pkg_capped);
	order_free(s);
	budget_free(s);
	journal_close(s->journal);
	quarantine_free(s->quarantine);
	noise_free(s->noise);
	tmpdir_pool_free(s->tmp_pool);
	run_env_free(s->run_env[0]);
	run_env_free(s->run_env[1]);
	for (i = 0; s->watch != NULL && i < s->npkgs; i++)
		workdir_watch_free(s->watch[i]);
	free(s->watch);
	free(s->quiet_waiting);
	sweep_envs_free(s);
	free(s->canary_program);
	sweep_secrets_end(s);
	cJSON_Delete(s->header);
	journal_header_free(&s->hdr);
	driver_free_pkgs(s->pkgs, s->npkgs);
	results_free(s->results);
	report_keep_free(s->json_cache);
	replay_free(&s->replay);
	lanes_free(&s->lanes);
	driver_free_project(&s->proj);
	free(s->outdir);
	free(s);
}
