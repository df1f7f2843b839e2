/* SPDX-License-Identifier: MIT */
/*
 * sched-core.c: the phases of a sweep's runs as events in, decisions out.
 * Runs the scheduler places are queued and handed out one decision at a
 * time, so the executor, real or virtual, never runs inside the
 * scheduler. It never spawns, reads a clock or touches the loop.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/canary.h"
#include "engine/sched-core.h"
#include "base/util.h"

struct sched_core {
	struct sched_core_setup setup;
	struct sched_core_input in;
	struct sched *sched; /* the current phase's; its pairs' data are plan pairs */
	struct plan plan;
	enum sweep_phase phase;
	int64_t prior_done, prior_target;
	bool over; /* OVER handed out for this phase */
	/* Decisions not yet handed out. */
	struct sched_core_decision *queue;
	size_t nqueue, head, cap;
};

static void
sched_core_push(struct sched_core *c, const struct sched_core_decision *d)
{
	if (c->head > 0 && c->head == c->nqueue)
		c->head = c->nqueue = 0;
	if (c->nqueue == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 16;
		c->queue = xrealloc(c->queue, sizeof *c->queue * c->cap);
	}
	c->queue[c->nqueue++] = *d;
}

/* sched_start_cb: the placed run becomes a decision. */
static void
sched_core_placed(void *arg, struct sched_run *run)
{
	struct sched_core_decision d = {.kind = SCHED_CORE_START, .run = run};

	sched_core_push(arg, &d);
}

/* sched_env_cb: the environment's lane is drained, or its runs are over. */
static void
sched_core_env_up(void *arg, int env, int lane)
{
	struct sched_core_decision d = {.kind = SCHED_CORE_ENV_UP, .env = env, .lane = lane};

	sched_core_push(arg, &d);
}

static void
sched_core_env_down(void *arg, int env, int lane)
{
	struct sched_core_decision d = {.kind = SCHED_CORE_ENV_DOWN, .env = env, .lane = lane};

	sched_core_push(arg, &d);
}

/* plan_added_cb: schedules what the plan added. */
static void
sched_core_added(void *arg, struct plan_pair *p, int extra)
{
	struct sched_core *c = arg;
	int id, n = sched_npairs(c->sched);

	if (p->target > extra) {
		for (id = 0; id < n && sched_pair_data(c->sched, id) != p; id++)
			;
		sched_add_runs(c->sched, id, extra);
		return;
	}
	id = sched_add_pair(c->sched, p->cpu, p->load, p->target, p);
	if (p->pkg == PLAN_CANARY) {
		sched_spread_pair(c->sched, id);
		return;
	}
	sched_pair_group(c->sched, id, p->pkg, p->phase == RESULTS_ALONE);
	if (c->in.capped != NULL && c->in.capped[p->pkg])
		sched_cap_pair(c->sched, id);
	if (c->in.env != NULL && c->in.env[p->pkg] >= 0) {
		sched_set_envs(c->sched, c->setup.clusters, sched_core_env_up, sched_core_env_down);
		sched_env_pair(c->sched, id, c->in.env[p->pkg]);
	}
}

struct sched_core *
sched_core_new(const struct sched_core_setup *setup)
{
	struct sched_core *c = xcalloc(1, sizeof *c);

	c->setup = *setup;
	c->phase = SWEEP_PHASE_BUILD;
	return c;
}

/* Forgets the current phase's scheduler and plan, counting its runs as
 * the phases' before the next. */
static void
sched_core_drop(struct sched_core *c)
{
	int64_t target, done;

	if (c->sched == NULL)
		return;
	plan_progress(&c->plan, &done, &target);
	c->prior_target += target;
	c->prior_done += done;
	sched_free(c->sched);
	c->sched = NULL;
	plan_free(&c->plan);
	c->head = c->nqueue = 0;
}

void
sched_core_free(struct sched_core *c)
{
	if (c == NULL)
		return;
	sched_core_drop(c);
	free(c->queue);
	free(c);
}

/* A new scheduler and plan for phase, announced. */
static void
sched_core_new_phase(struct sched_core *c, enum sweep_phase phase)
{
	struct sched_core_decision d = {.kind = SCHED_CORE_PHASE, .phase = phase};

	sched_core_drop(c);
	c->sched = sched_new(c->setup.lanes, sched_core_placed, c);
	sched_set_cap(c->sched, c->setup.cap);
	plan_init(&c->plan, &c->setup.grid);
	c->phase = phase;
	c->over = false;
	sched_core_push(c, &d);
}

/* Once a phase's plan is whole: the runs the journal already holds at each
 * pair count, up to the pair's target. */
static void
sched_core_count_done(struct sched_core *c)
{
	const struct plan_pair *done;
	struct plan_pair *p;
	int id;

	for (id = 0; c->in.done != NULL && id < sched_npairs(c->sched); id++) {
		p = sched_pair_data(c->sched, id);
		done = plan_find(c->in.done, p->phase, p->pkg, p->test, p->cpu, p->load);
		if (done == NULL)
			continue;
		p->runs = done->runs < p->target ? done->runs : p->target;
		p->ms = done->ms;
		sched_mark_done(c->sched, id, p->runs, done->ms);
	}
}

void
sched_core_begin(struct sched_core *c, const struct sched_core_input *in)
{
	const char *kinds[CANARY_NKINDS];
	int k;

	for (k = 0; k < CANARY_NKINDS; k++)
		kinds[k] = canary_kind_name((enum canary_kind)k);
	c->in = *in;
	sched_core_new_phase(c, SWEEP_PHASE_SWEEP);
	plan_sweep(&c->plan, in->pkgs, in->npkgs, sched_core_added, c);
	plan_canaries(&c->plan, c->setup.canaries, kinds, CANARY_NKINDS, sched_core_added, c);
	sched_core_count_done(c);
}

static void
sched_core_begin_confirm(struct sched_core *c)
{
	sched_core_new_phase(c, SWEEP_PHASE_CONFIRM);
	plan_confirm(&c->plan, c->in.results, c->in.pkgs, c->in.confirm_tests, c->in.confirm_counts,
	             c->in.nconfirms, sched_core_added, c);
	sched_core_count_done(c);
}

void
sched_core_reopen(struct sched_core *c)
{
	sched_core_new_phase(c, SWEEP_PHASE_CONFIRM);
	/* The journal's runs were counted when the sweep first ran. */
	c->in.done = NULL;
}

/* The phase is over when every pair reached its target and nothing runs. */
static void
sched_core_check(struct sched_core *c)
{
	struct sched_core_decision d = {.kind = SCHED_CORE_OVER};

	if (c->sched == NULL || !sched_complete(c->sched))
		return;
	if (c->phase == SWEEP_PHASE_SWEEP) {
		sched_core_begin_confirm(c);
	} else if (c->phase == SWEEP_PHASE_CONFIRM && !c->over) {
		c->over = true;
		sched_core_push(c, &d);
	}
}

bool
sched_core_next(struct sched_core *c, bool may_start, struct sched_core_decision *d)
{
	if (c->head == c->nqueue && c->sched != NULL && may_start) {
		/* A phase ends before the next one places anything; the next
		 * waits for the executor to take runs again (the journal to
		 * hold this one's). */
		sched_core_check(c);
		if (c->head == c->nqueue)
			sched_dispatch(c->sched);
	}
	if (c->head == c->nqueue)
		return false;
	*d = c->queue[c->head++];
	return true;
}

void
sched_core_finish(struct sched_core *c, struct sched_run *run, int64_t ms)
{
	struct plan_pair *p = sched_pair_data(c->sched, run->pair);

	p->runs++;
	p->ms += ms;
	sched_finish(c->sched, run, ms);
}

void
sched_core_cancel(struct sched_core *c, struct sched_run *run)
{
	sched_cancel(c->sched, run);
}

void
sched_core_confirm(struct sched_core *c, const struct results_test *t, const char *level, int count)
{
	plan_confirm_test(&c->plan, t, level, RESULTS_CONFIRM, count, sched_core_added, c);
	c->over = false;
}

void
sched_core_probe(struct sched_core *c, struct plan_pair *p)
{
	int id = sched_add_pair(c->sched, p->cpu, p->load, 1, p);

	sched_pair_group(c->sched, id, p->pkg, true);
	c->over = false;
}

enum sweep_phase
sched_core_phase(const struct sched_core *c)
{
	return c->phase;
}

const struct plan *
sched_core_plan(const struct sched_core *c)
{
	return &c->plan;
}

struct sched *
sched_core_sched(const struct sched_core *c)
{
	return c->sched;
}

void
sched_core_prior(const struct sched_core *c, int64_t *done, int64_t *target)
{
	*done = c->prior_done;
	*target = c->prior_target;
}
