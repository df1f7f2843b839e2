/* SPDX-License-Identifier: MIT */
/*
 * control-client.c: a view attached to a sweep's control socket (see
 * control-client.h). The connect is a plain connect(2), done before the
 * loop runs, so the caller knows at once whether a sweep answers; the
 * connection then lives on the loop as a libuv pipe.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "engine/control-client.h"
#include "engine/control.h"
#include "engine/status-json.h"
#include "base/json.h"
#include "base/jsonw.h"
#include "base/util.h"

struct control_client {
	struct control_client_events ev;
	uv_pipe_t pipe;
	struct buf in;
	bool hello, closing;
	struct sweep_status st;
	int *ints;
};

static void
control_client_closed(uv_handle_t *h)
{
	struct control_client *c = h->data;

	buf_free(&c->in);
	status_free(&c->st);
	free(c->ints);
	free(c);
}

/* Ends the connection from this side and tells the owner why. */
static void
control_client_end(struct control_client *c, const char *why)
{
	struct control_client_events ev = c->ev;

	if (c->closing)
		return;
	control_client_close(c);
	if (ev.closed != NULL)
		ev.closed(ev.arg, why);
}

static void
control_client_message(struct control_client *c, const cJSON *j)
{
	const cJSON *type = cJSON_GetObjectItemCaseSensitive(j, "type");
	char *end = NULL, *err = NULL, *why;

	if (!cJSON_IsString(type)) {
		control_client_end(c, _("the sweep sent a line without a type"));
	} else if (strcmp(type->valuestring, "hello") == 0) {
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "protocol");

		if (!cJSON_IsNumber(v) || v->valuedouble != CONTROL_PROTOCOL) {
			why = xasprintf(_("the sweep speaks control protocol %g, this view %d"),
			                cJSON_IsNumber(v) ? v->valuedouble : 0.0, CONTROL_PROTOCOL);
			control_client_end(c, why);
			free(why);
			return;
		}
		c->hello = true;
	} else if (!c->hello) {
		control_client_end(c, _("the sweep did not say hello first"));
	} else if (strcmp(type->valuestring, "status") == 0) {
		if (status_json_decode(j, &c->st, &c->ints, &end, &err) < 0) {
			control_client_end(c, err);
			free(err);
			return;
		}
		if (c->ev.status != NULL)
			c->ev.status(c->ev.arg, &c->st, end);
		free(end);
	} else if (strcmp(type->valuestring, "reply") == 0) {
		const cJSON *ok = cJSON_GetObjectItemCaseSensitive(j, "ok");
		const cJSON *e = cJSON_GetObjectItemCaseSensitive(j, "error");

		if (c->ev.reply != NULL)
			c->ev.reply(c->ev.arg, cJSON_IsTrue(ok)    ? NULL
			                       : cJSON_IsString(e) ? e->valuestring
			                                           : _("refused"));
	}
	/* Other types are for newer views: skipped. */
}

static void
control_client_line(void *arg, const char *s, size_t n)
{
	struct control_client *c = arg;
	cJSON *j;

	if (c->closing || n == 0)
		return;
	j = json_parse(s, n, NULL, false);
	if (!cJSON_IsObject(j))
		control_client_end(c, _("the sweep sent a line that is not a JSON object"));
	else
		control_client_message(c, j);
	cJSON_Delete(j);
}

static void
control_client_alloc(uv_handle_t *h, size_t size, uv_buf_t *b)
{
	(void)h;
	b->base = xmalloc(size);
	b->len = size;
}

static void
control_client_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
	struct control_client *c = st->data;

	if (n == UV_EOF)
		control_client_end(c, NULL);
	else if (n < 0)
		control_client_end(c, uv_strerror((int)n));
	else if (n > 0)
		util_feed_lines(&c->in, CONTROL_LINE_MAX, b->base, (size_t)n, control_client_line,
		                c);
	free(b->base);
}

struct control_client *
control_client_new(uv_loop_t *loop, const char *dir, const struct control_client_events *ev,
                   int *rc, char **err)
{
	struct control_client *c;
	struct sockaddr_un sa;
	char *path;
	int fd, dirfd;

	*err = NULL;
	path = control_socket_path(dir, &dirfd, err);
	if (path == NULL) {
		*rc = -ENOENT;
		return NULL;
	}
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
	free(path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof sa) < 0) {
		*rc = -errno;
		*err = xasprintf(_("no sweep answers on %s/%s: %s"), dir, CONTROL_SOCKET,
		                 strerror(errno));
		if (fd >= 0)
			close(fd);
		if (dirfd >= 0)
			close(dirfd);
		return NULL;
	}
	if (dirfd >= 0)
		close(dirfd);
	c = xcalloc(1, sizeof *c);
	c->ev = *ev;
	buf_init(&c->in);
	uv_pipe_init(loop, &c->pipe, 0);
	c->pipe.data = c;
	*rc = uv_pipe_open(&c->pipe, fd);
	if (*rc == 0)
		*rc = uv_read_start((uv_stream_t *)&c->pipe, control_client_alloc,
		                    control_client_read);
	if (*rc < 0) {
		*err = xasprintf(_("cannot read %s/%s: %s"), dir, CONTROL_SOCKET, uv_strerror(*rc));
		c->closing = true;
		uv_close((uv_handle_t *)&c->pipe, control_client_closed);
		return NULL;
	}
	return c;
}

static void
control_client_written(uv_write_t *req, int status)
{
	(void)status;
	free(req->data);
	free(req);
}

int
control_client_send(struct control_client *c, const char *cmd, const char *test, int count)
{
	cJSON *j = cJSON_CreateObject();
	uv_write_t *req;
	uv_buf_t b;
	char *text;
	int rc;

	if (c->closing) {
		cJSON_Delete(j);
		return -EPIPE;
	}
	cJSON_AddStringToObject(j, "cmd", cmd);
	if (test != NULL) {
		cJSON_AddStringToObject(j, "test", test);
		cJSON_AddNumberToObject(j, "count", count);
	}
	text = jsonw_print(j, false);
	cJSON_Delete(j);
	text = xrealloc(text, strlen(text) + 2);
	strcat(text, "\n");
	req = xcalloc(1, sizeof *req);
	req->data = text;
	b = uv_buf_init(text, (unsigned)strlen(text));
	rc = uv_write(req, (uv_stream_t *)&c->pipe, &b, 1, control_client_written);
	if (rc < 0) {
		free(text);
		free(req);
	}
	return rc;
}

void
control_client_close(struct control_client *c)
{
	if (c == NULL || c->closing)
		return;
	c->closing = true;
	uv_close((uv_handle_t *)&c->pipe, control_client_closed);
}
