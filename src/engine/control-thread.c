/* SPDX-License-Identifier: MIT */
/*
 * control-thread.c: the control socket's server (see control-int.h): a
 * libuv pipe server on a loop of its own, on a thread that blocks every
 * signal, so a signal meant for the sweep never lands on it. It sends each
 * view the hello and the last status at once, every status the sweep
 * publishes once, and the replies in the order of their commands; a
 * command it can refuse without the sweep (not JSON, not UTF-8, unknown,
 * a bad argument) is answered here, unless an earlier one of the same
 * view still waits for the sweep. A view that cannot keep up (a megabyte
 * queued) is dropped rather than let memory grow.
 */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "engine/control-int.h"
#include "engine/control.h"
#include "base/json.h"
#include "base/jsonw.h"
#include "base/util.h"

#define CONTROL_QUEUE_MAX (1024 * 1024)

struct control_conn {
	struct control_server *srv;
	uv_pipe_t pipe;
	uint64_t id;
	struct buf in;
	int waiting; /* commands at the sweep, not yet answered */
	bool closing;
	struct control_conn *next;
};

struct control_server {
	struct control_share *sh;
	pthread_t thread;
	uv_loop_t loop;
	uv_pipe_t server;
	uv_async_t wake;
	struct control_text *hello;
	uint64_t sent_seq; /* the status last sent to every view */
	uint64_t next_id;
	struct control_conn *conns;
	bool closing;
};

static void
control_conn_closed(uv_handle_t *h)
{
	struct control_conn *k = h->data;

	buf_free(&k->in);
	free(k);
}

static void
control_shut(uv_shutdown_t *req, int status)
{
	struct control_conn *k = req->data;

	(void)status;
	free(req);
	uv_close((uv_handle_t *)&k->pipe, control_conn_closed);
}

/* Forgets k and closes its pipe: at once, or once what was queued for it
 * is written (the last status at the end of the sweep). */
static void
control_drop(struct control_conn *k, bool flush)
{
	struct control_conn **p;
	uv_shutdown_t *req;

	if (k->closing)
		return;
	k->closing = true;
	for (p = &k->srv->conns; *p != NULL; p = &(*p)->next) {
		if (*p == k) {
			*p = k->next;
			break;
		}
	}
	atomic_fetch_sub(&k->srv->sh->views, 1);
	uv_read_stop((uv_stream_t *)&k->pipe);
	if (flush) {
		req = xcalloc(1, sizeof *req);
		req->data = k;
		if (uv_shutdown(req, (uv_stream_t *)&k->pipe, control_shut) == 0)
			return;
		free(req);
	}
	uv_close((uv_handle_t *)&k->pipe, control_conn_closed);
}

static void
control_written(uv_write_t *req, int status)
{
	(void)status;
	control_text_unref(req->data);
	free(req);
}

/* Sends one line to k. */
static void
control_send(struct control_conn *k, struct control_text *t)
{
	uv_write_t *req;
	uv_buf_t b;

	if (k->closing)
		return;
	if (uv_stream_get_write_queue_size((uv_stream_t *)&k->pipe) > CONTROL_QUEUE_MAX) {
		control_drop(k, false);
		return;
	}
	req = xcalloc(1, sizeof *req);
	req->data = control_text_ref(t);
	b = uv_buf_init(t->data, (unsigned)t->len);
	if (uv_write(req, (uv_stream_t *)&k->pipe, &b, 1, control_written) < 0) {
		control_text_unref(t);
		free(req);
		control_drop(k, false);
	}
}

static void
control_reply(struct control_conn *k, const cJSON *id, const char *error)
{
	cJSON *j = cJSON_CreateObject();
	struct control_text *t;
	char *text;

	cJSON_AddStringToObject(j, "type", "reply");
	if (id != NULL)
		cJSON_AddItemToObject(j, "id", cJSON_Duplicate(id, true));
	cJSON_AddBoolToObject(j, "ok", error == NULL);
	if (error != NULL)
		cJSON_AddStringToObject(j, "error", error);
	text = jsonw_print(j, false);
	cJSON_Delete(j);
	t = control_text_new(text);
	free(text);
	control_send(k, t);
	control_text_unref(t);
}

/* Why the sweep would refuse j whatever its state (caller frees), or
 * NULL when only the sweep can tell. */
static char *
control_refusal(const cJSON *j)
{
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(j, "cmd");
	const cJSON *test = cJSON_GetObjectItemCaseSensitive(j, "test");
	const cJSON *count = cJSON_GetObjectItemCaseSensitive(j, "count");
	const char *name;

	if (!cJSON_IsString(cmd))
		return xstrdup(_("cmd: expected pause, resume, confirm or stop"));
	name = cmd->valuestring;
	if (strcmp(name, "pause") == 0 || strcmp(name, "resume") == 0 || strcmp(name, "stop") == 0)
		return NULL;
	if (strcmp(name, "confirm") != 0)
		return xasprintf(
		    _("cmd: unknown command %s (expected pause, resume, confirm or stop)"), name);
	if (!cJSON_IsString(test))
		return xstrdup(_("confirm: test: expected a test id"));
	if (!cJSON_IsNumber(count) || count->valuedouble < 1 || count->valuedouble > 100000000 ||
	    count->valuedouble != (double)(int)count->valuedouble)
		return xstrdup(_("confirm: count: expected a whole number from 1 to 100000000"));
	return NULL;
}

static void
control_line(void *arg, const char *s, size_t n)
{
	struct control_conn *k = arg;
	struct control_share *sh = k->srv->sh;
	struct control_msg *m;
	cJSON *j = NULL;
	char *why;

	if (k->closing || n == 0)
		return;
	if (n > CONTROL_LINE_MAX) {
		why = xstrdup(_("line longer than 1 MiB"));
	} else if (j = json_parse(s, n, NULL, false), !cJSON_IsObject(j)) {
		why = xstrdup(_("expected one JSON object a line"));
		cJSON_Delete(j);
		j = NULL;
	} else {
		/* Refused whole, and never echoed: a test id's other bytes
		 * come as byte escapes. */
		why = json_utf8_valid(s, n) ? control_refusal(j)
		                            : xstrdup(_("the line is not UTF-8"));
	}
	if (why != NULL && k->waiting == 0) {
		control_reply(k, cJSON_GetObjectItemCaseSensitive(j, "id"), why);
		free(why);
		cJSON_Delete(j);
		return;
	}
	/* To the sweep, or behind the commands that wait there. */
	m = xcalloc(1, sizeof *m);
	m->conn = k->id;
	m->cmd = j;
	m->error = why;
	m->refused = why != NULL;
	k->waiting++;
	pthread_mutex_lock(&sh->mu);
	control_msg_push(&sh->commands, m);
	pthread_mutex_unlock(&sh->mu);
	uv_async_send(sh->to_sweep);
}

static void
control_alloc(uv_handle_t *h, size_t size, uv_buf_t *b)
{
	(void)h;
	b->base = xmalloc(size);
	b->len = size;
}

static void
control_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
	struct control_conn *k = st->data;

	if (n < 0) {
		control_drop(k, false);
	} else if (n > 0) {
		/* A byte more than a line may have tells control_line it was
		 * longer; what follows up to its newline is dropped. */
		util_feed_lines(&k->in, CONTROL_LINE_MAX + 1, b->base, (size_t)n, control_line, k);
	}
	free(b->base);
}

/* The status published last, a reference taken, and its number. */
static struct control_text *
control_status(struct control_server *srv, uint64_t *seq)
{
	struct control_text *t;

	pthread_mutex_lock(&srv->sh->mu);
	t = control_text_ref(srv->sh->status);
	*seq = srv->sh->status_seq;
	pthread_mutex_unlock(&srv->sh->mu);
	return t;
}

static void
control_connection(uv_stream_t *server, int status)
{
	struct control_server *srv = server->data;
	struct control_share *sh = srv->sh;
	struct control_conn *k;
	struct control_text *t;
	uint64_t seq;

	if (status < 0 || srv->closing)
		return;
	k = xcalloc(1, sizeof *k);
	k->srv = srv;
	buf_init(&k->in);
	uv_pipe_init(&srv->loop, &k->pipe, 0);
	k->pipe.data = k;
	if (uv_accept(server, (uv_stream_t *)&k->pipe) < 0) {
		k->closing = true;
		uv_close((uv_handle_t *)&k->pipe, control_conn_closed);
		return;
	}
	k->id = ++srv->next_id;
	k->next = srv->conns;
	srv->conns = k;
	atomic_fetch_add(&sh->views, 1);
	control_send(k, srv->hello);
	/* The status the sweep published last, at once; the sweep is asked
	 * for a new one, which follows when it differs. */
	t = control_status(srv, &seq);
	control_send(k, t);
	control_text_unref(t);
	pthread_mutex_lock(&sh->mu);
	sh->want_status = true;
	pthread_mutex_unlock(&sh->mu);
	uv_async_send(sh->to_sweep);
	uv_read_start((uv_stream_t *)&k->pipe, control_alloc, control_read);
}

static struct control_conn *
control_find(struct control_server *srv, uint64_t id)
{
	struct control_conn *k;

	for (k = srv->conns; k != NULL && k->id != id; k = k->next)
		;
	return k;
}

/* The sweep's news: replies first, in order, then its status when it is
 * new (to every view at the end, new or not), then the end. */
static void
control_wake(uv_async_t *a)
{
	struct control_server *srv = a->data;
	struct control_share *sh = srv->sh;
	struct control_msg *replies, *m;
	struct control_conn *k, *next;
	struct control_text *t;
	uint64_t seq;
	bool close;

	pthread_mutex_lock(&sh->mu);
	replies = sh->replies;
	sh->replies = NULL;
	close = sh->close;
	pthread_mutex_unlock(&sh->mu);
	while ((m = replies) != NULL) {
		replies = m->next;
		k = control_find(srv, m->conn);
		if (k != NULL) {
			k->waiting--;
			control_reply(k, cJSON_GetObjectItemCaseSensitive(m->cmd, "id"), m->error);
		}
		control_msg_free(m);
	}
	t = control_status(srv, &seq);
	if (seq != srv->sent_seq || close) {
		for (k = srv->conns; k != NULL; k = next) {
			next = k->next;
			control_send(k, t);
		}
		srv->sent_seq = seq;
	}
	control_text_unref(t);
	if (!close || srv->closing)
		return;
	srv->closing = true;
	while ((k = srv->conns) != NULL)
		control_drop(k, true);
	uv_close((uv_handle_t *)&srv->server, NULL);
	uv_close((uv_handle_t *)&srv->wake, NULL);
}

static void *
control_main(void *arg)
{
	struct control_server *srv = arg;

	/* Named apart from the loop's thread in top and perf. */
	pthread_setname_np(pthread_self(), "fs-control");
	/* Until the end closed every handle. */
	uv_run(&srv->loop, UV_RUN_DEFAULT);
	pthread_mutex_lock(&srv->sh->mu);
	srv->sh->ended = true;
	pthread_mutex_unlock(&srv->sh->mu);
	uv_async_send(srv->sh->to_sweep);
	return NULL;
}

static void
control_server_free(struct control_server *srv)
{
	uv_loop_close(&srv->loop);
	control_text_unref(srv->hello);
	free(srv);
}

int
control_server_start(struct control_share *sh, const char *name, const struct control_text *hello,
                     struct control_server **out)
{
	struct control_server *srv = xcalloc(1, sizeof *srv);
	sigset_t all, old;
	mode_t mask;
	int rc;

	*out = NULL;
	srv->sh = sh;
	srv->hello = control_text_ref((struct control_text *)hello);
	srv->sent_seq = sh->status_seq;
	uv_loop_init(&srv->loop);
	uv_pipe_init(&srv->loop, &srv->server, 0);
	uv_async_init(&srv->loop, &srv->wake, control_wake);
	srv->server.data = srv->wake.data = srv;
	sh->to_server = &srv->wake;
	/* Born the owner's only: no moment where others may connect. */
	mask = umask(0077);
	rc = uv_pipe_bind(&srv->server, name);
	umask(mask);
	if (rc == 0)
		rc = uv_listen((uv_stream_t *)&srv->server, 16, control_connection);
	if (rc == 0) {
		/* The thread inherits the signal mask it is created with. */
		sigfillset(&all);
		pthread_sigmask(SIG_SETMASK, &all, &old);
		rc = -pthread_create(&srv->thread, NULL, control_main, srv);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	if (rc < 0) {
		uv_close((uv_handle_t *)&srv->server, NULL);
		uv_close((uv_handle_t *)&srv->wake, NULL);
		uv_run(&srv->loop, UV_RUN_DEFAULT);
		sh->to_server = NULL;
		control_server_free(srv);
		return rc;
	}
	*out = srv;
	return 0;
}

void
control_server_join(struct control_server *srv)
{
	if (srv == NULL)
		return;
	pthread_join(srv->thread, NULL);
	control_server_free(srv);
}

struct control_text *
control_text_new(const char *s)
{
	size_t n = strlen(s);
	struct control_text *t = xmalloc(sizeof *t + n + 1);

	atomic_init(&t->refs, 1);
	memcpy(t->data, s, n);
	t->data[n] = '\n';
	t->len = n + 1;
	return t;
}

struct control_text *
control_text_ref(struct control_text *t)
{
	atomic_fetch_add(&t->refs, 1);
	return t;
}

void
control_text_unref(struct control_text *t)
{
	if (t != NULL && atomic_fetch_sub(&t->refs, 1) == 1)
		free(t);
}

void
control_msg_free(struct control_msg *m)
{
	cJSON_Delete(m->cmd);
	free(m->error);
	free(m);
}

void
control_msg_push(struct control_msg **q, struct control_msg *m)
{
	while (*q != NULL)
		q = &(*q)->next;
	m->next = NULL;
	*q = m;
}
