/* SPDX-License-Identifier: MIT */
/*
 * editor.c: forks the editor and watches its exit through a pidfd on the
 * loop (a 100 ms poll of waitpid when pidfds are missing), so neither
 * libuv's SIGCHLD handling nor a blocking wait is involved.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "editor.h"
#include "base/util.h"

#define EDITOR_POLL_MS 100

struct editor {
	union {
		uv_handle_t handle;
		uv_poll_t poll;
		uv_timer_t timer;
	} h;
	pid_t pid;
	int pidfd;
	int status;
	editor_done_cb done;
	void *arg;
};

static void
editor_close_cb(uv_handle_t *h)
{
	struct editor *e = h->data;

	if (e->pidfd >= 0)
		close(e->pidfd);
	e->done(e->arg, e->status);
	free(e);
}

/* Reaps the editor if it is over. Returns true when it is. */
static bool
editor_reap(struct editor *e)
{
	int ws = 0;
	pid_t r = waitpid(e->pid, &ws, WNOHANG);

	if (r == 0)
		return false;
	if (r < 0) {
		/* Reaped elsewhere (the sweep reaps orphans): over, status unknown. */
		e->status = -1;
		return errno == ECHILD;
	}
	if (WIFEXITED(ws))
		e->status = WEXITSTATUS(ws);
	else if (WIFSIGNALED(ws))
		e->status = 128 + WTERMSIG(ws);
	else
		return false;
	return true;
}

static void
editor_poll_cb(uv_poll_t *p, int status, int events)
{
	struct editor *e = p->data;

	(void)status;
	(void)events;
	if (editor_reap(e) || status < 0) {
		uv_poll_stop(p);
		uv_close(&e->h.handle, editor_close_cb);
	}
}

static void
editor_timer_cb(uv_timer_t *t)
{
	struct editor *e = t->data;

	if (editor_reap(e)) {
		uv_timer_stop(t);
		uv_close(&e->h.handle, editor_close_cb);
	}
}

/* Runs `sh -c script sh path` on the terminal (see editor_start). */
static int
editor_run(uv_loop_t *loop, const char *script, const char *path, editor_done_cb done, void *arg,
           pid_t *pid)
{
	struct editor *e = xcalloc(1, sizeof *e);
	int sig;

	e->done = done;
	e->arg = arg;
	e->pidfd = -1;
	fflush(NULL);
	e->pid = fork();
	if (e->pid < 0) {
		int rc = -errno;

		free(e);
		return rc;
	}
	if (e->pid == 0) {
		sigset_t none;

		/* The editor gets default signals: flakesweep ignores SIGPIPE and
		 * libuv may block some. */
		for (sig = 1; sig < NSIG; sig++)
			signal(sig, SIG_DFL);
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		execl("/bin/sh", "sh", "-c", script, "sh", path, (char *)NULL);
		_exit(127);
	}
	*pid = e->pid;
#ifdef SYS_pidfd_open
	e->pidfd = (int)syscall(SYS_pidfd_open, e->pid, 0);
#endif
	if (e->pidfd >= 0 && uv_poll_init(loop, &e->h.poll, e->pidfd) == 0) {
		e->h.poll.data = e;
		uv_poll_start(&e->h.poll, UV_READABLE, editor_poll_cb);
	} else {
		if (e->pidfd >= 0)
			close(e->pidfd);
		e->pidfd = -1;
		uv_timer_init(loop, &e->h.timer);
		e->h.timer.data = e;
		uv_timer_start(&e->h.timer, editor_timer_cb, EDITOR_POLL_MS, EDITOR_POLL_MS);
	}
	return 0;
}

int
editor_start(uv_loop_t *loop, const char *path, editor_done_cb done, void *arg, pid_t *pid)
{
	return editor_run(loop, "exec ${EDITOR:-vi} \"$1\"", path, done, arg, pid);
}

int
editor_start_pager(uv_loop_t *loop, const char *path, editor_done_cb done, void *arg, pid_t *pid)
{
	return editor_run(loop, "exec ${PAGER:-less} \"$1\"", path, done, arg, pid);
}
