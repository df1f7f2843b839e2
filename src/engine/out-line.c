/* SPDX-License-Identifier: MIT */
/*
 * out-line.c: prints the sweep's progress as plain lines, for logs, CI and
 * ssh sessions without a terminal. Test ids and messages can carry bytes
 * from tests, so every line they are in is sanitised.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/out-line.h"
#include "base/sanitize.h"
#include "engine/sweep.h"
#include "base/util.h"

struct out_line {
	struct observer obs;
	uv_timer_t timer;
	FILE *f;
	bool progress;
	bool timer_closed;
	struct sweep *sweep;
};

static void
out_line_print_progress(struct out_line *ol)
{
	struct sweep *s = ol->sweep;
	const struct results *r;
	int64_t done, target, passed, flaky, failing, secs;

	if (s == NULL)
		return;
	r = sweep_results(s);
	secs = (util_now_ms() - sweep_started_ms(s)) / 1000;
	if (sweep_phase(s) == SWEEP_PHASE_BUILD) {
		/* No run is planned before the builds end: count packages. */
		sweep_build_progress(s, &done, &target);
		fprintf(ol->f, _("[%s] %lld/%lld packages built | %lld:%02lld:%02lld\n"),
		        sweep_phase_label(SWEEP_PHASE_BUILD), (long long)done, (long long)target,
		        (long long)(secs / 3600), (long long)(secs / 60 % 60),
		        (long long)(secs % 60));
		fflush(ol->f);
		return;
	}
	sweep_progress(s, &done, &target);
	results_counts(r, &passed, &flaky, &failing);
	fprintf(ol->f,
	        ngettext("[%s] %lld/%lld runs (%d%%) | %lld flaky, %lld failing, %lld hang | "
	                 "%lld:%02lld:%02lld\n",
	                 "[%s] %lld/%lld runs (%d%%) | %lld flaky, %lld failing, %lld hangs | "
	                 "%lld:%02lld:%02lld\n",
	                 (unsigned long)r->hangs),
	        sweep_phase_label(sweep_phase(s)), (long long)done, (long long)target,
	        target > 0 ? (int)(100 * done / target) : 0, (long long)flaky, (long long)failing,
	        (long long)r->hangs, (long long)(secs / 3600), (long long)(secs / 60 % 60),
	        (long long)(secs % 60));
	fflush(ol->f);
}

static void
out_line_timer_cb(uv_timer_t *t)
{
	out_line_print_progress(t->data);
}

static void
out_line_phase(void *arg, enum sweep_phase phase)
{
	struct out_line *ol = arg;

	if (!ol->progress || phase == SWEEP_PHASE_DONE)
		return;
	fprintf(ol->f, _("flakesweep: %s phase\n"), sweep_phase_label(phase));
	fflush(ol->f);
}

static void
out_line_test_failed_first(void *arg, const struct results_test *t, const struct outcome_test *ot,
                           const struct sweep_run *run)
{
	struct out_line *ol = arg;

	if (!ol->progress)
		return;
	sanitize_fprintf(ol->f, _("%s: %s %s at cpu %d load %d (run %lld)\n"),
	                 results_phase_label(run->phase), t->id,
	                 ot->status == OUTCOME_HANG ? _("hung") : _("failed"), run->cpu, run->load,
	                 (long long)run->id);
	fflush(ol->f);
}

static void
out_line_message(void *arg, const char *text)
{
	struct out_line *ol = arg;

	sanitize_fprintf(ol->f, "flakesweep: %s\n", text);
	fflush(ol->f);
}

static void
out_line_finished(void *arg)
{
	struct out_line *ol = arg;

	/* A sweep that never began has no progress to give. */
	if (ol->progress && ol->sweep != NULL && sweep_began(ol->sweep))
		out_line_print_progress(ol);
	uv_timer_stop(&ol->timer);
	if (!ol->timer_closed) {
		ol->timer_closed = true;
		uv_close((uv_handle_t *)&ol->timer, NULL);
	}
}

struct out_line *
out_line_new(uv_loop_t *loop, FILE *f, bool progress, int interval_ms)
{
	struct out_line *ol = xcalloc(1, sizeof *ol);

	ol->f = f;
	ol->progress = progress;
	ol->obs.arg = ol;
	ol->obs.phase = out_line_phase;
	ol->obs.test_failed_first = out_line_test_failed_first;
	ol->obs.message = out_line_message;
	ol->obs.finished = out_line_finished;
	uv_timer_init(loop, &ol->timer);
	ol->timer.data = ol;
	if (progress)
		uv_timer_start(&ol->timer, out_line_timer_cb, (uint64_t)interval_ms,
		               (uint64_t)interval_ms);
	return ol;
}

const struct observer *
out_line_observer(struct out_line *ol)
{
	return &ol->obs;
}

void
out_line_attach(struct out_line *ol, struct sweep *s)
{
	ol->sweep = s;
}

void
out_line_free(struct out_line *ol)
{
	free(ol);
}
