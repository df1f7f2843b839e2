/* SPDX-License-Identifier: MIT */
/*
 * replay-status.c: where the sweep of a replayed journal stands, counted
 * as the live sweep counts it: its phase against the plan it would make,
 * and the status front ends show. Reading the journal is replay.c's.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/plan.h"
#include "engine/replay-status.h"
#include "engine/sweep-config.h"

/* The recorded runs of each planned pair. */
static void
replay_runs_into(const struct replay *r, struct plan *p)
{
	size_t i;

	for (i = 0; i < p->npairs; i++) {
		struct plan_pair *x = p->pairs[i];
		const struct plan_pair *done =
		    plan_find(&r->runs, x->phase, x->pkg, x->test, x->cpu, x->load);

		if (done != NULL) {
			x->runs = done->runs;
			x->ms = done->ms;
		}
	}
}

void
replay_progress(const struct replay *r, enum sweep_phase *phase, int64_t *done, int64_t *target)
{
	const struct sweep_config *c = &r->header.config;
	struct plan_grid g = {
	    .cpus = c->cpus,
	    .loads = c->loads,
	    .ncpus = c->ncpus,
	    .nloads = c->nloads,
	    .count = c->count,
	    .confirm = c->confirm,
	    .run = c->run_re != NULL,
	    .levels = c->level_config,
	};
	struct plan p;
	size_t i;

	*done = *target = 0;
	if (r->end_status != NULL && strcmp(r->end_status, "complete") == 0) {
		/* Every run it made, the sweep's up to --count a pair. */
		*phase = SWEEP_PHASE_DONE;
		for (i = 0; i < r->runs.npairs; i++) {
			const struct plan_pair *x = r->runs.pairs[i];

			if (x->pkg == PLAN_CANARY)
				continue;
			*done +=
			    x->phase == RESULTS_SWEEP && x->runs > c->count ? c->count : x->runs;
		}
		if (*done < r->results->runs)
			*done = r->results->runs;
		*target = *done;
		return;
	}
	/* Running, or ended before it completed: how far along the plan of
	 * the phase it reached. */
	if (r->npkgs == 0) {
		*phase = r->end_status != NULL ? SWEEP_PHASE_DONE : SWEEP_PHASE_BUILD;
		return;
	}
	plan_init(&p, &g);
	plan_sweep(&p, r->pkgs, r->npkgs, NULL, NULL);
	replay_runs_into(r, &p);
	plan_progress(&p, done, target);
	*phase = SWEEP_PHASE_SWEEP;
	if (*done >= *target) {
		plan_free(&p);
		plan_init(&p, &g);
		plan_confirm(&p, r->results, r->pkgs, r->confirm_tests, r->confirm_counts,
		             r->nconfirms, NULL, NULL);
		replay_runs_into(r, &p);
		plan_progress(&p, done, target);
		*phase = SWEEP_PHASE_CONFIRM;
	}
	if (r->end_status != NULL)
		*phase = SWEEP_PHASE_DONE;
	plan_free(&p);
}

void
replay_status(const struct replay *r, struct sweep_status *st)
{
	const struct sweep_config *c = &r->header.config;
	const struct journal_machine *m = &r->header.machine;

	status_free(st);
	memset(st, 0, sizeof *st);
	replay_progress(r, &st->phase, &st->done, &st->target);
	st->finished = r->end_status != NULL;
	st->started_ms = r->started_ms;
	st->finished_ms = r->finished_ms;
	st->cpus = c->cpus;
	st->ncpus = c->ncpus;
	st->loads = c->loads;
	st->nloads = c->nloads;
	st->count = c->count;
	st->confirm = c->confirm;
	st->timeout_ms = c->timeout_ms;
	st->kill_grace_ms = c->kill_grace_ms;
	st->run_only = c->run_re != NULL;
	st->commit = r->header.project.commit;
	st->machine_cores = m->cores;
	st->keep = m->keep;
	status_set_lanes(st, m->nlanes, m->width, m->lanes);
	/* After the lanes: setting them frees what st holds. */
	if (st->phase > SWEEP_PHASE_BUILD)
		status_build_failed(st, r->pkgs, r->npkgs);
	if (r->results != NULL)
		status_levels(st, r->results, c->level_config);
	st->inflight = (int)r->nunfinished;
}
