/* SPDX-License-Identifier: MIT */
/*
 * sweep-end.c: what a sweep records as it goes and at its end: results.json
 * and report.txt rewritten every 2 s (each rewrite at most a twentieth of
 * the loop's time), the timers of a running sweep (the rewrite, the orphan
 * reaper, --quiet's probes) and its control socket, and the end: the last
 * results, the journal's end line, the exit status. It never starts a run.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "base/timefmt.h"
#include "base/util.h"
#include "engine/budget.h"
#include "engine/control.h"
#include "engine/sweep-int.h"
#include "engine/sweep-lease.h"
#include "results/journal.h"
#include "results/report.h"
#include "results/results-json.h"

#define SWEEP_FLUSH_MS 2000
#define SWEEP_FLUSH_SHARE 20
/* How often a lane that waits for quiet tries one run. */
#define SWEEP_QUIET_MS 1000

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

	const struct sched *sched = sweep_sched(s);

	if (sched == NULL)
		return s->phase < SWEEP_PHASE_SWEEP;
	for (i = 0; i < sched_npairs(sched); i++) {
		const struct plan_pair *p = sched_pair_data(sched, i);

		sched_pair_counts(sched, i, NULL, NULL, &target, NULL, &done);
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

	for (lane = 0; sweep_sched(s) != NULL && lane < s->lanes.nlanes; lane++)
		sched_hold_lane(sweep_sched(s), lane, false);
	sweep_drive(s);
}

static void
sweep_reap_cb(uv_timer_t *t)
{
	proc_reap_orphans(false);
	/* A budget's deadline comes whether or not a run ends. */
	sweep_drive(t->data);
}

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

/* The end of a turn of the loop, before it waits: the lines the turn
 * wrote go out in one write, and the TMPDIRs its runs gave back and no
 * new run took wait under idle names. */
static void
sweep_settle_cb(uv_prepare_t *h)
{
	struct sweep *s = h->data;

	tmpdir_pool_settle(s->tmp_pool);
	if (!s->journal_blocked)
		sweep_journal_check(s, journal_flush(s->journal));
}

void
sweep_init_timers(struct sweep *s)
{
	uv_timer_init(s->loop, &s->flush_timer);
	uv_timer_init(s->loop, &s->reap_timer);
	uv_timer_init(s->loop, &s->journal_timer);
	uv_timer_init(s->loop, &s->quiet_timer);
	uv_prepare_init(s->loop, &s->settle);
	s->flush_timer.data = s->reap_timer.data = s->journal_timer.data = s->quiet_timer.data = s;
	s->settle.data = s;
}

/* Starts the timers of a running sweep (and serves its control socket):
 * at the start, and again when a finished sweep takes confirm runs. From
 * now to the end, the journal's lines wait for the end of their turn. */
void
sweep_start_timers(struct sweep *s)
{
	char *err = NULL;

	journal_hold(s->journal, true);
	uv_prepare_start(&s->settle, sweep_settle_cb);
	proc_keep_watching(s->loop, true);

	uv_timer_start(&s->flush_timer, sweep_flush_cb, SWEEP_FLUSH_MS, SWEEP_FLUSH_MS);
	uv_timer_start(&s->reap_timer, sweep_reap_cb, 1000, 1000);
	if (s->o->quiet > 0)
		uv_timer_start(&s->quiet_timer, sweep_quiet_cb, SWEEP_QUIET_MS, SWEEP_QUIET_MS);
	s->control = control_new(s->loop, s, s->outdir, &err);
	if (s->control == NULL)
		sweep_message(s, "%s", err);
	free(err);
}

char *
sweep_report(struct sweep *s, bool json)
{
	struct report_meta m;

	sweep_meta(s, &m, s->end_status != NULL ? s->end_status : "running");
	return json ? results_json_text(s->results, &m) : report_text(s->results, &m);
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
	/* The end line follows the lines still held, in the same write. */
	journal_hold(s->journal, false);
	sweep_lease_end(s);
	s->end_status = status;
	s->finished_ms = util_now_ms();
	/* A sweep that began has results, even stopped while it built: what
	 * `report --rebuild` of its journal writes. */
	if (s->header != NULL || s->phase >= SWEEP_PHASE_SWEEP || s->results->npkgs > 0)
		sweep_write_results(s, status);
	/* A journal without its header is no sweep's: one that never began
	 * gets no end either (sweep_start takes it away). */
	budget_finish(s);
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
	sweep_containers_close(s);
	sweep_envs_stop(s);
	uv_timer_stop(&s->flush_timer);
	uv_timer_stop(&s->reap_timer);
	uv_timer_stop(&s->journal_timer);
	uv_timer_stop(&s->quiet_timer);
	uv_prepare_stop(&s->settle);
	proc_keep_watching(s->loop, false);
	s->timers_closing = 5;
	uv_close((uv_handle_t *)&s->flush_timer, sweep_timer_closed);
	uv_close((uv_handle_t *)&s->reap_timer, sweep_timer_closed);
	uv_close((uv_handle_t *)&s->journal_timer, sweep_timer_closed);
	uv_close((uv_handle_t *)&s->quiet_timer, sweep_timer_closed);
	uv_close((uv_handle_t *)&s->settle, sweep_timer_closed);
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
