/* SPDX-License-Identifier: MIT */
/*
 * follow.c: the dashboard's source for a followed journal (see follow.h):
 * the follower (follower.h) reads the journal again as it grows, and each
 * new replay refreshes the model.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "follow.h"
#include "results/follower.h"
#include "ui.h"
#include "base/util.h"

struct follow {
	char *dir;
	struct follower *follower;
	struct ui *ui;
};

static void
follow_update(void *arg, struct model *m, int64_t now_ms)
{
	struct follow *f = arg;

	model_update_replay(m, follower_replay(f->follower), f->dir, now_ms);
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
	struct follow *f = arg;

	follower_stop(f->follower);
}

static void
follow_changed(void *arg, const struct replay *next)
{
	struct follow *f = arg;

	if (f->ui == NULL)
		return;
	/* The model borrows the replay's results: refresh it before the old
	 * replay goes. */
	model_update_replay(ui_model(f->ui), next, f->dir, util_now_ms());
	ui_changed(f->ui);
}

static void
follow_error(void *arg, const char *text)
{
	struct follow *f = arg;

	if (f->ui != NULL)
		ui_message(f->ui, true, "%s", text);
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

void
follow_attach(struct follow *f, struct follower *fw, struct ui *ui)
{
	struct ui_source src;

	f->follower = fw;
	f->ui = ui;
	memset(&src, 0, sizeof src);
	src.arg = f;
	src.update = follow_update;
	src.reproduce = follow_reproduce;
	src.closed = follow_closed;
	ui_set_source(ui, &src);
}

void
follow_free(struct follow *f)
{
	if (f == NULL)
		return;
	free(f->dir);
	free(f);
}
