/* SPDX-License-Identifier: MIT */
/*
 * http-uv.c: the glue between libcurl's multi socket interface and a
 * libuv loop (curl's docs/examples/multi-uv.c). libcurl says which sockets
 * to watch (http_uv_socket_fn) and when to wake it (http_uv_timer_fn);
 * this file keeps one uv_poll_t per socket and one uv_timer_t, hands their
 * events back to curl_multi_socket_action() and reports each finished
 * transfer. It owns the multi handle and those handles and frees itself in
 * the last close callback. It never touches a transfer's options, headers
 * or reply, and knows nothing of GitHub.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>

#include "base/http-uv.h"
#include "base/util.h"

struct http_uv_sock {
	uv_poll_t poll;
	curl_socket_t fd;
	int events; /* what libcurl asked to watch (UV_READABLE, UV_WRITABLE) */
	struct http_uv *h;
	struct http_uv_sock *next;
};

struct http_uv {
	uv_loop_t *loop;
	CURLM *multi;
	uv_timer_t timer; /* libcurl's own timeout */
	struct http_uv_sock *socks;
	int open_handles;
	int depth;      /* >0 while libcurl or a done callback is on the stack */
	bool in_curl;   /* inside curl_multi_socket_action: adds wait */
	CURL **pending; /* added from libcurl's own callbacks */
	size_t npending;
	bool closing;
	http_uv_done_cb done;
	void *data;
	http_uv_closed_cb closed;
	void *closed_data;
};

static void http_uv_maybe_destroy(struct http_uv *h);

static void
http_uv_sock_closed(uv_handle_t *handle)
{
	struct http_uv_sock *s = handle->data;
	struct http_uv *h = s->h;

	free(s);
	h->open_handles--;
	http_uv_maybe_destroy(h);
}

static void
http_uv_sock_close(struct http_uv *h, struct http_uv_sock *s)
{
	struct http_uv_sock **pp;

	for (pp = &h->socks; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	}
	uv_poll_stop(&s->poll);
	uv_close((uv_handle_t *)&s->poll, http_uv_sock_closed);
}

/* Reports the transfers that ended, until the caller closes h. */
static void
http_uv_check_done(struct http_uv *h)
{
	CURLMsg *m;
	int left;

	while (!h->closing && (m = curl_multi_info_read(h->multi, &left)) != NULL) {
		if (m->msg == CURLMSG_DONE)
			h->done(m->easy_handle, m->data.result, h->data);
	}
}

/* Runs libcurl for fd (CURL_SOCKET_TIMEOUT: its timer), then reports. */
static void
http_uv_action(struct http_uv *h, curl_socket_t fd, int flags)
{
	int running;
	size_t i;

	h->depth++;
	h->in_curl = true;
	curl_multi_socket_action(h->multi, fd, flags, &running);
	h->in_curl = false;
	for (i = 0; i < h->npending; i++)
		curl_multi_add_handle(h->multi, h->pending[i]);
	h->npending = 0;
	http_uv_check_done(h);
	h->depth--;
	http_uv_maybe_destroy(h);
}

static void
http_uv_poll_cb(uv_poll_t *p, int status, int events)
{
	struct http_uv_sock *s = p->data;
	int flags = 0;

	if (status < 0) {
		/* POLLERR: libuv stopped the handle. Let libcurl try the I/O it
		 * wanted and find the real error itself; a query on a reused
		 * connection that the server closed is then sent again on a new
		 * one, as libcurl does on its own. */
		uv_poll_start(&s->poll, s->events, http_uv_poll_cb);
		events = s->events;
	}
	if (events & UV_READABLE)
		flags |= CURL_CSELECT_IN;
	if (events & UV_WRITABLE)
		flags |= CURL_CSELECT_OUT;
	http_uv_action(s->h, s->fd, flags);
}

static int
http_uv_socket_fn(CURL *easy, curl_socket_t fd, int what, void *userp, void *socketp)
{
	struct http_uv *h = userp;
	struct http_uv_sock *s = socketp;
	int events = 0;

	(void)easy;
	if (what == CURL_POLL_REMOVE) {
		if (s != NULL) {
			if (!h->closing)
				curl_multi_assign(h->multi, fd, NULL);
			http_uv_sock_close(h, s);
		}
		return 0;
	}
	if (s == NULL) {
		s = xcalloc(1, sizeof *s);
		s->fd = fd;
		s->h = h;
		if (uv_poll_init_socket(h->loop, &s->poll, fd) < 0) {
			free(s);
			return -1;
		}
		s->poll.data = s;
		s->next = h->socks;
		h->socks = s;
		h->open_handles++;
		curl_multi_assign(h->multi, fd, s);
	}
	if (what & CURL_POLL_IN)
		events |= UV_READABLE;
	if (what & CURL_POLL_OUT)
		events |= UV_WRITABLE;
	s->events = events;
	uv_poll_start(&s->poll, events, http_uv_poll_cb);
	return 0;
}

static void
http_uv_timer_cb(uv_timer_t *t)
{
	http_uv_action(t->data, CURL_SOCKET_TIMEOUT, 0);
}

static int
http_uv_timer_fn(CURLM *multi, long timeout_ms, void *userp)
{
	struct http_uv *h = userp;

	(void)multi;
	if (timeout_ms < 0)
		uv_timer_stop(&h->timer);
	else
		uv_timer_start(&h->timer, http_uv_timer_cb, (uint64_t)timeout_ms, 0);
	return 0;
}

static void
http_uv_timer_closed(uv_handle_t *handle)
{
	struct http_uv *h = handle->data;

	h->open_handles--;
	http_uv_maybe_destroy(h);
}

struct http_uv *
http_uv_new(uv_loop_t *loop, http_uv_done_cb done, void *data)
{
	struct http_uv *h = xcalloc(1, sizeof *h);

	h->loop = loop;
	h->done = done;
	h->data = data;
	h->multi = curl_multi_init();
	curl_multi_setopt(h->multi, CURLMOPT_SOCKETFUNCTION, http_uv_socket_fn);
	curl_multi_setopt(h->multi, CURLMOPT_SOCKETDATA, h);
	curl_multi_setopt(h->multi, CURLMOPT_TIMERFUNCTION, http_uv_timer_fn);
	curl_multi_setopt(h->multi, CURLMOPT_TIMERDATA, h);
	uv_timer_init(loop, &h->timer);
	h->timer.data = h;
	h->open_handles = 1;
	return h;
}

void
http_uv_add(struct http_uv *h, CURL *easy)
{
	if (!h->in_curl) {
		curl_multi_add_handle(h->multi, easy);
		return;
	}
	/* libcurl refuses a handle added from its own write callback. */
	h->pending = xgrow(h->pending, h->npending, sizeof *h->pending);
	h->pending[h->npending++] = easy;
}

void
http_uv_remove(struct http_uv *h, CURL *easy)
{
	size_t i;

	for (i = 0; i < h->npending; i++) {
		if (h->pending[i] == easy)
			h->pending[i] = h->pending[--h->npending];
	}
	curl_multi_remove_handle(h->multi, easy);
}

/* Tears down once closing and off libcurl's stack: first the multi handle
 * and the libuv handles, then, from the last close callback, h itself. */
static void
http_uv_maybe_destroy(struct http_uv *h)
{
	http_uv_closed_cb closed;
	void *data;

	if (!h->closing || h->depth > 0)
		return;
	if (h->multi != NULL) {
		struct http_uv_sock *s;

		curl_multi_cleanup(h->multi);
		h->multi = NULL;
		/* Sockets libcurl closed without telling us. */
		while ((s = h->socks) != NULL)
			http_uv_sock_close(h, s);
		uv_timer_stop(&h->timer);
		uv_close((uv_handle_t *)&h->timer, http_uv_timer_closed);
		return;
	}
	if (h->open_handles > 0)
		return;
	closed = h->closed;
	data = h->closed_data;
	free(h->pending);
	free(h);
	if (closed != NULL)
		closed(data);
}

void
http_uv_close(struct http_uv *h, http_uv_closed_cb closed, void *data)
{
	if (h == NULL || h->closing)
		return;
	h->closing = true;
	h->closed = closed;
	h->closed_data = data;
	http_uv_maybe_destroy(h);
}
