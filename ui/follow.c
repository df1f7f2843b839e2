/* SPDX-License-Identifier: MIT */
/*
 * follow.c: the dashboard's source for `flakesweep view DIR` (see
 * follow.h). The follower (follower.h) reads the journal again as it
 * grows, and each new replay refreshes the model. When the sweep runs
 * elsewhere and serves its control socket, the view is attached: the
 * lanes and the header come from the status the sweep pushes (the
 * journal still gives the results), and pause, resume, confirm and stop
 * go to the sweep. Confirm runs of a sweep that is over run here, in a
 * sweep resumed in this process.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "engine/control-client.h"
#include "engine/options.h"
#include "engine/sweep.h"
#include "follow.h"
#include "results/follower.h"
#include "ui.h"
#include "base/util.h"

struct follow {
	char *dir;
	uv_loop_t *loop;
	struct follower *follower;
	struct ui *ui;
	/* Attached: the sweep running elsewhere and the last status it
	 * pushed (its cpus and loads in ints). */
	struct control_client *remote;
	struct sweep_status st;
	int *ints;
	char *end;
	bool has_status;
	/* A sweep that was over, resumed here for confirm runs. */
	struct options o;
	struct sweep *sweep;
};

static void
follow_refresh(struct follow *f, struct model *m, const struct replay *r, int64_t now_ms)
{
	if (f->remote != NULL && f->has_status)
		model_update_attached(m, r, &f->st, f->end, f->dir, now_ms);
	else
		model_update_replay(m, r, f->dir, now_ms);
}

static void
follow_update(void *arg, struct model *m, int64_t now_ms)
{
	struct follow *f = arg;

	follow_refresh(f, m, follower_replay(f->follower), now_ms);
}

static void
follow_reproduce(void *arg, struct model *m, size_t i, const char **fs, const char **direct)
{
	(void)arg;
	model_reproduce(m, NULL, i, fs, direct);
}

static void
follow_closed(void *arg)
{
	follow_close(arg);
}

/* Whether the test's binary and the project are here to run it again;
 * else says why on the message line. */
static bool
follow_can_run(struct follow *f, const struct replay *r, const char *test_id)
{
	const struct results_test *t = results_find(r->results, test_id);
	const char *root = r->header.project.root;
	const struct pkg *pkg;
	struct stat st;

	if (t == NULL || t->pkg < 0 || (size_t)t->pkg >= r->npkgs)
		return true; /* sweep_confirm says so */
	pkg = r->pkgs[t->pkg];
	if (pkg->binary != NULL && access(pkg->binary, X_OK) < 0) {
		ui_message(f->ui, true,
		           _("cannot confirm %s here: its test binary %s is not on this "
		             "machine"),
		           test_id, pkg->binary);
		return false;
	}
	if (root != NULL && (stat(root, &st) < 0 || !S_ISDIR(st.st_mode))) {
		ui_message(f->ui, true,
		           _("cannot confirm %s here: the project %s is not on this machine"),
		           test_id, root);
		return false;
	}
	return true;
}

/* The sweep is over: resume it here (--resume semantics: what it had not
 * run yet runs too) and queue the confirm runs; the dashboard then shows
 * this live sweep. */
static int
follow_confirm_here(struct follow *f, const char *test_id, int count)
{
	char *err = NULL;

	if (!follow_can_run(f, follower_replay(f->follower), test_id))
		return -ECANCELED;
	options_init(&f->o);
	f->o.resume = xstrdup(f->dir);
	f->o.ui = OPTIONS_UI_NONE;
	f->sweep = sweep_new(f->loop, &f->o, ui_observer(f->ui), &err);
	if (f->sweep == NULL) {
		ui_message(f->ui, true, _("cannot confirm %s here: %s"), test_id, err);
		free(err);
		options_free(&f->o);
		return -ECANCELED;
	}
	follower_stop(f->follower);
	ui_attach_sweep(f->ui, f->sweep);
	if (sweep_start(f->sweep, &err) < 0) {
		ui_message(f->ui, true, _("cannot confirm %s here: %s"), test_id, err);
		free(err);
		return -ECANCELED;
	}
	return sweep_confirm(f->sweep, test_id, count);
}

static int
follow_confirm(void *arg, const char *test_id, int count)
{
	struct follow *f = arg;

	if (f->remote != NULL)
		return control_client_send(f->remote, "confirm", test_id, count);
	if (follower_replay(f->follower)->end_status != NULL)
		return follow_confirm_here(f, test_id, count);
	ui_message(f->ui, true, "%s",
	           _("the sweep runs elsewhere and serves no control socket: this view only "
	             "reads its journal"));
	return -ECANCELED;
}

static int
follow_pause(void *arg, bool paused)
{
	struct follow *f = arg;

	return control_client_send(f->remote, paused ? "pause" : "resume", NULL, 0);
}

static void
follow_send_stop(void *arg)
{
	struct follow *f = arg;

	control_client_send(f->remote, "stop", NULL, 0);
}

/* The source as the view stands: attached, it also steers the sweep. */
static void
follow_set_source(struct follow *f)
{
	struct ui_source src;

	memset(&src, 0, sizeof src);
	src.arg = f;
	src.update = follow_update;
	src.reproduce = follow_reproduce;
	src.closed = follow_closed;
	src.confirm = follow_confirm;
	if (f->remote != NULL) {
		src.pause = follow_pause;
		src.stop = follow_send_stop;
	}
	ui_set_source(f->ui, &src);
}

static void
follow_changed(void *arg, const struct replay *next)
{
	struct follow *f = arg;

	if (f->ui == NULL || f->sweep != NULL)
		return;
	/* The model borrows the replay's results: refresh it before the old
	 * replay goes. */
	follow_refresh(f, ui_model(f->ui), next, util_now_ms());
	ui_changed(f->ui);
}

static void
follow_error(void *arg, const char *text)
{
	struct follow *f = arg;

	if (f->ui != NULL)
		ui_message(f->ui, true, "%s", text);
}

static void
follow_remote_status(void *arg, const struct sweep_status *st, const char *end)
{
	struct follow *f = arg;

	status_keep(&f->st, &f->ints, st);
	free(f->end);
	f->end = end != NULL ? xstrdup(end) : NULL;
	f->has_status = true;
	if (f->ui != NULL)
		ui_changed(f->ui);
}

static void
follow_remote_reply(void *arg, const char *error)
{
	struct follow *f = arg;

	if (error != NULL && f->ui != NULL)
		ui_message(f->ui, true, _("the sweep refused: %s"), error);
}

static void
follow_remote_closed(void *arg, const char *why)
{
	struct follow *f = arg;

	f->remote = NULL;
	if (why == NULL && f->follower != NULL)
		follower_poll(f->follower);
	if (f->ui == NULL)
		return;
	if (why != NULL)
		ui_message(f->ui, true, _("detached from the sweep: %s"), why);
	else
		ui_message(f->ui, false, "%s",
		           _("the sweep ended: this view reads its journal now"));
	follow_set_source(f);
	ui_changed(f->ui);
}

struct follow *
follow_new(const char *dir, struct follower_events *ev)
{
	struct follow *f = xcalloc(1, sizeof *f);

	f->dir = xstrdup(dir);
	memset(ev, 0, sizeof *ev);
	ev->arg = f;
	ev->changed = follow_changed;
	ev->error = follow_error;
	return f;
}

int
follow_connect(struct follow *f, uv_loop_t *loop, char **err)
{
	struct control_client_events ev;
	int rc;

	f->loop = loop;
	memset(&ev, 0, sizeof ev);
	ev.arg = f;
	ev.status = follow_remote_status;
	ev.reply = follow_remote_reply;
	ev.closed = follow_remote_closed;
	f->remote = control_client_new(loop, f->dir, &ev, &rc, err);
	return f->remote != NULL ? 0 : rc;
}

void
follow_attach(struct follow *f, struct follower *fw, struct ui *ui)
{
	f->follower = fw;
	f->ui = ui;
	follow_set_source(f);
}

void
follow_close(struct follow *f)
{
	/* Leaving a view never stops the sweep it watched. */
	control_client_close(f->remote);
	f->remote = NULL;
	if (f->follower != NULL)
		follower_stop(f->follower);
}

void
follow_free(struct follow *f)
{
	if (f == NULL)
		return;
	if (f->sweep != NULL) {
		sweep_free(f->sweep);
		options_free(&f->o);
	}
	status_free(&f->st);
	free(f->ints);
	free(f->end);
	free(f->dir);
	free(f);
}
