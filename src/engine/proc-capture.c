/* SPDX-License-Identifier: MIT */
/*
 * proc-capture.c: a command run to completion off the loop, its output
 * captured (proc-capture.h): go list, go env, git, a build. Its child is
 * born like a run's (spawner.h), in its own group, and masked like every
 * child's output (proc_set_mask).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/proc.h"
#include "engine/spawner.h"
#include "base/mask.h"
#include "base/util.h"

/* The signal that stopped a capture, for proc_interrupted(). */
static int proc_signalled;

/* Starts argv like a run (own group, PR_SET_PDEATHSIG) with stdout and
 * stderr into out_fd. Returns the pid or a negative errno. */
static pid_t
proc_clone(char *const *argv, const char *cwd, char *const *envp, int out_fd)
{
	struct spawner_child child;
	pid_t pid;
	int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	if (null_fd < 0)
		return -errno;
	memset(&child, 0, sizeof child);
	child.argv = argv;
	child.envp = envp;
	child.cwd = cwd;
	child.out_fd = out_fd;
	child.null_fd = null_fd;
	child.report_fd = -1;
	pid = spawner_clone(&child, NULL);
	close(null_fd);
	return pid;
}

/* Where proc_capture_limit's output goes: into b, at most max bytes. */
struct proc_capture_sink {
	struct buf b;
	size_t max;
};

static void
proc_capture_add(void *arg, const char *data, size_t len)
{
	struct proc_capture_sink *k = arg;

	if (k->b.len < k->max)
		buf_add(&k->b, data, k->b.len + len > k->max ? k->max - k->b.len : len);
}

int
proc_capture_limit(char *const *argv, const char *cwd, char *const *envp, size_t max,
                   int64_t limit_ms, char **output)
{
	struct proc_capture_sink k = {.max = max};
	struct mask_stream *ms = NULL;
	struct pollfd pfd[2];
	sigset_t stop, old;
	int fds[2], ws = 0, rc, sig = 0;
	int64_t deadline = util_mono_ms() + limit_ms;
	bool timed_out = false;
	pid_t pid;
	char chunk[8192];

	buf_init(&k.b);
	*output = NULL;
	if (pipe2(fds, O_CLOEXEC) < 0) {
		*output = xstrdup("");
		return -errno;
	}
	/* SIGINT, SIGTERM and SIGHUP wait in a signalfd while this blocks the
	 * loop: they stop the child, then go on to their handler. */
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	pfd[0].fd = fds[0];
	pfd[0].events = POLLIN;
	pfd[1].fd = signalfd(-1, &stop, SFD_CLOEXEC);
	pfd[1].events = POLLIN;
	pid = proc_clone(argv, cwd, envp, fds[1]);
	close(fds[1]);
	if (pid < 0) {
		rc = (int)pid;
		*output = xstrdup("");
		goto out;
	}
	if (proc_mask() != NULL && mask_count(proc_mask()) > 0)
		ms = mask_stream_new(proc_mask(), proc_capture_add, &k);
	for (;;) {
		int64_t left = deadline - util_mono_ms();
		ssize_t n;

		if (left <= 0) {
			timed_out = true;
			break;
		}
		n = poll(pfd, pfd[1].fd >= 0 ? 2 : 1, left > INT32_MAX ? INT32_MAX : (int)left);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		if (pfd[1].fd >= 0 && (pfd[1].revents & POLLIN)) {
			struct signalfd_siginfo si;

			if (read(pfd[1].fd, &si, sizeof si) == sizeof si) {
				sig = (int)si.ssi_signo;
				break;
			}
		}
		if (pfd[0].revents == 0)
			continue;
		n = read(fds[0], chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (ms != NULL)
			mask_stream_feed(ms, chunk, (size_t)n);
		else
			proc_capture_add(&k, chunk, (size_t)n);
	}
	if (ms != NULL)
		mask_stream_flush(ms);
	mask_stream_free(ms);
	if (timed_out || sig != 0)
		kill(-pid, SIGKILL);
	while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
		;
	/* Whatever the child left in its group must not outlive it. */
	kill(-pid, SIGKILL);
	*output = buf_steal(&k.b);
	if (sig != 0)
		rc = -EINTR;
	else if (timed_out)
		rc = -ETIMEDOUT;
	else if (WIFEXITED(ws))
		rc = WEXITSTATUS(ws);
	else
		rc = 128 + WTERMSIG(ws);
out:
	close(fds[0]);
	if (pfd[1].fd >= 0)
		close(pfd[1].fd);
	if (sig != 0) {
		proc_signalled = sig;
		/* Pending while blocked, handled as the mask comes back. */
		kill(getpid(), sig);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int
proc_capture(char *const *argv, const char *cwd, char *const *envp, size_t max, char **output)
{
	return proc_capture_limit(argv, cwd, envp, max, PROC_CAPTURE_LIMIT_MS, output);
}

int
proc_interrupted(void)
{
	return proc_signalled;
}

char *
proc_capture_line(char *const *argv, const char *cwd)
{
	extern char **environ;
	char *out = NULL;

	if (proc_capture(argv, cwd, environ, 1 << 16, &out) != 0) {
		free(out);
		return NULL;
	}
	out[strcspn(out, "\n")] = '\0';
	if (*out == '\0') {
		free(out);
		return NULL;
	}
	return out;
}
