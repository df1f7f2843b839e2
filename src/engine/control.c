/* SPDX-License-Identifier: MIT */
/*
 * control.c: the sweep's control socket (see control.h): a libuv pipe
 * server in the output directory. A status is encoded on each push tick
 * only while views are attached, and sent only when its text changed, so
 * a sweep nobody watches pays nothing and a busy one at most one encoding
 * each CONTROL_PUSH_MS. A view that cannot keep up (a megabyte queued) is
 * dropped rather than let the sweep's memory grow.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "engine/control.h"
#include "engine/status-json.h"
#include "engine/sweep.h"
#include "base/json.h"
#include "base/jsonw.h"
#include "base/util.h"

#define CONTROL_QUEUE_MAX (1024 * 1024)

struct control_conn {
	struct control *c;
	uv_pipe_t pipe;
	struct buf in;
	bool closing;
	struct control_conn *next;
};

struct control {
	struct sweep *s;
	uv_pipe_t server;
	uv_timer_t timer;
	char *path; /* to unlink at the end */
	char *last; /* the last status sent */
	struct control_conn *conns;
	int handles;
	bool closing;
};

char *
control_socket_path(const char *dir, int *dirfd, char **err)
{
	struct sockaddr_un sa;
	char *path = xasprintf("%s/%s", dir, CONTROL_SOCKET);

	*dirfd = -1;
	if (strlen(path) < sizeof sa.sun_path)
		return path;
	free(path);
	*dirfd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (*dirfd < 0) {
		*err = xasprintf(_("cannot open %s: %s"), dir, strerror(errno));
		return NULL;
	}
	return xasprintf("/proc/self/fd/%d/%s", *dirfd, CONTROL_SOCKET);
}

/* One of c's handles closed; c goes with the last one once closing. */
static void
control_release(struct control *c)
{
	if (--c->handles == 0 && c->closing) {
		free(c->path);
		free(c->last);
		free(c);
	}
}

static void
control_handle_closed(uv_handle_t *h)
{
	control_release(h->data);
}

static void
control_conn_closed(uv_handle_t *h)
{
	struct control_conn *k = h->data;
	struct control *c = k->c;

	buf_free(&k->in);
	free(k);
	control_release(c);
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
	for (p = &k->c->conns; *p != NULL; p = &(*p)->next) {
		if (*p == k) {
			*p = k->next;
			break;
		}
	}
	if (k->c->conns == NULL)
		uv_timer_stop(&k->c->timer);
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
	free(req->data);
	free(req);
}

/* Sends one line (text without its newline) to k. */
static void
control_send_text(struct control_conn *k, const char *text)
{
	uv_write_t *req;
	uv_buf_t b;
	size_t n = strlen(text);
	char *line;

	if (k->closing)
		return;
	if (uv_stream_get_write_queue_size((uv_stream_t *)&k->pipe) > CONTROL_QUEUE_MAX) {
		control_drop(k, false);
		return;
	}
	line = xmalloc(n + 1);
	memcpy(line, text, n);
	line[n] = '\n';
	req = xcalloc(1, sizeof *req);
	req->data = line;
	b = uv_buf_init(line, (unsigned)(n + 1));
	if (uv_write(req, (uv_stream_t *)&k->pipe, &b, 1, control_written) < 0) {
		free(line);
		free(req);
		control_drop(k, false);
	}
}

static void
control_send(struct control_conn *k, cJSON *j)
{
	char *text = jsonw_print(j, false);

	control_send_text(k, text);
	free(text);
	cJSON_Delete(j);
}

static char *
control_status_text(struct control *c)
{
	struct sweep_status st;
	cJSON *j;
	char *text;

	memset(&st, 0, sizeof st);
	sweep_status(c->s, &st);
	j = status_json_encode(&st, sweep_end_status(c->s));
	status_free(&st);
	text = jsonw_print(j, false);
	cJSON_Delete(j);
	return text;
}

/* Sends the status to every view when it changed since the last push, or
 * to all of them when force. */
static void
control_push(struct control *c, bool force)
{
	struct control_conn *k, *next;
	char *text;

	if (c->conns == NULL)
		return;
	text = control_status_text(c);
	if (!force && c->last != NULL && strcmp(text, c->last) == 0) {
		free(text);
		return;
	}
	for (k = c->conns; k != NULL; k = next) {
		next = k->next;
		control_send_text(k, text);
	}
	free(c->last);
	c->last = text;
}

static void
control_timer_cb(uv_timer_t *t)
{
	control_push(t->data, false);
}

static void
control_reply(struct control_conn *k, const cJSON *id, const char *error)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "type", "reply");
	if (id != NULL)
		cJSON_AddItemToObject(j, "id", cJSON_Duplicate(id, true));
	cJSON_AddBoolToObject(j, "ok", error == NULL);
	if (error != NULL)
		cJSON_AddStringToObject(j, "error", error);
	control_send(k, j);
}

/* Carries out one command; NULL, or why not (caller frees). */
static char *
control_command(struct control *c, const cJSON *j)
{
	const cJSON *cmd = cJSON_GetObjectItemCaseSensitive(j, "cmd");
	const cJSON *test = cJSON_GetObjectItemCaseSensitive(j, "test");
	const cJSON *count = cJSON_GetObjectItemCaseSensitive(j, "count");
	enum sweep_phase phase = sweep_phase(c->s);
	const char *name;
	int rc;

	if (!cJSON_IsString(cmd))
		return xstrdup(_("cmd: expected pause, resume, confirm or stop"));
	name = cmd->valuestring;
	if (strcmp(name, "pause") == 0 || strcmp(name, "resume") == 0) {
		if (phase != SWEEP_PHASE_SWEEP && phase != SWEEP_PHASE_CONFIRM)
			return xasprintf(strcmp(name, "pause") == 0
			                     ? _("nothing to pause in the %s phase")
			                     : _("nothing to resume in the %s phase"),
			                 sweep_phase_label(phase));
		sweep_pause(c->s, strcmp(name, "pause") == 0);
		return NULL;
	}
	if (strcmp(name, "confirm") == 0) {
		if (!cJSON_IsString(test))
			return xstrdup(_("confirm: test: expected a test id"));
		if (!cJSON_IsNumber(count) || count->valuedouble < 1 ||
		    count->valuedouble > 100000000 ||
		    count->valuedouble != (double)(int)count->valuedouble)
			return xstrdup(_("confirm: count: expected a whole number from 1 to "
			                 "100000000"));
		rc = sweep_confirm(c->s, test->valuestring, (int)count->valuedouble);
		if (rc < 0)
			return xasprintf(_("cannot confirm %s now: %s"), test->valuestring,
			                 sweep_confirm_strerror(rc));
		return NULL;
	}
	if (strcmp(name, "stop") == 0) {
		sweep_interrupt(c->s);
		return NULL;
	}
	return xasprintf(_("cmd: unknown command %s (expected pause, resume, confirm or stop)"),
	                 name);
}

static void
control_line(void *arg, const char *s, size_t n)
{
	struct control_conn *k = arg;
	struct control *c = k->c;
	cJSON *j;
	char *why;

	if (k->closing || n == 0)
		return;
	if (n > CONTROL_LINE_MAX) {
		control_reply(k, NULL, _("line longer than 1 MiB"));
		return;
	}
	j = json_parse(s, n, NULL, false);
	if (!cJSON_IsObject(j)) {
		control_reply(k, NULL, _("expected one JSON object a line"));
		cJSON_Delete(j);
		return;
	}
	/* Refused whole, and never echoed: a test id's other bytes come as
	 * byte escapes. */
	why = json_utf8_valid(s, n) ? control_command(c, j) : xstrdup(_("the line is not UTF-8"));
	control_reply(k, cJSON_GetObjectItemCaseSensitive(j, "id"), why);
	free(why);
	cJSON_Delete(j);
	/* The command's effect shows at once, not at the next tick. The
	 * command may have ended the sweep, which closed this server. */
	if (!c->closing)
		control_push(c, false);
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

static void
control_hello(struct control_conn *k)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddStringToObject(j, "type", "hello");
	cJSON_AddStringToObject(j, "program", PACKAGE_NAME);
	cJSON_AddStringToObject(j, "version", PACKAGE_VERSION);
	cJSON_AddNumberToObject(j, "protocol", CONTROL_PROTOCOL);
	cJSON_AddStringToObject(j, "outdir", sweep_outdir(k->c->s));
	cJSON_AddNumberToObject(j, "pid", (double)getpid());
	control_send(k, j);
}

static void
control_connection(uv_stream_t *server, int status)
{
	struct control *c = server->data;
	struct control_conn *k;
	char *text;

	if (status < 0 || c->closing)
		return;
	k = xcalloc(1, sizeof *k);
	k->c = c;
	buf_init(&k->in);
	uv_pipe_init(server->loop, &k->pipe, 0);
	k->pipe.data = k;
	c->handles++;
	if (uv_accept(server, (uv_stream_t *)&k->pipe) < 0) {
		k->closing = true;
		uv_close((uv_handle_t *)&k->pipe, control_conn_closed);
		return;
	}
	if (c->conns == NULL)
		uv_timer_start(&c->timer, control_timer_cb, CONTROL_PUSH_MS, CONTROL_PUSH_MS);
	k->next = c->conns;
	c->conns = k;
	control_hello(k);
	text = control_status_text(c);
	control_send_text(k, text);
	free(text);
	uv_read_start((uv_stream_t *)&k->pipe, control_alloc, control_read);
}

struct control *
control_new(uv_loop_t *loop, struct sweep *s, const char *outdir, char **err)
{
	struct control *c;
	char *name;
	mode_t mask;
	int dirfd, rc;

	*err = NULL;
	name = control_socket_path(outdir, &dirfd, err);
	if (name == NULL)
		return NULL;
	c = xcalloc(1, sizeof *c);
	c->s = s;
	c->path = xasprintf("%s/%s", outdir, CONTROL_SOCKET);
	/* A socket left by a sweep killed with -9 is stale: this sweep owns
	 * the directory now (its journal lock says so). */
	unlink(c->path);
	uv_pipe_init(loop, &c->server, 0);
	uv_timer_init(loop, &c->timer);
	c->server.data = c->timer.data = c;
	c->handles = 2;
	/* Born the owner's only: no moment where others may connect. */
	mask = umask(0077);
	rc = uv_pipe_bind(&c->server, name);
	umask(mask);
	if (rc == 0)
		rc = uv_listen((uv_stream_t *)&c->server, 16, control_connection);
	if (dirfd >= 0)
		close(dirfd);
	free(name);
	if (rc < 0) {
		*err = xasprintf(_("no control socket in %s (`flakesweep view` only reads the "
		                   "journal): %s"),
		                 outdir, uv_strerror(rc));
		control_close(c);
		return NULL;
	}
	chmod(c->path, 0600);
	uv_unref((uv_handle_t *)&c->timer);
	return c;
}

void
control_close(struct control *c)
{
	struct control_conn *k;

	if (c == NULL || c->closing)
		return;
	control_push(c, true);
	while ((k = c->conns) != NULL)
		control_drop(k, true);
	c->closing = true;
	unlink(c->path);
	uv_close((uv_handle_t *)&c->server, control_handle_closed);
	uv_close((uv_handle_t *)&c->timer, control_handle_closed);
}
