/* SPDX-License-Identifier: MIT */
/*
 * exits.c: one epoll set of pidfds per loop, itself watched by one
 * uv_poll_t. libuv's own poll handle costs three epoll_ctl calls and an
 * ioctl to make, two to start and stop and one to close, for each child;
 * here a child costs two, one to watch and one to forget. Closing its
 * pidfd is not enough to forget it: a child born meanwhile on another
 * thread holds a copy of every descriptor until its exec, and the set
 * forgets a descriptor only once its last copy is closed. The sets live on
 * a list read and changed on the loops' threads, under a lock, since each
 * loop has its own.
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "base/util.h"
#include "engine/exits.h"

/* Events taken from the set in one go. */
#define EXITS_BATCH 64

struct exits {
	uv_loop_t *loop;
	int epfd;
	uv_poll_t poll;
	size_t watched;
	bool kept;
	exits_cb cb;
	struct exits *next;
};

static struct exits *exits_sets;
static pthread_mutex_t exits_mu = PTHREAD_MUTEX_INITIALIZER;

static void
exits_closed(uv_handle_t *h)
{
	struct exits *x = h->data;

	close(x->epfd);
	free(x);
}

static void
exits_ready(uv_poll_t *h, int status, int events)
{
	struct exits *x = h->data;
	struct epoll_event ev[EXITS_BATCH];
	int n, i;

	(void)status;
	(void)events;
	n = epoll_wait(x->epfd, ev, EXITS_BATCH, 0);
	/* A callback that forgets the last watch closes x, which stays
	 * readable until the turn ends. */
	for (i = 0; i < n; i++)
		x->cb(ev[i].data.ptr);
}

/* The loop's set, made when it has none. */
static struct exits *
exits_of(uv_loop_t *loop, exits_cb cb)
{
	struct exits *x;

	pthread_mutex_lock(&exits_mu);
	for (x = exits_sets; x != NULL && x->loop != loop; x = x->next)
		;
	pthread_mutex_unlock(&exits_mu);
	if (x != NULL)
		return x;
	x = xcalloc(1, sizeof *x);
	x->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (x->epfd < 0 || uv_poll_init(loop, &x->poll, x->epfd) < 0) {
		int err = errno;

		if (x->epfd >= 0)
			close(x->epfd);
		free(x);
		errno = err;
		return NULL;
	}
	x->loop = loop;
	x->cb = cb;
	x->poll.data = x;
	uv_poll_start(&x->poll, UV_READABLE, exits_ready);
	pthread_mutex_lock(&exits_mu);
	x->next = exits_sets;
	exits_sets = x;
	pthread_mutex_unlock(&exits_mu);
	return x;
}

struct exits *
exits_watch(uv_loop_t *loop, int pidfd, exits_cb cb, void *arg)
{
	struct exits *x = exits_of(loop, cb);
	struct epoll_event ev;

	if (x == NULL)
		return NULL;
	ev.events = EPOLLIN;
	ev.data.ptr = arg;
	if (epoll_ctl(x->epfd, EPOLL_CTL_ADD, pidfd, &ev) < 0) {
		int err = errno;

		exits_forget(x, -1);
		errno = err;
		return NULL;
	}
	x->watched++;
	return x;
}

void
exits_forget(struct exits *x, int pidfd)
{
	struct exits **pp;

	if (pidfd >= 0) {
		epoll_ctl(x->epfd, EPOLL_CTL_DEL, pidfd, NULL);
		close(pidfd);
		x->watched--;
	}
	if (x->watched > 0 || x->kept)
		return;
	pthread_mutex_lock(&exits_mu);
	for (pp = &exits_sets; *pp != x; pp = &(*pp)->next)
		;
	*pp = x->next;
	pthread_mutex_unlock(&exits_mu);
	uv_poll_stop(&x->poll);
	uv_close((uv_handle_t *)&x->poll, exits_closed);
}

void
exits_keep(uv_loop_t *loop, exits_cb cb, bool keep)
{
	struct exits *x = exits_of(loop, cb);

	if (x == NULL)
		return;
	x->kept = keep;
	exits_forget(x, -1);
}
