/* SPDX-License-Identifier: MIT */
/*
 * follower.c: follows a growing journal on a timer, reading only the lines
 * appended since the last look (replay_update), a bounded chunk per tick
 * so the loop never waits on a long read. Lines are appended whole, so a
 * read sees whole lines and at most an unfinished last one, read again
 * when it is whole. A journal that shrank or was replaced is read anew.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "results/follower.h"
#include "results/journal.h"
#include "base/util.h"

/* How often it looks, and the most it reads in one go. */
#define FOLLOWER_MS 500
#define FOLLOWER_CHUNK (4 << 20)

struct follower {
	uv_timer_t timer;
	char *journal;
	struct replay r;
	struct follower_events ev;
	off_t size;  /* the journal's size when last read */
	ino_t inode; /* and its inode */
	bool stopped;
};

/* Reads the journal anew into f->r, after it shrank or was replaced. */
static void
follower_reread(struct follower *f)
{
	struct replay nr;
	char *err = NULL;

	if (replay_journal_flags(f->journal, REPLAY_SIMULATED, &nr, &err) < 0) {
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
}

/* Reads what was appended since the last look; true when there is more
 * to read than one look takes. */
static bool
follower_look(struct follower *f)
{
	struct stat st;
	char *err = NULL;
	off_t before = journal_tail_offset(f->r.tail);
	bool more = false;

	if (stat(f->journal, &st) < 0 || (st.st_size == f->size && st.st_ino == f->inode))
		return false;
	if (st.st_ino != f->inode || st.st_size < before) {
		f->size = st.st_size;
		f->inode = st.st_ino;
		follower_reread(f);
		return false;
	}
	if (replay_update(&f->r, FOLLOWER_CHUNK, &more, &err) < 0) {
		if (f->ev.error != NULL)
			f->ev.error(f->ev.arg, err != NULL ? err : f->journal);
		free(err);
	} else if (journal_tail_offset(f->r.tail) != before && f->ev.changed != NULL) {
		f->ev.changed(f->ev.arg, &f->r);
	}
	if (!more)
		f->size = st.st_size;
	return more;
}

static void
follower_timer_cb(uv_timer_t *t)
{
	/* With more to read, the rest comes in the next turns of the loop. */
	if (follower_look(t->data))
		uv_timer_start(t, follower_timer_cb, 0, FOLLOWER_MS);
}

void
follower_poll(struct follower *f)
{
	if (!f->stopped && follower_look(f))
		uv_timer_start(&f->timer, follower_timer_cb, 0, FOLLOWER_MS);
}

struct follower *
follower_new(uv_loop_t *loop, const char *dir, const struct follower_events *ev, char **err)
{
	struct follower *f = xcalloc(1, sizeof *f);
	struct stat st;

	f->journal = xasprintf("%s/journal.jsonl", dir);
	f->ev = *ev;
	if (stat(f->journal, &st) == 0) {
		f->size = st.st_size;
		f->inode = st.st_ino;
	}
	if (replay_journal_flags(f->journal, REPLAY_SIMULATED, &f->r, err) < 0) {
		f->stopped = true;
		follower_free(f);
		return NULL;
	}
	uv_timer_init(loop, &f->timer);
	f->timer.data = f;
	uv_timer_start(&f->timer, follower_timer_cb, FOLLOWER_MS, FOLLOWER_MS);
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
