/* SPDX-License-Identifier: MIT */
/*
 * control.c: the sweep's half of its control socket (see control.h and
 * control-int.h), on the sweep's loop. A status is encoded each
 * CONTROL_PUSH_MS while views are attached (at once when one attaches or
 * a command was carried out), each CONTROL_IDLE_MS otherwise, so the
 * status a new view gets at once is never older than that; it is
 * published to the server only when its text changed. The commands the
 * server hands over are carried out here, and their replies handed back,
 * in order.
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

#include "engine/control-int.h"
#include "engine/control.h"
#include "engine/status-json.h"
#include "engine/sweep.h"
#include "base/jsonw.h"
#include "base/util.h"

/* How often a status is encoded while no view is attached. */
#define CONTROL_IDLE_MS 1000

struct control {
	struct sweep *s;
	struct control_share sh;
	struct control_server *srv;
	uv_async_t news; /* the server's commands, or its end */
	uv_timer_t timer;
	char *path;                /* to unlink at the end */
	struct control_text *last; /* the last status published */
	int handles;
	bool in_command;  /* carrying out the server's commands */
	bool close_asked; /* control_close while in_command */
	bool closing;
	int idle_ticks; /* since the last status, with no view attached */
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
control_handle_closed(uv_handle_t *h)
{
	struct control *c = h->data;
	struct control_msg *m;

	if (--c->handles > 0)
		return;
	control_server_join(c->srv);
	while ((m = c->sh.commands) != NULL) {
		c->sh.commands = m->next;
		control_msg_free(m);
	}
	while ((m = c->sh.replies) != NULL) {
		c->sh.replies = m->next;
		control_msg_free(m);
	}
	control_text_unref(c->sh.status);
	control_text_unref(c->last);
	pthread_mutex_destroy(&c->sh.mu);
	free(c->path);
	free(c);
}

/* Encodes the status and publishes it when its text changed, or when
 * force; tells the server when told. */
static void
control_publish(struct control *c, bool force, bool tell)
{
	struct sweep_status st;
	struct control_text *t, *old;
	cJSON *j;
	char *text;

	memset(&st, 0, sizeof st);
	sweep_status(c->s, &st);
	j = status_json_encode(&st, sweep_end_status(c->s));
	status_free(&st);
	text = jsonw_print(j, false);
	cJSON_Delete(j);
	if (!force && c->last != NULL && c->last->len == strlen(text) + 1 &&
	    memcmp(c->last->data, text, c->last->len - 1) == 0) {
		free(text);
		return;
	}
	t = control_text_new(text);
	free(text);
	control_text_unref(c->last);
	c->last = control_text_ref(t);
	pthread_mutex_lock(&c->sh.mu);
	old = c->sh.status;
	c->sh.status = t;
	c->sh.status_seq++;
	pthread_mutex_unlock(&c->sh.mu);
	control_text_unref(old);
	if (tell)
		uv_async_send(c->sh.to_server);
}

static void
control_timer_cb(uv_timer_t *t)
{
	struct control *c = t->data;

	if (atomic_load(&c->sh.views) > 0 || ++c->idle_ticks >= CONTROL_IDLE_MS / CONTROL_PUSH_MS) {
		c->idle_ticks = 0;
		control_publish(c, false, true);
	}
}

/* Carries out one command the server could not refuse; NULL, or why not
 * (caller frees). */
static char *
control_command(struct control *c, const cJSON *j)
{
	const char *name = cJSON_GetObjectItemCaseSensitive(j, "cmd")->valuestring;
	const cJSON *test = cJSON_GetObjectItemCaseSensitive(j, "test");
	const cJSON *count = cJSON_GetObjectItemCaseSensitive(j, "count");
	enum sweep_phase phase = sweep_phase(c->s);
	int rc;

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
		rc = sweep_confirm(c->s, test->valuestring, (int)count->valuedouble);
		if (rc < 0)
			return xasprintf(_("cannot confirm %s now: %s"), test->valuestring,
			                 sweep_confirm_strerror(rc));
		return NULL;
	}
	sweep_interrupt(c->s);
	return NULL;
}

static void control_end(struct control *c);

/* The server's news: commands to carry out, in order, each reply handed
 * back with the status they changed; or the server's end. */
static void
control_news(uv_async_t *a)
{
	struct control *c = a->data;
	struct control_msg *cmds, *m;
	bool want, ended;

	pthread_mutex_lock(&c->sh.mu);
	cmds = c->sh.commands;
	c->sh.commands = NULL;
	want = c->sh.want_status;
	c->sh.want_status = false;
	ended = c->sh.ended;
	pthread_mutex_unlock(&c->sh.mu);
	if (c->closing) {
		while ((m = cmds) != NULL) {
			cmds = m->next;
			control_msg_free(m);
		}
		if (ended) {
			uv_close((uv_handle_t *)&c->news, control_handle_closed);
			uv_close((uv_handle_t *)&c->timer, control_handle_closed);
		}
		return;
	}
	if (cmds == NULL && !want)
		return;
	c->in_command = true;
	for (m = cmds; m != NULL; m = m->next)
		if (!m->refused)
			m->error = control_command(c, m->cmd);
	c->in_command = false;
	/* The commands' effect shows at once, not at the next tick. */
	control_publish(c, false, false);
	pthread_mutex_lock(&c->sh.mu);
	while ((m = cmds) != NULL) {
		cmds = m->next;
		control_msg_push(&c->sh.replies, m);
	}
	pthread_mutex_unlock(&c->sh.mu);
	uv_async_send(c->sh.to_server);
	/* A command ended the sweep: closed now its reply is on its way. */
	if (c->close_asked)
		control_end(c);
}

struct control *
control_new(uv_loop_t *loop, struct sweep *s, const char *outdir, char **err)
{
	struct control *c;
	struct control_text *hello;
	cJSON *j;
	char *name, *text;
	int dirfd, rc;

	*err = NULL;
	name = control_socket_path(outdir, &dirfd, err);
	if (name == NULL)
		return NULL;
	c = xcalloc(1, sizeof *c);
	c->s = s;
	c->path = xasprintf("%s/%s", outdir, CONTROL_SOCKET);
	pthread_mutex_init(&c->sh.mu, NULL);
	atomic_init(&c->sh.views, 0);
	uv_async_init(loop, &c->news, control_news);
	uv_timer_init(loop, &c->timer);
	c->news.data = c->timer.data = c;
	c->handles = 2;
	c->sh.to_sweep = &c->news;
	control_publish(c, true, false);
	j = cJSON_CreateObject();
	cJSON_AddStringToObject(j, "type", "hello");
	cJSON_AddStringToObject(j, "program", PACKAGE_NAME);
	cJSON_AddStringToObject(j, "version", PACKAGE_VERSION);
	cJSON_AddNumberToObject(j, "protocol", CONTROL_PROTOCOL);
	cJSON_AddStringToObject(j, "outdir", sweep_outdir(s));
	cJSON_AddNumberToObject(j, "pid", (double)getpid());
	text = jsonw_print(j, false);
	cJSON_Delete(j);
	hello = control_text_new(text);
	free(text);
	/* A socket left by a sweep killed with -9 is stale: this sweep owns
	 * the directory now (its journal lock says so). */
	unlink(c->path);
	rc = control_server_start(&c->sh, name, hello, &c->srv);
	control_text_unref(hello);
	if (dirfd >= 0)
		close(dirfd);
	free(name);
	if (rc < 0) {
		*err = xasprintf(_("no control socket in %s (`flakesweep view` only reads the "
		                   "journal): %s"),
		                 outdir, uv_strerror(rc));
		c->closing = true;
		uv_close((uv_handle_t *)&c->news, control_handle_closed);
		uv_close((uv_handle_t *)&c->timer, control_handle_closed);
		return NULL;
	}
	chmod(c->path, 0600);
	uv_timer_start(&c->timer, control_timer_cb, CONTROL_PUSH_MS, CONTROL_PUSH_MS);
	uv_unref((uv_handle_t *)&c->timer);
	return c;
}

/* The last status to every view, then the server closes them and itself;
 * its end comes back as news, and c goes once its handles closed. */
static void
control_end(struct control *c)
{
	control_publish(c, true, false);
	c->closing = true;
	uv_timer_stop(&c->timer);
	unlink(c->path);
	pthread_mutex_lock(&c->sh.mu);
	c->sh.close = true;
	pthread_mutex_unlock(&c->sh.mu);
	uv_async_send(c->sh.to_server);
}

void
control_close(struct control *c)
{
	if (c == NULL || c->closing || c->close_asked)
		return;
	if (c->in_command)
		c->close_asked = true;
	else
		control_end(c);
}
