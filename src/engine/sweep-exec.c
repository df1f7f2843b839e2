/* SPDX-License-Identifier: MIT */
/*
 * sweep-exec.c: the real executor of a sweep's runs. It hands the
 * scheduler core (sched-core.c) the events of this machine (the packages
 * built, a run over, an interrupt) and carries out its decisions: a run
 * started by run.c, a phase journaled and told to the front end, the
 * polluter searches once confirm is over, then the end. It decides
 * nothing about which run goes where; it never parses output.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "base/util.h"
#include "engine/budget.h"
#include "engine/sched-core.h"
#include "engine/sweep-int.h"
#include "engine/sweep-lease.h"
#include "results/journal.h"

/* A journal that cannot be written (a full disk) is retried this often,
 * and the sweep stops with what it measured after waiting this long. */
#define SWEEP_JOURNAL_RETRY_MS 5000
#define SWEEP_JOURNAL_WAIT_MS (30 * 60 * 1000)

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
		sweep_drive(s);
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

void
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
		/* Written before anyone hears of the phase, with the lines the
		 * turn held: a front end reading the journal then finds it. */
		if (!s->journal_blocked)
			sweep_journal_check(s, journal_flush(s->journal));
	}
	if (s->obs.phase != NULL)
		s->obs.phase(s->obs.arg, phase);
}

void
sweep_harness_on(struct sweep *s)
{
	s->results->harness.on = true;
	s->results->harness.budget = s->o->canaries;
}

/* The core of this sweep's run phases, made once its levels are known. */
static void
sweep_new_core(struct sweep *s)
{
	struct sched_core_setup setup = {
	    .lanes = &s->lanes,
	    .grid =
	        {
	            .cpus = s->o->cpus,
	            .loads = s->o->loads,
	            .ncpus = s->o->ncpus,
	            .nloads = s->o->nloads,
	            .count = s->o->count,
	            .confirm = s->o->confirm,
	            .run = s->o->run_re != NULL,
	            .levels = s->hdr.config.level_config,
	        },
	    .cap = s->o->containers,
	    .canaries = s->o->canaries,
	    .clusters = s->o->clusters,
	};

	sweep_lease_setup(s, &setup);
	s->core = sched_core_new(&setup);
}

void
sweep_begin_sweep(struct sweep *s)
{
	struct sched_core_input in = {
	    .pkgs = s->pkgs,
	    .npkgs = s->npkgs,
	    .env = s->pkg_env,
	    .results = s->results,
	    .confirm_tests = s->replay.confirm_tests,
	    .confirm_counts = s->replay.confirm_counts,
	    .nconfirms = s->replay.nconfirms,
	    .done = s->resumed ? &s->replay.runs : NULL,
	};
	size_t i;

	sweep_harness_on(s);
	free(s->pkg_capped);
	s->pkg_capped = xcalloc(s->npkgs + 1, sizeof *s->pkg_capped);
	for (i = 0; i < s->npkgs; i++)
		s->pkg_capped[i] = sweep_containers_level(s, s->pkgs[i]);
	in.capped = s->pkg_capped;
	sched_core_free(s->core);
	sweep_new_core(s);
	sched_core_begin(s->core, &in);
	sweep_drive(s);
}

void
sweep_drive(struct sweep *s)
{
	struct sched_core_decision d;

	budget_tick(s);
	while (s->core != NULL && !s->finished &&
	       sched_core_next(s->core, !s->interrupting && !s->journal_blocked, &d)) {
		switch (d.kind) {
		case SCHED_CORE_START:
			/* Placed before an interrupt: its pair still owes it. */
			if (s->interrupting)
				sched_core_cancel(s->core, d.run);
			else
				run_start(s, d.run);
			break;
		case SCHED_CORE_PHASE:
			sweep_set_phase(s, d.phase);
			budget_plan(s);
			break;
		case SCHED_CORE_ENV_UP:
			sweep_envs_up(s, d.env, d.lane);
			break;
		case SCHED_CORE_ENV_DOWN:
			sweep_envs_down(s, d.env, d.lane);
			break;
		case SCHED_CORE_OVER:
			if (!order_next(s))
				sweep_finish(s, "complete");
			break;
		}
	}
	if (s->interrupting && !s->finished && s->nlive == 0)
		sweep_finish(s, s->stopped ? "complete" : "interrupted");
}

void
sweep_interrupt(struct sweep *s)
{
	size_t i;

	if (s->finished || s->interrupting)
		return;
	s->interrupting = true;
	if (sweep_sched(s) != NULL)
		sched_pause(sweep_sched(s), true);
	for (i = 0; i < s->nlive; i++)
		proc_signal(s->live[i]->proc, SIGKILL);
	if (s->phase == SWEEP_PHASE_BUILD && s->builds_running > 0) {
		struct sweep_build *b;

		for (b = s->builds; b != NULL; b = b->next)
			proc_signal(b->proc, SIGKILL);
		return;
	}
	sweep_drive(s);
	if (!s->finished && s->nlive == 0)
		sweep_finish(s, "interrupted");
}
