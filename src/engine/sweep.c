/* SPDX-License-Identifier: MIT */
/*
 * sweep.c: runs the phases of a sweep on the loop: discover, build every
 * package (unpinned) before the `built` barrier, sweep every (package,
 * cpu, load) pair, and after the `swept` barrier confirm each test that
 * failed, alone, at every pair. Each run is journaled when it finishes;
 * results.json is rewritten as the sweep goes. It never draws anything: front
 * ends get the observer's callbacks. One run lives in run.c, the build phase
 * in build.c; the state they share is in sweep-int.h.
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
#include "engine/budget.h"
#include "engine/sweep-int.h"
#include "base/timefmt.h"
#include "base/util.h"

#define SWEEP_FLUSH_MS 2000
#define SWEEP_FLUSH_SHARE 20
/* A journal that cannot be written (a full disk) is retried this often,
 * and the sweep stops with what it measured after waiting this long. */
#define SWEEP_JOURNAL_RETRY_MS 5000
#define SWEEP_JOURNAL_WAIT_MS (30 * 60 * 1000)
/* How often a lane that waits for quiet tries one run. */
#define SWEEP_QUIET_MS 1000

void
sweep_problem(struct sweep *s, enum observer_problem kind, const char *what, const char *fmt, ...)
{
	va_list ap;
	char *text;

	if (s->obs.problem == NULL)
		return;
	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	s->obs.problem(s->obs.arg, kind, what, text);
	free(text);
}

void
sweep_message(struct sweep *s, const char *fmt, ...)
{
	va_list ap;
	char *text;

	va_start(ap, fmt);
	text = xvasprintf(fmt, ap);
	va_end(ap);
	if (s->obs.message != NULL)
		s->obs.message(s->obs.arg, text);
	else
		sanitize_fprintf(stderr, "flakesweep: %s\n", text);
	free(text);
}

static void
sweep_journal_retry_cb(uv_timer_t *t)
{
	struct sweep *s = t->data;
	int rc = journal_flush(s->journal);

	if (rc == 0) {
		s->journal_blocked = false;
		uv_timer_stop(&s->journal_timer);
		sweep_message(s, "%s", _("the journal is written again: the sweep goes on"));
		sweep_check_phase(s);
		sweep_dispatch(s);
		return;
	}
	if (util_mono_ms() - s->journal_blocked_ms >= SWEEP_JOURNAL_WAIT_MS) {
		uv_timer_stop(&s->journal_timer);
		sweep_message(s,
		              _("the journal still cannot be written after %d minutes (%s): the "
		                "sweep stops with what it measured"),
		              SWEEP_JOURNAL_WAIT_MS / 60000, strerror(-rc));
		s->infra_error = true;
		sweep_interrupt(s);
	}
}

/* Takes what a journal write returned. A failed write (a full disk, most
 * often) leaves the lines pending in the journal: no run starts until a
 * retry writes them, so nothing measured is lost and the journal never
 * runs ahead of the results. */
void
sweep_journal_check(struct sweep *s, int rc)
{
	if (rc == 0 || s->journal_blocked || s->finished)
		return;
	s->journal_blocked = true;
	s->journal_blocked_ms = util_mono_ms();
	sweep_message(s,
	              _("cannot append to %s/journal.jsonl: %s; the sweep is paused and retries "
	                "every %d s (interrupt it to stop with what it measured; it stops by "
	                "itself after %d minutes)"),
	              s->outdir, strerror(-rc), SWEEP_JOURNAL_RETRY_MS / 1000,
	              SWEEP_JOURNAL_WAIT_MS / 60000);
	uv_timer_start(&s->journal_timer, sweep_journal_retry_cb, SWEEP_JOURNAL_RETRY_MS,
	               SWEEP_JOURNAL_RETRY_MS);
}

static const char *const sweep_phase_names[] = {"discover", "build", "sweep", "confirm", "done"};

static void
sweep_set_phase(struct sweep *s, enum sweep_phase phase)
{
	s->phase = phase;
	/* Phase lines time each phase (ms since the epoch), for the record and
	 * for bench/. */
	if (s->journal != NULL && s->header != NULL) {
		cJSON *line = cJSON_CreateObject();

		cJSON_AddStringToObject(line, "type", "phase");
		cJSON_AddStringToObject(line, "phase", sweep_phase_names[phase]);
		cJSON_AddNumberToObject(line, "at_ms", (double)util_now_ms());
		sweep_journal_check(s, journal_write(s->journal, line));
		cJSON_Delete(line);
	}
	if (s->obs.phase != NULL)
		s->obs.phase(s->obs.arg, phase);
}

/* ---- configuration, header ---- */

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

void
sweep_dispatch(struct sweep *s)
{
	if (s->sched != NULL && !s->interrupting && !s->finished && !s->journal_blocked)
		sched_dispatch(s->sched);
}

/* ---- phases ---- */

static void
sweep_free_sched(struct sweep *s)
{
	int64_t target, done;

	if (s->sched == NULL)
		return;
	/* The last progress line counts every phase. */
	plan_progress(&s->plan, &done, &target);
	s->prior_target += target;
	s->prior_done += done;
	sched_free(s->sched);
	s->sched = NULL;
	plan_free(&s->plan);
}

/* Ends a scheduled run: the scheduler frees its slot, the plan counts it. */
void
sweep_sched_finish(struct sweep *s, struct sched_run *sr, int64_t ms)
{
	struct plan_pair *p = sched_pair_data(s->sched, sr->pair);

	p->runs++;
	p->ms += ms;
	sched_finish(s->sched, sr, ms);
}

/* plan_added_cb: schedules what the plan added. */
static void
sweep_plan_added(void *arg, struct plan_pair *p, int extra)
{
	struct sweep *s = arg;
	int id, n = sched_npairs(s->sched);

	if (p->target > extra) {
		for (id = 0; id < n && sched_pair_data(s->sched, id) != p; id++)
			;
		sched_add_runs(s->sched, id, extra);
		return;
	}
	id = sched_add_pair(s->sched, p->cpu, p->load, p->target, p);
	if (p->pkg == PLAN_CANARY)
		sched_spread_pair(s->sched, id);
	else
		sched_pair_group(s->sched, id, p->pkg, p->phase == RESULTS_ALONE);
	if (p->pkg != PLAN_CANARY && sweep_containers_level(s, s->pkgs[p->pkg]))
		sched_cap_pair(s->sched, id);
	sweep_envs_schedule(s, id, p->pkg);
}

/* A new scheduler and plan for the next phase. */
static void
sweep_new_plan(struct sweep *s)
{
	struct plan_grid g = {
	    .cpus = s->o->cpus,
	    .loads = s->o->loads,
	    .ncpus = s->o->ncpus,
	    .nloads = s->o->nloads,
	    .count = s->o->count,
	    .confirm = s->o->confirm,
	    .run = s->o->run_re != NULL,
	    .levels = s->hdr.config.level_config,
	};

	sweep_free_sched(s);
	s->sched = sched_new(&s->lanes, run_start, s);
	sched_set_cap(s->sched, s->o->containers);
	plan_init(&s->plan, &g);
}

/* The results record the harness from the sweep phase on. */
static void
sweep_harness_on(struct sweep *s)
{
	s->results->harness.on = true;
	s->results->harness.budget = s->o->canaries;
}

void
sweep_begin_sweep(struct sweep *s)
{
	const char *kinds[CANARY_NKINDS];
	int k;

	for (k = 0; k < CANARY_NKINDS; k++)
		kinds[k] = canary_kind_name((enum canary_kind)k);
	sweep_harness_on(s);
	sweep_new_plan(s);
	plan_sweep(&s->plan, s->pkgs, s->npkgs, sweep_plan_added, s);
	plan_canaries(&s->plan, s->o->canaries, kinds, CANARY_NKINDS, sweep_plan_added, s);
	sweep_resume_count(s);
	sweep_set_phase(s, SWEEP_PHASE_SWEEP);
	budget_plan(s);
	sweep_dispatch(s);
	sweep_check_phase(s);
}

static void
sweep_begin_confirm(struct sweep *s)
{
	sweep_new_plan(s);
	plan_confirm(&s->plan, s->results, s->pkgs, s->replay.confirm_tests,
	             s->replay.confirm_counts, s->replay.nconfirms, sweep_plan_added, s);
	sweep_resume_count(s);
	sweep_set_phase(s, SWEEP_PHASE_CONFIRM);
	budget_plan(s);
	sweep_dispatch(s);
	sweep_check_phase(s);
}

void
sweep_check_phase(struct sweep *s)
{
	if (s->finished)
		return;
	budget_tick(s);
	if (s->interrupting) {
		if (s->nlive == 0)
			sweep_finish(s, s->stopped ? "complete" : "interrupted");
		return;
	}
	/* The next phase waits for the journal to hold this one. */
	if (s->journal_blocked || s->sched == NULL || !sched_complete(s->sched))
		return;
	if (s->phase == SWEEP_PHASE_SWEEP)
		sweep_begin_confirm(s);
	else if (s->phase == SWEEP_PHASE_CONFIRM && !order_next(s))
		sweep_finish(s, "complete");
}

/* ---- timers, finish ---- */

static void
sweep_reproduce_cb(void *arg, const struct results_test *t, const struct results_cell *c,
                   char **flakesweep, char **direct)
{
	sweep_reproduce(arg, t, c, flakesweep, direct);
}

bool
sweep_provisional(const struct sweep *s, const struct results_test *t)
{
	int i, done, target;

	if (s->sched == NULL)
		return s->phase < SWEEP_PHASE_SWEEP;
	for (i = 0; i < sched_npairs(s->sched); i++) {
		const struct plan_pair *p = sched_pair_data(s->sched, i);

		sched_pair_counts(s->sched, i, NULL, NULL, &target, NULL, &done);
		if (p->pkg == t->pkg && (p->test == NULL || strcmp(p->test, t->test) == 0) &&
		    done < target)
			return true;
	}
	return false;
}

static bool
sweep_provisional_cb(void *arg, const struct results_test *t)
{
	return sweep_provisional(arg, t);
}

static void
sweep_meta(struct sweep *s, struct report_meta *m, const char *status)
{
	memset(m, 0, sizeof *m);
	m->status = status;
	m->started_ms = s->started_ms;
	m->finished_ms = s->finished_ms;
	journal_header_parts(s->header, &m->config, &m->machine, &m->project);
	m->pkgs = s->pkgs;
	m->npkgs = s->npkgs;
	m->reproduce = sweep_reproduce_cb;
	/* Once the sweep has ended, as a rebuild from its journal says:
	 * provisional unless complete. */
	m->provisional =
	    s->loop != NULL && strcmp(status, "running") == 0 ? sweep_provisional_cb : NULL;
	m->arg = s;
	m->quarantine = s->quarantine;
	m->now_ms = util_now_ms();
	m->cache = s->json_cache;
}

static void
sweep_write_results(struct sweep *s, const char *status)
{
	struct report_meta m;
	char *err = NULL;
	int64_t t0 = util_mono_ms(), cost;

	sweep_meta(s, &m, status);
	if (report_write(s->outdir, s->results, &m, &err) < 0) {
		sweep_message(s, "%s", err);
		/* A write while running is tried again; the last one counts. */
		if (strcmp(status, "running") != 0)
			s->infra_error = true;
	}
	free(err);
	s->dirty = false;
	/* Many tests make a rewrite long: it may take at most a twentieth of
	 * the loop's time. */
	cost = util_mono_ms() - t0;
	uv_timer_set_repeat(&s->flush_timer, (uint64_t)(cost * SWEEP_FLUSH_SHARE > SWEEP_FLUSH_MS
	                                                    ? cost * SWEEP_FLUSH_SHARE
	                                                    : SWEEP_FLUSH_MS));
}

static void
sweep_flush_cb(uv_timer_t *t)
{
	struct sweep *s = t->data;

	if (s->dirty && s->phase >= SWEEP_PHASE_SWEEP && !s->finished && !s->journal_blocked)
		sweep_write_results(s, "running");
}

/* --quiet: a held lane lets one probe run through each SWEEP_QUIET_MS;
 * the probe's noise decides whether it waits on (run_quiet_note). An
 * idle lane's own cores cannot tell: others fill them when it is idle. */
static void
sweep_quiet_cb(uv_timer_t *t)
{
	struct sweep *s = t->data;
	int lane;

	for (lane = 0; s->sched != NULL && lane < s->lanes.nlanes; lane++)
		sched_hold_lane(s->sched, lane, false);
	sweep_dispatch(s);
}

static void
sweep_reap_cb(uv_timer_t *t)
{
	proc_reap_orphans(false);
	/* A budget's deadline comes whether or not a run ends. */
	budget_tick(t->data);
}

static int sweep_confirm_now(struct sweep *s, const struct results_test *t, int count);

/* The last timer closed: confirm runs asked meanwhile start now. */
static void
sweep_timer_closed(uv_handle_t *h)
{
	struct sweep *s = h->data;
	const struct results_test *t;

	if (--s->timers_closing > 0 || s->reopen_test == NULL)
		return;
	t = results_find(s->results, s->reopen_test);
	if (t == NULL || sweep_confirm_now(s, t, s->reopen_count) < 0)
		sweep_message(s, _("cannot confirm %s now: %s"), s->reopen_test,
		              sweep_confirm_strerror(-EAGAIN));
	free(s->reopen_test);
	s->reopen_test = NULL;
}

/* Starts the timers of a running sweep (and serves its control socket):
 * at the start, and again when a finished sweep takes confirm runs. */
static void
sweep_start_timers(struct sweep *s)
{
	char *err = NULL;

	uv_timer_start(&s->flush_timer, sweep_flush_cb, SWEEP_FLUSH_MS, SWEEP_FLUSH_MS);
	uv_timer_start(&s->reap_timer, sweep_reap_cb, 1000, 1000);
	if (s->o->quiet > 0)
		uv_timer_start(&s->quiet_timer, sweep_quiet_cb, SWEEP_QUIET_MS, SWEEP_QUIET_MS);
	s->control = control_new(s->loop, s, s->outdir, &err);
	if (s->control == NULL)
		sweep_message(s, "%s", err);
	free(err);
}

void
sweep_finish(struct sweep *s, const char *status)
{
	struct report_meta m;
	cJSON *end;
	char when[40];
	size_t i;

	if (s->finished)
		return;
	s->finished = true;
	s->end_status = status;
	s->finished_ms = util_now_ms();
	/* A sweep that began has results, even stopped while it built: what
	 * `report --rebuild` of its journal writes. */
	if (s->header != NULL || s->phase >= SWEEP_PHASE_SWEEP || s->results->npkgs > 0)
		sweep_write_results(s, status);
	/* A journal without its header is no sweep's: one that never began
	 * gets no end either (sweep_start takes it away). */
	if (s->header != NULL) {
		end = cJSON_CreateObject();
		cJSON_AddStringToObject(end, "type", "end");
		cJSON_AddStringToObject(end, "status", status);
		timefmt_format_rfc3339(s->finished_ms, when, sizeof when);
		cJSON_AddStringToObject(end, "finished", when);
		if (journal_write(s->journal, end) < 0)
			sweep_message(s, "%s",
			              _("the journal ends before the runs it could not hold: the "
			                "report printed at the end has every run measured"));
		cJSON_Delete(end);
	}
	budget_finish(s);
	sweep_containers_close(s);
	sweep_envs_stop(s);
	uv_timer_stop(&s->flush_timer);
	uv_timer_stop(&s->reap_timer);
	uv_timer_stop(&s->journal_timer);
	uv_timer_stop(&s->quiet_timer);
	s->timers_closing = 4;
	uv_close((uv_handle_t *)&s->flush_timer, sweep_timer_closed);
	uv_close((uv_handle_t *)&s->reap_timer, sweep_timer_closed);
	uv_close((uv_handle_t *)&s->journal_timer, sweep_timer_closed);
	uv_close((uv_handle_t *)&s->quiet_timer, sweep_timer_closed);
	proc_reap_orphans(true);
	sweep_meta(s, &m, status);
	if (strcmp(status, "interrupted") == 0)
		s->exit_status = s->infra_error ? 2 : 130;
	else if (s->infra_error)
		s->exit_status = 2;
	else
		s->exit_status = report_exit_status(s->results, &m);
	for (i = 0; i < s->results->ntests; i++) {
		const struct results_test *t = &s->results->tests[i];

		if (t->first != NULL && results_order_dependent(t))
			sweep_problem(
			    s, OBSERVER_ORDER_DEPENDENT, t->id,
			    _("%s looks order-dependent: it failed only in shuffled runs of "
			      "the whole package"),
			    t->id);
	}
	sweep_set_phase(s, SWEEP_PHASE_DONE);
	control_close(s->control);
	s->control = NULL;
	if (s->obs.finished != NULL)
		s->obs.finished(s->obs.arg);
}

/* ---- setup ---- */

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
	static const char *const tokens[] = {"GH_TOKEN", "GITHUB_TOKEN", "GH_ENTERPRISE_TOKEN",
	                                     "GITHUB_ENTERPRISE_TOKEN"};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(tokens); i++)
		proc_withhold_env(tokens[i]);
	for (i = 0; i < (size_t)o->nscrub_env; i++)
		proc_withhold_env(o->scrub_env[i]);
}

static int
sweep_plan_lanes(struct sweep *s, char **err)
{
	cpu_set_t allowed;
	int width = 1, i, rc;

	if ((rc = lanes_machine(&allowed)) < 0) {
		*err = xasprintf("sched_getaffinity: %s", strerror(-rc));
		return -1;
	}
	if (s->o->cpus == NULL) {
		int def[] = {1, 2, 4}, usable, keep;

		keep = s->o->keep >= 0 ? s->o->keep : lanes_default_keep(CPU_COUNT(&allowed));
		usable = CPU_COUNT(&allowed) - keep;
		s->o->cpus = xmalloc(sizeof def);
		memcpy(s->o->cpus, def, sizeof def);
		s->o->ncpus = lanes_clip_cpus(s->o->cpus, 3, usable > 0 ? usable : 1);
	}
	for (i = 0; i < s->o->ncpus; i++) {
		if (s->o->cpus[i] > width)
			width = s->o->cpus[i];
	}
	if (lanes_plan(&allowed, s->o->keep, width, &s->lanes, err) < 0)
		return -1;
	s->build_parallel = CPU_COUNT(&allowed);
	return 0;
}

struct sweep *
sweep_new(uv_loop_t *loop, struct options *o, const struct observer *obs, char **err)
{
	struct sweep *s = xcalloc(1, sizeof *s);
	char *jpath = NULL, *dir;
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
	s->canary_program = realpath("/proc/self/exe", NULL);
	if (s->canary_program == NULL)
		s->canary_program = xstrdup("/proc/self/exe");
	sweep_scrub_environ(o);
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
	/* After --resume has added the header's --mask-env names, before any
	 * child runs. */
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
	uv_timer_init(loop, &s->flush_timer);
	uv_timer_init(loop, &s->reap_timer);
	uv_timer_init(loop, &s->journal_timer);
	uv_timer_init(loop, &s->quiet_timer);
	s->flush_timer.data = s->reap_timer.data = s->journal_timer.data = s->quiet_timer.data = s;
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
sweep_interrupt(struct sweep *s)
{
	size_t i;

	if (s->finished || s->interrupting)
		return;
	s->interrupting = true;
	if (s->sched != NULL)
		sched_pause(s->sched, true);
	for (i = 0; i < s->nlive; i++)
		proc_signal(s->live[i]->proc, SIGKILL);
	if (s->phase == SWEEP_PHASE_BUILD && s->builds_running > 0) {
		struct sweep_build *b;

		for (b = s->builds; b != NULL; b = b->next)
			proc_signal(b->proc, SIGKILL);
		return;
	}
	sweep_check_phase(s);
	if (!s->finished && s->nlive == 0)
		sweep_finish(s, "interrupted");
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
	if (s->sched == NULL)
		return;
	sched_pause(s->sched, paused);
	if (!paused)
		sweep_dispatch(s);
}

bool
sweep_paused(const struct sweep *s)
{
	return s->sched != NULL && sched_paused(s->sched);
}

/* A finished sweep runs again for confirm runs of t: its timers and
 * control socket come back, the journal says it resumed, and a confirm
 * phase starts with none of the earlier runs counted in its plan. */
static int
sweep_reopen(struct sweep *s, const struct results_test *t)
{
	const struct pkg *pkg = s->pkgs[t->pkg];
	struct stat st;

	if (s->end_status == NULL || strcmp(s->end_status, "complete") != 0 || s->journal_blocked)
		return -EAGAIN;
	if (pkg->binary != NULL && access(pkg->binary, X_OK) < 0)
		return -ENOEXEC;
	if (s->proj.root != NULL && (stat(s->proj.root, &st) < 0 || !S_ISDIR(st.st_mode)))
		return -ENOTDIR;
	if (s->timers_closing > 0)
		return 0;
	s->finished = s->interrupting = s->stopped = false;
	s->end_status = NULL;
	s->finished_ms = 0;
	s->exit_status = 0;
	uv_timer_init(s->loop, &s->flush_timer);
	uv_timer_init(s->loop, &s->reap_timer);
	uv_timer_init(s->loop, &s->journal_timer);
	uv_timer_init(s->loop, &s->quiet_timer);
	s->flush_timer.data = s->reap_timer.data = s->journal_timer.data = s->quiet_timer.data = s;
	sweep_start_timers(s);
	sweep_resume_line(s);
	sweep_new_plan(s);
	sweep_set_phase(s, SWEEP_PHASE_CONFIRM);
	return 0;
}

/* Journals the confirm request and plans its runs: the sweep runs. */
static int
sweep_confirm_now(struct sweep *s, const struct results_test *t, int count)
{
	cJSON *line;
	int rc;

	if (s->finished) {
		rc = sweep_reopen(s, t);
		if (rc < 0)
			return rc;
		if (s->finished) {
			/* The end's timers are still closing: the last one
			 * calls back. */
			if (s->reopen_test != NULL)
				return -EAGAIN;
			s->reopen_test = xstrdup(t->id);
			s->reopen_count = count;
			return 0;
		}
	} else if (s->interrupting) {
		return -EAGAIN;
	} else if (s->sched == NULL) {
		return -ENOENT;
	}
	line = cJSON_CreateObject();
	cJSON_AddStringToObject(line, "type", "confirm");
	cJSON_AddStringToObject(line, "test", t->id);
	cJSON_AddNumberToObject(line, "count", count);
	sweep_journal_check(s, journal_write(s->journal, line));
	cJSON_Delete(line);
	plan_confirm_test(&s->plan, t, s->pkgs[t->pkg]->level, RESULTS_CONFIRM, count,
	                  sweep_plan_added, s);
	sweep_dispatch(s);
	return 0;
}

int
sweep_confirm(struct sweep *s, const char *test_id, int count)
{
	const struct results_test *t = results_find(s->results, test_id);

	if (t == NULL || count <= 0 || t->pkg < 0 || (size_t)t->pkg >= s->npkgs)
		return -ENOENT;
	return sweep_confirm_now(s, t, count);
}

const char *
sweep_confirm_strerror(int rc)
{
	switch (rc) {
	case -EAGAIN:
		return _("the sweep did not complete (or is ending): flakesweep --resume DIR "
		         "continues it first");
	case -ENOEXEC:
		return _("its test binary is not on this machine any more");
	case -ENOTDIR:
		return _("the project's directory is not on this machine any more");
	default:
		return _("the sweep never ran it (or has not begun its runs)");
	}
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
	sweep_free_sched(s);
	order_free(s);
	budget_free(s);
	journal_close(s->journal);
	quarantine_free(s->quarantine);
	noise_free(s->noise);
	tmpdir_pool_free(s->tmp_pool);
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

const char *
sweep_phase_label(enum sweep_phase phase)
{
	switch (phase) {
	case SWEEP_PHASE_DISCOVER:
		return _("discover");
	case SWEEP_PHASE_BUILD:
		return _("build");
	case SWEEP_PHASE_SWEEP:
		return _("sweep");
	case SWEEP_PHASE_CONFIRM:
		return _("confirm");
	case SWEEP_PHASE_DONE:
		break;
	}
	return _("done");
}

enum sweep_phase
sweep_phase(const struct sweep *s)
{
	return s->phase;
}

const struct results *
sweep_results(const struct sweep *s)
{
	return s->results;
}

const char *
sweep_outdir(const struct sweep *s)
{
	return s->outdir;
}

const char *
sweep_root(const struct sweep *s)
{
	return s->proj.root;
}

char *
sweep_report(struct sweep *s, bool json)
{
	struct report_meta m;

	sweep_meta(s, &m, s->end_status != NULL ? s->end_status : "running");
	return json ? results_json_text(s->results, &m) : report_text(s->results, &m);
}

/* The name front ends show for a run's package: the canaries' own
 * synthetic one, or NULL when unknown. */
static const char *
sweep_pkg_name(const struct sweep *s, int pkg)
{
	if (pkg == PLAN_CANARY)
		return "flakesweep:canary";
	return pkg >= 0 && (size_t)pkg < s->npkgs ? s->pkgs[pkg]->name : NULL;
}

void
sweep_status(const struct sweep *s, struct sweep_status *st)
{
	int *cores = xcalloc((size_t)(s->lanes.nlanes * s->lanes.width) + 1, sizeof *cores);
	size_t i;
	int l, c;

	status_free(st);
	memset(st, 0, sizeof *st);
	st->phase = s->phase;
	st->finished = s->phase == SWEEP_PHASE_DONE;
	st->paused = sweep_paused(s);
	plan_progress(&s->plan, &st->done, &st->target);
	/* Over: the progress is every run counted, not the last phase's. */
	if (st->finished)
		st->done = st->target = s->results->runs;
	st->started_ms = s->started_ms;
	st->finished_ms = s->finished_ms;
	st->deadline_ms = budget_deadline(s);
	st->cpus = s->o->cpus;
	st->ncpus = s->o->cpus != NULL ? s->o->ncpus : 0;
	st->loads = s->o->loads;
	st->nloads = s->o->nloads;
	st->count = s->o->count;
	st->confirm = s->o->confirm;
	st->timeout_ms = s->o->timeout_ms;
	st->kill_grace_ms = s->o->kill_grace_ms;
	st->run_only = s->o->run_re != NULL;
	st->commit = s->proj.commit;
	st->machine_cores = s->lanes.ncores;
	st->keep = s->lanes.keep;
	for (l = 0; l < s->lanes.nlanes; l++)
		memcpy(cores + l * s->lanes.width, s->lanes.cores[l],
		       sizeof *cores * (size_t)s->lanes.width);
	status_set_lanes(st, s->lanes.nlanes, s->lanes.width, cores);
	free(cores);
	/* After the lanes: setting them frees what st holds. */
	if (s->phase > SWEEP_PHASE_BUILD)
		status_build_failed(st, s->pkgs, s->npkgs);
	status_levels(st, s->results, s->hdr.config.level_config);
	for (l = 0; s->sched != NULL && l < st->nlanes; l++) {
		struct status_lane *sl = &st->lanes[l];
		int held = sched_lane_held(s->sched, l);

		for (c = 0; c < sl->ncores; c++)
			sl->core_runs[c] = sched_lane_core_runs(s->sched, l, c);
		sl->load = sched_lane_load(s->sched, l);
		sl->environment = sweep_envs_label(s, sched_lane_env(s->sched, l));
		if (held >= 0) {
			const struct plan_pair *p = sched_pair_data(s->sched, held);

			enum sched_group_wait w = sched_pair_group_wait(s->sched, held);

			status_hold(st, l, sweep_pkg_name(s, p->pkg), p->test, p->cpu, p->load);
			if (w != SCHED_WAIT_NONE)
				status_hold_alone(st, l, w == SCHED_WAIT_TO_RUN_ALONE);
		}
	}
	for (i = 0; i < s->nlive; i++) {
		const struct sweep_run *r = &s->live[i]->pub;

		status_add_run(st, r->lane, r->id, r->cpus, r->cpu, r->load, r->phase,
		               sweep_pkg_name(s, r->pkg), r->test, r->started_ms);
	}
}

void
sweep_progress(const struct sweep *s, int64_t *done, int64_t *target)
{
	plan_progress(&s->plan, done, target);
	if (s->phase == SWEEP_PHASE_DONE) {
		*done += s->prior_done;
		*target += s->prior_target;
	}
}

int64_t
sweep_started_ms(const struct sweep *s)
{
	return s->started_ms;
}

bool
sweep_began(const struct sweep *s)
{
	return s->header != NULL;
}

/* The ncpu cores a reproduce line pins to: the core on which the test
 * failed most first (a core-sensitive test passes elsewhere), then the
 * first lane's cores, as the sweep would. */
static void
sweep_reproduce_cores(const struct sweep_repro *s, const struct results_test *t, int ncpu,
                      int *cpus)
{
	int worst = results_worst_core(t), n = 0, i;

	if (worst >= 0)
		cpus[n++] = worst;
	for (i = 0; n < ncpu && s->cores != NULL && i < s->width; i++)
		if (s->cores[i] != worst)
			cpus[n++] = s->cores[i];
	for (i = 0; n < ncpu; i++)
		if (i != worst)
			cpus[n++] = i;
}

/* line with the environment the sweep ran with exported first, so it runs
 * the same in a fresh login shell. Takes ownership of line. */
static char *
sweep_reproduce_env(const struct sweep_config *config, char *line)
{
	struct buf b;
	int i;

	buf_init(&b);
	for (i = 0; i < config->nenv; i++) {
		char *q = sanitize_shell_quote(config->env_values[i]);

		buf_printf(&b, "%s%s=%s", b.len == 0 ? "export " : " ", config->env_names[i], q);
		free(q);
	}
	if (b.len == 0) {
		buf_free(&b);
		return line;
	}
	buf_printf(&b, " && %s", line);
	free(line);
	return buf_steal(&b);
}

/* A direct line ("cd DIR && COMMAND") run in its own network namespace
 * with only loopback up, as --isolate-net runs it. Takes ownership of
 * line. */
static char *
sweep_reproduce_netns(char *line, const char *dir)
{
	char *qdir = sanitize_shell_quote(dir), *cd = xasprintf("cd %s && ", qdir), *out, *q;

	free(qdir);
	if (strncmp(line, cd, strlen(cd)) != 0) {
		free(cd);
		return line;
	}
	q = sanitize_shell_quote(line + strlen(cd));
	out = xasprintf("%sunshare -rn sh -c 'ip link set lo up && eval \"$0\"' %s", cd, q);
	free(q);
	free(cd);
	free(line);
	return out;
}

void
sweep_repro_commands(const struct sweep_repro *s, const struct results_test *t,
                     const struct results_cell *c, char **flakesweep, char **direct)
{
	const struct pkg *pkg = t->pkg >= 0 && (size_t)t->pkg < s->npkgs ? s->pkgs[t->pkg] : NULL;
	bool order = results_order_dependent(t);
	/* As many runs as the phase that measured the test gave each pair. */
	int count = s->o->confirm > 0 && s->o->run_re == NULL ? s->o->confirm : s->o->count;
	int *cpus = xcalloc((size_t)c->cpu, sizeof *cpus);
	struct driver_run dr;
	char *qdir, *qpkg, *filter, *qfilter, *fs, *direct_line, limits[160], t1[32], t2[32];
	const struct sweep_config *config = s->config;
	const char *tap_select = config->tap_select;
	struct buf extra;

	sweep_reproduce_cores(s, t, c->cpu, cpus);
	qdir = sanitize_shell_quote(s->root != NULL ? s->root : ".");
	qpkg = pkg != NULL ? s->driver->package_args(pkg) : xstrdup("");
	timefmt_format_duration(s->o->timeout_ms, t1, sizeof t1);
	timefmt_format_duration(s->o->kill_grace_ms, t2, sizeof t2);
	snprintf(limits, sizeof limits, " --timeout %s --kill-grace %s%s", t1, t2,
	         s->o->race ? "" : " --no-race");
	/* What else the sweep ran with, so the line runs the same thing. */
	buf_init(&extra);
	buf_add(&extra, limits, strlen(limits));
	if (s->o->isolate_net)
		buf_adds(&extra, " --isolate-net");
	if (s->o->cover)
		buf_adds(&extra, " --cover");
	if (s->o->private_workdir)
		buf_adds(&extra, " --private-workdir");
	if (s->o->build_tags != NULL) {
		char *q = sanitize_shell_quote(s->o->build_tags);

		buf_printf(&extra, " --build-tags %s", q);
		free(q);
	}
	if (tap_select != NULL && strcmp(tap_select, "env") == 0)
		buf_adds(&extra, " --tap-select env");
	filter = s->driver->filter(t->test);
	qfilter = sanitize_shell_quote(filter);
	/* An order-dependent test passes alone: both commands replay the
	 * whole package in the failing order instead. */
	if (order)
		fs = xasprintf(
		    "cd %s && flakesweep stress --cpu %d --load %d --count %d --shuffle%s %s", qdir,
		    c->cpu, c->load, count, extra.data, qpkg);
	else
		fs = xasprintf("cd %s && flakesweep stress --cpu %d --load %d --count %d "
		               "--run %s%s %s",
		               qdir, c->cpu, c->load, count, qfilter, extra.data, qpkg);
	buf_free(&extra);
	memset(&dr, 0, sizeof dr);
	dr.cpu = c->cpu;
	dr.timeout_ms = s->o->timeout_ms;
	dr.test = order ? NULL : t->test;
	dr.seed = t->first != NULL ? t->first->seed : NULL;
	dr.select_env = tap_select != NULL && strcmp(tap_select, "env") == 0;
	direct_line = pkg != NULL ? s->driver->reproduce(pkg, &dr, cpus, count) : xstrdup("");
	if (pkg != NULL && s->o->isolate_net)
		direct_line = sweep_reproduce_netns(direct_line, pkg->dir);
	*flakesweep = sweep_reproduce_env(config, fs);
	*direct = sweep_reproduce_env(config, direct_line);
	free(filter);
	free(qfilter);
	free(qpkg);
	free(qdir);
	free(cpus);
}

void
sweep_reproduce(const struct sweep *s, const struct results_test *t, const struct results_cell *c,
                char **flakesweep, char **direct)
{
	struct sweep_repro rp;

	memset(&rp, 0, sizeof rp);
	rp.driver = s->driver;
	rp.o = s->o;
	rp.config = &s->hdr.config;
	rp.root = s->proj.root;
	if (s->lanes.nlanes > 0) {
		rp.cores = s->lanes.cores[0];
		rp.width = s->lanes.width;
	}
	rp.pkgs = s->pkgs;
	rp.npkgs = s->npkgs;
	sweep_repro_commands(&rp, t, c, flakesweep, direct);
}
