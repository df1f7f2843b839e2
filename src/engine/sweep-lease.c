/* SPDX-License-Identifier: MIT */
/*
 * sweep-lease.c: the leases of the sweep's exclusive groups. The
 * scheduler asks the gate before it places a run of a group; the gate
 * takes the group's lease, or says wait. A timer every
 * SWEEP_LEASE_TICK_MS refreshes the leases held, gives back those of
 * groups with no run in flight (so other sweeps take turns), dispatches
 * again while a group waits, and ends a sweep stopped by a stale lease
 * once its last run ended. It never kills a run.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "engine/exclusive.h"
#include "engine/lease.h"
#include "engine/status.h"
#include "engine/sweep-int.h"
#include "engine/sweep-lease.h"

#define SWEEP_LEASE_TICK_MS 500

struct sweep_lease {
	struct sweep *s;
	uv_timer_t timer;
	unsigned held;                           /* groups whose lease is ours */
	unsigned waiting;                        /* groups told to wait since the last tick */
	char *busy[OPTIONS_EXCLUSIVE_MAX];       /* who holds each, as last said */
	int64_t next_try[OPTIONS_EXCLUSIVE_MAX]; /* monotonic ms */
	/* The owner of each lease held (this sweep) or waited for (busy),
	 * and when it was last refreshed, in ms since the epoch, as read. */
	struct lease_owner owner[OPTIONS_EXCLUSIVE_MAX];
	int64_t refreshed_ms[OPTIONS_EXCLUSIVE_MAX];
	bool stopping;
};

static void
sweep_lease_closed(uv_handle_t *h)
{
	struct sweep_lease *l = h->data;
	int i;

	for (i = 0; i < OPTIONS_EXCLUSIVE_MAX; i++) {
		free(l->busy[i]);
		lease_owner_free(&l->owner[i]);
	}
	free(l);
}

/* Stops the sweep on a stale lease: no new run; the tick ends it. */
static void
sweep_lease_stop(struct sweep_lease *l, const char *why)
{
	struct sweep *s = l->s;

	if (l->stopping)
		return;
	l->stopping = true;
	s->infra_error = true;
	sweep_message(s,
	              _("%s; the sweep starts no new run and stops when its runs in flight "
	                "end (--resume continues it)"),
	              why);
	if (sweep_sched(s) != NULL)
		sched_pause(sweep_sched(s), true);
}

/* Takes group g's lease if it is time to try. */
static bool
sweep_lease_try(struct sweep_lease *l, int g)
{
	struct sweep *s = l->s;
	char name[256], *why = NULL;
	struct lease_owner owner;
	enum lease_state st;

	if (l->stopping || util_mono_ms() < l->next_try[g])
		return false;
	exclusive_name(s->o->exclusive, g, name, sizeof name);
	memset(&owner, 0, sizeof owner);
	st = lease_take(s->o->lease_dir, name, s->outdir, s->o->lease_ttl_ms, &why, &owner);
	lease_owner_free(&l->owner[g]);
	l->refreshed_ms[g] = util_now_ms() - owner.age_ms;
	l->owner[g] = owner;
	if (st == LEASE_TAKEN) {
		l->held |= 1u << g;
		free(l->busy[g]);
		l->busy[g] = NULL;
		lease_read(s->o->lease_dir, name, &l->owner[g]);
		l->refreshed_ms[g] = util_now_ms();
	} else if (st == LEASE_BUSY) {
		l->next_try[g] = util_mono_ms() + SWEEP_LEASE_TICK_MS;
		if (l->busy[g] == NULL || strcmp(l->busy[g], why) != 0)
			sweep_message(s, _("waiting: %s"), why);
		free(l->busy[g]);
		l->busy[g] = why;
		why = NULL;
	} else {
		sweep_lease_stop(l, why);
	}
	free(why);
	return st == LEASE_TAKEN;
}

/* sched_gate_cb: every lease of groups is ours, or is taken now. */
static bool
sweep_lease_gate(void *arg, unsigned groups)
{
	struct sweep_lease *l = arg;
	int g;

	for (g = 0; g < OPTIONS_EXCLUSIVE_MAX; g++) {
		if (!(groups & (1u << g)) || (l->held & (1u << g)))
			continue;
		if (!sweep_lease_try(l, g)) {
			l->waiting |= groups;
			return false;
		}
	}
	return true;
}

static void
sweep_lease_tick(uv_timer_t *t)
{
	struct sweep_lease *l = t->data;
	struct sweep *s = l->s;
	char name[256];
	int g;

	for (g = 0; g < OPTIONS_EXCLUSIVE_MAX; g++) {
		if (!(l->held & (1u << g)))
			continue;
		exclusive_name(s->o->exclusive, g, name, sizeof name);
		if (sweep_sched(s) == NULL || sched_exclusive_running(sweep_sched(s), g) == 0) {
			lease_release(s->o->lease_dir, name);
			l->held &= ~(1u << g);
		} else if (lease_refresh(s->o->lease_dir, name) == 0) {
			l->refreshed_ms[g] = util_now_ms();
		}
	}
	/* A group no run waited for since the last tick waits no more. */
	for (g = 0; g < OPTIONS_EXCLUSIVE_MAX; g++) {
		if (l->busy[g] != NULL && !(l->waiting & (1u << g))) {
			free(l->busy[g]);
			l->busy[g] = NULL;
		}
	}
	if (l->stopping && s->nlive == 0 && !s->finished && !s->interrupting)
		sweep_interrupt(s);
	else if (l->waiting != 0 && !l->stopping) {
		l->waiting = 0;
		sweep_drive(s);
	}
}

/* The exclusive groups of a pair's runs (sched-core.h). */
static unsigned
sweep_lease_groups(void *arg, const struct plan_pair *p)
{
	struct sweep *s = arg;

	return exclusive_mask(s->o->exclusive, s->o->nexclusive, s->o->dir, s->pkgs[p->pkg],
	                      p->seed != NULL ? NULL : p->test);
}

/* sched_gate_cb with the sweep as its argument. */
static bool
sweep_lease_gate_of(void *arg, unsigned groups)
{
	struct sweep *s = arg;

	return s->lease == NULL || sweep_lease_gate(s->lease, groups);
}

void
sweep_lease_setup(struct sweep *s, struct sched_core_setup *setup)
{
	struct sweep_lease *l = s->lease;

	if (s->o->nexclusive == 0)
		return;
	setup->exclusive = sweep_lease_groups;
	setup->arg = s;
	if (s->o->lease_dir == NULL)
		return;
	setup->gate = sweep_lease_gate_of;
	if (l == NULL) {
		l = s->lease = xcalloc(1, sizeof *l);
		l->s = s;
		uv_timer_init(s->loop, &l->timer);
		l->timer.data = l;
		uv_timer_start(&l->timer, sweep_lease_tick, SWEEP_LEASE_TICK_MS,
		               SWEEP_LEASE_TICK_MS);
	}
}

void
sweep_lease_end(struct sweep *s)
{
	struct sweep_lease *l = s->lease;
	char name[256];
	int g;

	if (l == NULL)
		return;
	for (g = 0; g < OPTIONS_EXCLUSIVE_MAX; g++) {
		if (!(l->held & (1u << g)))
			continue;
		exclusive_name(s->o->exclusive, g, name, sizeof name);
		lease_release(s->o->lease_dir, name);
	}
	s->lease = NULL;
	uv_timer_stop(&l->timer);
	uv_close((uv_handle_t *)&l->timer, sweep_lease_closed);
}

void
sweep_lease_status(const struct sweep *s, struct sweep_status *st)
{
	const struct sweep_lease *l = s->lease;
	struct status_lease sl;
	char name[256];
	int g;

	for (g = 0; l != NULL && g < OPTIONS_EXCLUSIVE_MAX; g++) {
		const struct lease_owner *o = &l->owner[g];

		if ((!(l->held & (1u << g)) && l->busy[g] == NULL) || o->host == NULL)
			continue;
		exclusive_name(s->o->exclusive, g, name, sizeof name);
		memset(&sl, 0, sizeof sl);
		sl.name = name;
		sl.path = xasprintf("%s/%s", s->o->lease_dir, name);
		sl.held = (l->held & (1u << g)) != 0;
		sl.host = o->host;
		sl.pid = o->pid;
		sl.outdir = o->outdir;
		sl.started = o->started;
		if (timefmt_parse_time(o->started, &sl.started_ms) < 0)
			sl.started_ms = 0;
		sl.age_s = (util_now_ms() - l->refreshed_ms[g]) / 1000;
		if (sl.age_s < 0)
			sl.age_s = 0;
		status_add_lease(st, &sl);
		free(sl.path);
	}
}
