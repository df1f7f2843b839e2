/* SPDX-License-Identifier: MIT */
/*
 * follower.c: re-reads a growing journal on a timer. Lines are appended
 * whole, so a read sees whole lines and at most a torn last one, which
 * replay skips. The journal's mtime and size say whether it changed.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/follower.h"
#include "base/util.h"

#define FOLLOWER_MIN_MS 1000

struct follower {
	uv_timer_t timer;
	char *journal;
	struct replay r;
	struct follower_events ev;
	int64_t signature; /* the journal's mtime and size when read */
	bool stopped;
};

static int64_t
follower_signature(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return -1;
	return (int64_t)st.st_mtim.tv_sec * 1000000000 + st.st_mtim.tv_nsec + st.st_size * 7919;
}

static void
follower_timer_cb(uv_timer_t *t)
{
	struct follower *f = t->data;
	struct replay nr;
	char *err = NULL;
	int64_t sig = follower_signature(f->journal), t0, cost;

	if (sig == f->signature)
		return;
	t0 = util_mono_ms();
	f->signature = sig;
	if (replay_journal(f->journal, &nr, &err) < 0) {
		if (f->ev.error != NULL)
			f->ev.error(f->ev.arg, err != NULL ? err : f->journal);
		free(err);
		replay_free(&nr);
		return;
	}
	if (f->ev.changed != NULL)
		f->ev.changed(f->ev.arg, &nr);
	replay_free(&f->r);
	f->r = nr;
	cost = util_mono_ms() - t0;
	uv_timer_set_repeat(t,
	                    (uint64_t)(cost * 10 > FOLLOWER_MIN_MS ? cost * 10 : FOLLOWER_MIN_MS));
}

struct follower *
follower_new(uv_loop_t *loop, const char *dir, const struct follower_events *ev, char **err)
{
	struct follower *f = xcalloc(1, sizeof *f);

	f->journal = xasprintf("%s/journal.jsonl", dir);
	f->ev = *ev;
	f->signature = follower_signature(f->journal);
	if (replay_journal(f->journal, &f->r, err) < 0) {
		f->stopped = true;
		follower_free(f);
		return NULL;
	}
	uv_timer_init(loop, &f->timer);
	f->timer.data = f;
	uv_timer_start(&f->timer, follower_timer_cb, FOLLOWER_MIN_MS, FOLLOWER_MIN_MS);
	return f;
}

const struct replay *
follower_replay(const struct follower *f)
{
	return &f->r;
}

void
follower_stop(struct follower *f)
{
	if (!f->stopped) {
		f->stopped = true;
		uv_close((uv_handle_t *)&f->timer, NULL);
	}
}

void
follower_free(struct follower *f)
{
	if (f == NULL)
		return;
	replay_free(&f->r);
	free(f->journal);
	free(f);
}
