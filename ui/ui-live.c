/* SPDX-License-Identifier: MIT */
/*
 * ui-live.c: the dashboard on a sweep running in this process (--ui full):
 * the source that reads the sweep into the model and sends it the
 * commands (confirm, pause, interrupt), and the observer through which the
 * sweep tells the dashboard what happened, which only sets dirty bits and
 * the message line.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "engine/sweep.h"
#include "ui-int.h"
#include "base/util.h"

static void
ui_live_update(void *arg, struct model *m, int64_t now_ms)
{
	struct ui *ui = arg;

	model_update_live(m, ui->sweep, now_ms);
}

static int
ui_live_confirm(void *arg, const char *test_id, int count)
{
	struct ui *ui = arg;

	return sweep_confirm(ui->sweep, test_id, count);
}

static int
ui_live_pause(void *arg, bool paused)
{
	struct ui *ui = arg;

	if (sweep_phase(ui->sweep) != SWEEP_PHASE_SWEEP &&
	    sweep_phase(ui->sweep) != SWEEP_PHASE_CONFIRM)
		return -EAGAIN;
	sweep_pause(ui->sweep, paused);
	return 0;
}

static void
ui_live_interrupt(void *arg)
{
	struct ui *ui = arg;

	sweep_interrupt(ui->sweep);
}

static void
ui_live_reproduce(void *arg, struct model *m, size_t i, const char **fs, const char **direct)
{
	struct ui *ui = arg;

	model_reproduce(m, ui->sweep, i, fs, direct);
}

static void
ui_obs_phase(void *arg, enum sweep_phase phase)
{
	struct ui *ui = arg;

	/* A sweep that was over runs again (confirm runs): q asks again. */
	if (phase != SWEEP_PHASE_DONE)
		ui->finished_seen = false;
	ui_dirty(ui, VIEW_DIRTY_ALL | UI_DIRTY_MODEL);
}

static void
ui_obs_run_started(void *arg, const struct sweep_run *run)
{
	struct ui *ui = arg;

	(void)run;
	ui_dirty(ui, VIEW_DIRTY_HEADER | VIEW_DIRTY_LANES | UI_DIRTY_MODEL);
}

static void
ui_obs_run_finished(void *arg, const struct sweep_run *run, const struct outcome *o)
{
	struct ui *ui = arg;

	(void)run;
	(void)o;
	ui_dirty(ui, VIEW_DIRTY_HEADER | VIEW_DIRTY_LANES | VIEW_DIRTY_TESTS | VIEW_DIRTY_DETAIL |
	                 UI_DIRTY_MODEL | UI_DIRTY_JUDGE);
}

static void
ui_obs_test_failed_first(void *arg, const struct results_test *t, const struct outcome_test *ot,
                         const struct sweep_run *run)
{
	struct ui *ui = arg;

	/* One message a run: the first test it failed. */
	if (run->id == ui->announced_run)
		return;
	ui->announced_run = run->id;
	ui_message(ui, false, _("new: %s %s at cpu %d load %d (%s run %lld)"), t->id,
	           ot->status == OUTCOME_HANG ? _("hung") : _("failed"), run->cpu, run->load,
	           results_phase_label(run->phase), (long long)run->id);
	model_add_event(ui->model, util_now_ms(), false, ui->st.message);
}

static void
ui_obs_problem(void *arg, enum observer_problem kind, const char *what, const char *text)
{
	struct ui *ui = arg;

	(void)kind;
	(void)what;
	model_add_event(ui->model, util_now_ms(), true, text);
	ui_dirty(ui, VIEW_DIRTY_HEADER | VIEW_DIRTY_OVERLAY | UI_DIRTY_MODEL);
}

static void
ui_obs_message(void *arg, const char *text)
{
	ui_message(arg, false, "%s", text);
}

static void
ui_obs_finished(void *arg)
{
	struct ui *ui = arg;
	struct sweep *s = ui->sweep;

	if (s != NULL && !ui->quitting) {
		int rc = sweep_exit_status(s);

		if (rc == 130)
			ui_message(ui, false,
			           _("the sweep was interrupted: results in %s; "
			             "flakesweep --resume %s continues it; q quits"),
			           sweep_outdir(s), sweep_outdir(s));
		else if (rc == 2)
			ui_message(ui, true,
			           _("the sweep stopped on an error: results in %s; q quits"),
			           sweep_outdir(s));
		else
			ui_message(ui, false, _("the sweep is complete: results in %s; q quits"),
			           sweep_outdir(s));
	}
	ui_finished(ui);
}

const struct observer *
ui_observer(struct ui *ui)
{
	ui->obs.arg = ui;
	ui->obs.phase = ui_obs_phase;
	ui->obs.run_started = ui_obs_run_started;
	ui->obs.run_finished = ui_obs_run_finished;
	ui->obs.test_failed_first = ui_obs_test_failed_first;
	ui->obs.message = ui_obs_message;
	ui->obs.problem = ui_obs_problem;
	ui->obs.finished = ui_obs_finished;
	return &ui->obs;
}

void
ui_attach_sweep(struct ui *ui, struct sweep *s)
{
	struct ui_source src;

	ui->sweep = s;
	if (ui->model->outdir == NULL) {
		ui->model->outdir = xstrdup(sweep_outdir(s));
		model_load_decisions(ui->model);
	}
	memset(&src, 0, sizeof src);
	src.arg = ui;
	src.update = ui_live_update;
	src.confirm = ui_live_confirm;
	src.pause = ui_live_pause;
	src.interrupt = ui_live_interrupt;
	src.reproduce = ui_live_reproduce;
	ui_set_source(ui, &src);
}
