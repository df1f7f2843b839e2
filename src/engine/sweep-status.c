/* SPDX-License-Identifier: MIT */
/*
 * sweep-status.c: what a sweep shows its front ends: the phase, the
 * progress, the lanes with the runs on their cores and what each lane
 * waits for, and the sweep's simple facts (results, directory, root).
 * It only reads the sweep.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "engine/budget.h"
#include "engine/sched-core.h"
#include "engine/status.h"
#include "engine/sweep-int.h"
#include "engine/sweep-lease.h"

/* The current phase's runs done and planned (canaries not counted). */
static void
sweep_plan_progress(const struct sweep *s, int64_t *done, int64_t *target)
{
	*done = *target = 0;
	if (s->core != NULL)
		plan_progress(sched_core_plan(s->core), done, target);
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

/* The name front ends show for a run's package: the canaries' own
 * synthetic one, or NULL when unknown. */
static const char *
sweep_pkg_name(const struct sweep *s, int pkg)
{
	if (pkg == PLAN_CANARY)
		return "flakesweep:canary";
	return pkg >= 0 && (size_t)pkg < s->npkgs ? s->pkgs[pkg]->name : NULL;
}

bool
sweep_paused(const struct sweep *s)
{
	return sweep_sched(s) != NULL && sched_paused(sweep_sched(s));
}

void
sweep_status(const struct sweep *s, struct sweep_status *st)
{
	const struct sched *sched = sweep_sched(s);
	int *cores = xcalloc((size_t)(s->lanes.nlanes * s->lanes.width) + 1, sizeof *cores);
	size_t i;
	int l, c;

	status_free(st);
	memset(st, 0, sizeof *st);
	st->phase = s->phase;
	st->finished = s->phase == SWEEP_PHASE_DONE;
	st->paused = sweep_paused(s);
	sweep_plan_progress(s, &st->done, &st->target);
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
	for (l = 0; sched != NULL && l < st->nlanes; l++) {
		struct status_lane *sl = &st->lanes[l];
		int held = sched_lane_held(sched, l);

		for (c = 0; c < sl->ncores; c++)
			sl->core_runs[c] = sched_lane_core_runs(sched, l, c);
		sl->load = sched_lane_load(sched, l);
		sl->environment = sweep_envs_label(s, sched_lane_env(sched, l));
		if (held >= 0) {
			const struct plan_pair *p = sched_pair_data(sched, held);

			enum sched_group_wait w = sched_pair_group_wait(sched, held);

			status_hold(st, l, sweep_pkg_name(s, p->pkg), p->test, p->cpu, p->load);
			if (w != SCHED_WAIT_NONE)
				status_hold_alone(st, l, w == SCHED_WAIT_TO_RUN_ALONE);
		}
	}
	sweep_lease_status(s, st);
	for (i = 0; i < s->nlive; i++) {
		const struct sweep_run *r = &s->live[i]->pub;

		status_add_run(st, r->lane, r->id, r->cpus, r->cpu, r->load, r->phase,
		               sweep_pkg_name(s, r->pkg), r->test, r->started_ms);
	}
}

void
sweep_progress(const struct sweep *s, int64_t *done, int64_t *target)
{
	int64_t prior_done, prior_target;

	sweep_plan_progress(s, done, target);
	if (s->phase == SWEEP_PHASE_DONE && s->core != NULL) {
		sched_core_prior(s->core, &prior_done, &prior_target);
		*done += prior_done;
		*target += prior_target;
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
