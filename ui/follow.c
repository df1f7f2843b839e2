/* SPDX-License-Identifier: MIT */
/*
 * follow.c: the dashboard's source for a sweep's journal (see follow.h).
 * It replays the journal, hands the dashboard a source that reads the
 * replay, and reads the
 * journal again when it changed (lines are appended whole, so a read sees
 * whole lines and at most a torn last one, which replay skips). A big
 * journal is read back less often: never more than a tenth of the time.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <uv.h>

#include "follow.h"
#include "quarantine.h"
#include "replay.h"
#include "ui.h"
#include "util.h"

#define FOLLOW_MIN_MS 1000

struct follow {
	uv_loop_t *loop;
	uv_timer_t timer;
	char *dir, *journal;
	struct replay r;
	int64_t signature; /* the journal's mtime and size when read */
	uint64_t interval_ms;
	struct ui *ui;
	bool timer_closed;
};

static void
follow_update(void *arg, struct model *m, int64_t now_ms)
{
	struct follow *f = arg;

	model_update_replay(m, &f->r, f->dir, now_ms);
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

	if (!f->timer_closed) {
		f->timer_closed = true;
		uv_close((uv_handle_t *)&f->timer, NULL);
	}
}

static void
follow_timer_cb(uv_timer_t *t)
{
	struct follow *f = t->data;
	struct replay nr;
	char *err = NULL;
	int64_t sig = util_file_signature(f->journal), t0, cost;

	if (sig == f->signature)
		return;
	t0 = util_mono_ms();
	if (replay_journal(f->journal, &nr, &err) < 0) {
		ui_message(f->ui, true, "%s", err != NULL ? err : f->journal);
		free(err);
		replay_free(&nr);
		f->signature = sig;
		return;
	}
	/* The model borrows the replay's results: refresh it before the old
	 * replay goes. */
	model_update_replay(ui_model(f->ui), &nr, f->dir, util_now_ms());
	replay_free(&f->r);
	f->r = nr;
	f->signature = sig;
	ui_changed(f->ui);
	cost = util_mono_ms() - t0;
	f->interval_ms = (uint64_t)(cost * 10 > FOLLOW_MIN_MS ? cost * 10 : FOLLOW_MIN_MS);
	uv_timer_set_repeat(t, f->interval_ms);
}

struct follow *
follow_new(const char *dir, char **err)
{
	struct follow *f = xcalloc(1, sizeof *f);

	f->dir = xstrdup(dir);
	f->journal = xasprintf("%s/journal.jsonl", f->dir);
	f->signature = util_file_signature(f->journal);
	if (replay_journal(f->journal, &f->r, err) < 0) {
		follow_free(f);
		return NULL;
	}
	return f;
}

const struct replay *
follow_replay(const struct follow *f)
{
	return &f->r;
}

void
follow_attach(struct follow *f, uv_loop_t *loop, struct ui *ui)
{
	struct ui_source src;

	f->loop = loop;
	f->ui = ui;
	memset(&src, 0, sizeof src);
	src.arg = f;
	src.update = follow_update;
	src.reproduce = follow_reproduce;
	src.closed = follow_closed;
	ui_set_source(ui, &src);
	uv_timer_init(loop, &f->timer);
	f->timer.data = f;
	f->interval_ms = FOLLOW_MIN_MS;
	uv_timer_start(&f->timer, follow_timer_cb, f->interval_ms, f->interval_ms);
}

void
follow_free(struct follow *f)
{
	if (f == NULL)
		return;
	replay_free(&f->r);
	free(f->journal);
	free(f->dir);
	free(f);
}
