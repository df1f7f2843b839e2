/* SPDX-License-Identifier: MIT */
/*
 * follow-shards.c: the dashboard's source for `flakesweep view DIR
 * DIR...` (see follow-shards.h). Each directory has its own follower,
 * reading only what its journal appended, and its own control client
 * while its sweep serves one. The merged results are rebuilt from the
 * shards' results (never their journals) when one of them changed, so a
 * refresh costs tests x pairs, not runs. A directory with no journal yet
 * is looked at again every FOLLOW_SHARDS_WAIT_MS, and checked against the
 * others (shardset.h) when its journal shows up.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "base/util.h"
#include "engine/control-client.h"
#include "engine/sweep-config.h"
#include "follow-shards.h"
#include "results/follower.h"
#include "results/shardset.h"

#define FOLLOW_SHARDS_WAIT_MS 500

struct follow_shards;

struct follow_shard {
	struct follow_shards *owner;
	char *dir;
	char *logdir;              /* dir made absolute, for the merged first failures' logs */
	struct follower *follower; /* NULL while its journal is not there */
	cJSON *header;             /* its header line, for the checks */
	bool refused;              /* its journal is another sweep's: not followed */
	/* Attached: its sweep and the last status it pushed. */
	struct control_client *remote;
	struct sweep_status st;
	int *ints;
	char *end;
	bool has_status;
};

struct follow_shards {
	uv_loop_t *loop;
	struct follow_shard *v;
	size_t n;
	struct ui *ui;
	uv_timer_t wait; /* looks for the journals not there yet */
	bool waiting;    /* the timer is open */
	struct results *merged;
	bool dirty; /* a journal grew since merged was built */
};

/* Whether dir's journal has a whole first line (its header) yet. */
static bool
follow_shards_has_header(const char *dir)
{
	char *path = xasprintf("%s/journal.jsonl", dir);
	FILE *fp = fopen(path, "r");
	int ch = EOF;

	free(path);
	if (fp == NULL)
		return false;
	while ((ch = getc(fp)) != EOF && ch != '\n')
		;
	fclose(fp);
	return ch == '\n';
}

/* The shards dir's journal holds: those it merged, or its own. */
static const int *
follow_shards_indexes(const struct sweep_config *c, int *n)
{
	*n = c->shard_merged != NULL ? c->nshard_merged : 1;
	return c->shard_merged != NULL ? c->shard_merged : &c->shard_index;
}

/* Whether shard i may join the others that have journals. */
static int
follow_shards_check(struct follow_shards *f, size_t i, char **err)
{
	const struct follow_shard *s = &f->v[i];
	const struct sweep_config *c = &follower_replay(s->follower)->header.config;
	const int *oi, *si;
	int rc = 0, a, b, on, sn;
	size_t j;

	if (c->shard_count == 0) {
		*err = xasprintf(_("%s/journal.jsonl: not a shard: its sweep had no --shard I/N "
		                   "(view several directories only of one sharded sweep)"),
		                 s->dir);
		return -EINVAL;
	}
	for (j = 0; j < f->n && rc == 0; j++) {
		const struct follow_shard *o = &f->v[j];
		const struct sweep_config *oc;

		if (j == i || o->follower == NULL || o->refused)
			continue;
		oc = &follower_replay(o->follower)->header.config;
		rc = shardset_check_headers(o->dir, o->header, s->dir, s->header, err);
		oi = follow_shards_indexes(oc, &on);
		si = follow_shards_indexes(c, &sn);
		for (a = 0; a < on && rc == 0; a++)
			for (b = 0; b < sn && rc == 0; b++)
				rc = shardset_check_index(o->dir, oi[a], oc->shard_count, s->dir,
				                          si[b], c->shard_count, err);
	}
	return rc;
}

static void
follow_shards_remote_status(void *arg, const struct sweep_status *st, const char *end)
{
	struct follow_shard *s = arg;

	status_keep(&s->st, &s->ints, st);
	free(s->end);
	s->end = end != NULL ? xstrdup(end) : NULL;
	s->has_status = true;
	if (s->owner->ui != NULL)
		ui_changed(s->owner->ui);
}

static void
follow_shards_remote_reply(void *arg, const char *error)
{
	struct follow_shard *s = arg;

	if (error != NULL && s->owner->ui != NULL)
		ui_message(s->owner->ui, true, _("the sweep in %s refused: %s"), s->dir, error);
}

static void
follow_shards_remote_closed(void *arg, const char *why)
{
	struct follow_shard *s = arg;

	s->remote = NULL;
	s->has_status = false;
	/* Its last lines are in the journal already: read them before the
	 * next draw, so the shard never looks as if it ran elsewhere. */
	if (why == NULL && s->follower != NULL)
		follower_poll(s->follower);
	if (s->owner->ui == NULL)
		return;
	if (why != NULL)
		ui_message(s->owner->ui, true, _("detached from the sweep in %s: %s"), s->dir, why);
	else
		ui_message(s->owner->ui, false, _("the sweep in %s ended: its journal is read now"),
		           s->dir);
	ui_changed(s->owner->ui);
}

/* Attaches to s's sweep when it serves its control socket. */
static void
follow_shards_connect(struct follow_shards *f, struct follow_shard *s)
{
	struct control_client_events ev;
	char *err = NULL;
	int rc;

	memset(&ev, 0, sizeof ev);
	ev.arg = s;
	ev.status = follow_shards_remote_status;
	ev.reply = follow_shards_remote_reply;
	ev.closed = follow_shards_remote_closed;
	s->remote = control_client_new(f->loop, s->dir, &ev, &rc, &err);
	free(err);
}

static void
follow_shards_changed(void *arg, const struct replay *next)
{
	struct follow_shard *s = arg;

	s->owner->dirty = true;
	/* A sweep resumed in the directory serves its socket again. */
	if (s->remote == NULL && next->end_status == NULL)
		follow_shards_connect(s->owner, s);
	if (s->owner->ui != NULL)
		ui_changed(s->owner->ui);
}

static void
follow_shards_error(void *arg, const char *text)
{
	struct follow_shard *s = arg;

	if (s->owner->ui != NULL)
		ui_message(s->owner->ui, true, "%s", text);
}

/* Follows shard i's journal, there now: replays it, checks it against
 * the others and attaches to its sweep. */
static int
follow_shards_open(struct follow_shards *f, size_t i, char **err)
{
	struct follow_shard *s = &f->v[i];
	struct follower_events ev;
	int rc;

	s->logdir = realpath(s->dir, NULL);
	if (s->logdir == NULL)
		s->logdir = xstrdup(s->dir);
	memset(&ev, 0, sizeof ev);
	ev.arg = s;
	ev.changed = follow_shards_changed;
	ev.error = follow_shards_error;
	s->follower = follower_new(f->loop, s->dir, &ev, err);
	if (s->follower == NULL)
		return -EINVAL;
	s->header = journal_header_encode(&follower_replay(s->follower)->header);
	rc = follow_shards_check(f, i, err);
	if (rc < 0) {
		s->refused = true;
		follower_stop(s->follower);
		return rc;
	}
	f->dirty = true;
	follow_shards_connect(f, s);
	return 0;
}

static void
follow_shards_wait_cb(uv_timer_t *t)
{
	struct follow_shards *f = t->data;
	bool more = false;
	char *err = NULL;
	size_t i;

	for (i = 0; i < f->n; i++) {
		struct follow_shard *s = &f->v[i];

		if (s->follower != NULL)
			continue;
		if (!follow_shards_has_header(s->dir)) {
			more = true;
		} else if (follow_shards_open(f, i, &err) < 0) {
			if (f->ui != NULL)
				ui_message(f->ui, true, "%s", err);
			free(err);
			err = NULL;
		} else if (f->ui != NULL) {
			ui_changed(f->ui);
		}
	}
	if (!more)
		uv_timer_stop(t);
}

struct follow_shards *
follow_shards_new(uv_loop_t *loop, char *const *dirs, int n)
{
	struct follow_shards *f = xcalloc(1, sizeof *f);
	size_t i;

	f->loop = loop;
	f->n = (size_t)n;
	f->v = xcalloc(f->n + 1, sizeof *f->v);
	for (i = 0; i < f->n; i++) {
		f->v[i].owner = f;
		f->v[i].dir = xstrdup(dirs[i]);
	}
	uv_timer_init(loop, &f->wait);
	f->wait.data = f;
	f->waiting = true;
	return f;
}

int
follow_shards_start(struct follow_shards *f, char **err)
{
	bool waiting = false;
	size_t i;
	int rc;

	for (i = 0; i < f->n; i++) {
		if (!follow_shards_has_header(f->v[i].dir)) {
			waiting = true;
		} else {
			rc = follow_shards_open(f, i, err);
			if (rc < 0)
				return rc;
		}
	}
	if (waiting)
		uv_timer_start(&f->wait, follow_shards_wait_cb, FOLLOW_SHARDS_WAIT_MS,
		               FOLLOW_SHARDS_WAIT_MS);
	return 0;
}

const char *
follow_shards_root(const struct follow_shards *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].follower != NULL && !f->v[i].refused)
			return follower_replay(f->v[i].follower)->header.project.root;
	return NULL;
}

static void
follow_shards_update(void *arg, struct model *m, int64_t now_ms)
{
	struct follow_shards *f = arg;
	struct shardset_part *parts = xcalloc(f->n + 1, sizeof *parts);
	struct model_shard_in *in = xcalloc(f->n + 1, sizeof *in);
	struct results *old = NULL;
	size_t i, k = 0;

	for (i = 0; i < f->n; i++) {
		struct follow_shard *s = &f->v[i];
		const struct replay *r =
		    s->follower != NULL && !s->refused ? follower_replay(s->follower) : NULL;

		in[i].dir = s->dir;
		in[i].r = r;
		if (r == NULL)
			continue;
		if (s->remote != NULL && s->has_status) {
			in[i].st = &s->st;
			in[i].end = s->end;
		}
		parts[k].results = r->results;
		parts[k].started_ms = r->started_ms;
		parts[k].index = r->header.config.shard_index;
		parts[k++].logdir = s->logdir;
	}
	/* The model borrows the merged results: replace them under it. */
	if (f->dirty || f->merged == NULL) {
		old = f->merged;
		f->merged = shardset_results(parts, k);
		f->dirty = false;
	}
	model_update_shards(m, f->merged, in, f->n, now_ms);
	results_free(old);
	free(parts);
	free(in);
}

static void
follow_shards_reproduce(void *arg, struct model *m, size_t i, const char **fs, const char **direct)
{
	(void)arg;
	model_reproduce(m, NULL, i, fs, direct);
}

/* The shard whose sweep ran test_id, or NULL (said on the message line)
 * when none or several did. */
static struct follow_shard *
follow_shards_owner(struct follow_shards *f, const char *test_id)
{
	struct follow_shard *owner = NULL;
	size_t i, n = 0;

	for (i = 0; i < f->n; i++) {
		struct follow_shard *s = &f->v[i];

		if (s->follower != NULL && !s->refused &&
		    results_find(follower_replay(s->follower)->results, test_id) != NULL) {
			owner = s;
			n++;
		}
	}
	if (n == 1)
		return owner;
	ui_message(f->ui, true,
	           _("%s ran in %zu of this view's shards: confirm it in flakesweep view DIR"),
	           test_id, n);
	return NULL;
}

static int
follow_shards_confirm(void *arg, const char *test_id, int count)
{
	struct follow_shards *f = arg;
	struct follow_shard *s = follow_shards_owner(f, test_id);

	if (s == NULL)
		return -ECANCELED;
	if (s->remote != NULL)
		return control_client_send(s->remote, "confirm", test_id, count);
	ui_message(f->ui, true,
	           _("the sweep of %s in %s is not live here: confirm it in flakesweep view %s"),
	           test_id, s->dir, s->dir);
	return -ECANCELED;
}

/* The one shard attached to its sweep: decide.c refuses P and S unless
 * exactly one is. */
static struct follow_shard *
follow_shards_live(struct follow_shards *f)
{
	size_t i;

	for (i = 0; i < f->n; i++)
		if (f->v[i].remote != NULL && f->v[i].has_status && f->v[i].end == NULL)
			return &f->v[i];
	return NULL;
}

static int
follow_shards_pause(void *arg, bool paused)
{
	struct follow_shard *s = follow_shards_live(arg);

	if (s == NULL)
		return -ENOENT;
	return control_client_send(s->remote, paused ? "pause" : "resume", NULL, 0);
}

static void
follow_shards_stop(void *arg)
{
	struct follow_shard *s = follow_shards_live(arg);

	if (s != NULL)
		control_client_send(s->remote, "stop", NULL, 0);
}

static void
follow_shards_closed(void *arg)
{
	follow_shards_close(arg);
}

void
follow_shards_attach(struct follow_shards *f, struct ui *ui)
{
	struct ui_source src;

	f->ui = ui;
	memset(&src, 0, sizeof src);
	src.arg = f;
	src.update = follow_shards_update;
	src.reproduce = follow_shards_reproduce;
	src.closed = follow_shards_closed;
	src.confirm = follow_shards_confirm;
	src.pause = follow_shards_pause;
	src.stop = follow_shards_stop;
	ui_set_source(ui, &src);
}

void
follow_shards_close(struct follow_shards *f)
{
	size_t i;

	/* Leaving a view never stops the sweeps it watched. */
	for (i = 0; i < f->n; i++) {
		struct follow_shard *s = &f->v[i];

		control_client_close(s->remote);
		s->remote = NULL;
		if (s->follower != NULL && !s->refused)
			follower_stop(s->follower);
	}
	if (f->waiting) {
		f->waiting = false;
		uv_close((uv_handle_t *)&f->wait, NULL);
	}
}

void
follow_shards_free(struct follow_shards *f)
{
	size_t i;

	if (f == NULL)
		return;
	for (i = 0; i < f->n; i++) {
		struct follow_shard *s = &f->v[i];

		follower_free(s->follower);
		cJSON_Delete(s->header);
		status_free(&s->st);
		free(s->ints);
		free(s->end);
		free(s->dir);
		free(s->logdir);
	}
	results_free(f->merged);
	free(f->v);
	free(f);
}
