/* SPDX-License-Identifier: MIT */
/*
 * spawner.c: the child side of a run's birth. clone(CLONE_VM |
 * CLONE_VFORK) runs the child on a stack of the calling thread's own
 * while that thread (and only it) is suspended; the child makes its own
 * group, pins itself, asks to die with flakesweep and execs. Until exec it
 * shares flakesweep's memory: only system calls, no allocation.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <net/if.h>
#include <pthread.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "engine/spawner.h"
#include "base/util.h"

#define SPAWNER_STACK_SIZE (64 * 1024)

/* What the child reads, and the error it hands back. */
struct spawner_birth {
	const struct spawner_child *c;
	char *const *envp; /* without the withheld variables */
	pid_t parent;
	volatile int err; /* shared with the parent through CLONE_VM */
};

/* The limit of open descriptors children get back, once raised. */
static struct rlimit spawner_fd_limit;
static bool spawner_fd_limit_raised;
/* The variables no child sees (spawner_withhold_env). */
static char **spawner_withheld;
static size_t spawner_nwithheld;
/* Each thread's own stack for the children it clones. */
static _Thread_local char spawner_stack[SPAWNER_STACK_SIZE] __attribute__((aligned(16)));

/* In the child: a new network namespace whose loopback is up. Only system
 * calls, as the rest of the child side. */
static int
spawner_child_netns(void)
{
	struct ifreq ifr;
	int fd, rc = -1;

	if (unshare(CLONE_NEWNET) < 0)
		return -1;
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	memset(&ifr, 0, sizeof ifr);
	memcpy(ifr.ifr_name, "lo", 3);
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) == 0) {
		ifr.ifr_flags |= IFF_UP;
		rc = ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
	return rc;
}

/* The most descriptors Linux lets a process have by default (nr_open). */
#define SPAWNER_FD_MAX 1048576

void
spawner_raise_fd_limit(void)
{
	struct rlimit r;

	if (spawner_fd_limit_raised || getrlimit(RLIMIT_NOFILE, &r) < 0 || r.rlim_cur >= r.rlim_max)
		return;
	spawner_fd_limit = r;
	r.rlim_cur = r.rlim_max < SPAWNER_FD_MAX ? r.rlim_max : SPAWNER_FD_MAX;
	if (r.rlim_cur > spawner_fd_limit.rlim_cur && setrlimit(RLIMIT_NOFILE, &r) == 0)
		spawner_fd_limit_raised = true;
}

void
spawner_withhold_env(const char *name)
{
	size_t i;

	for (i = 0; i < spawner_nwithheld; i++) {
		if (strcmp(spawner_withheld[i], name) == 0)
			return;
	}
	util_strv_add(&spawner_withheld, &spawner_nwithheld, name);
}

char **
spawner_env(char *const *envp)
{
	size_t n = 0, k = 0, i;
	char **out;

	if (spawner_nwithheld == 0 || envp == NULL)
		return NULL;
	while (envp[n] != NULL)
		n++;
	out = xmalloc(sizeof *out * (n + 1));
	for (; *envp != NULL; envp++) {
		bool keep = true;

		for (i = 0; i < spawner_nwithheld && keep; i++) {
			size_t len = strlen(spawner_withheld[i]);

			keep =
			    !(strncmp(*envp, spawner_withheld[i], len) == 0 && (*envp)[len] == '=');
		}
		if (keep)
			out[k++] = *envp;
	}
	out[k] = NULL;
	return out;
}

/* Runs in the child, on the parent thread's spawner_stack, while that
 * thread is suspended (CLONE_VFORK): only async-signal-safe calls until
 * exec. */
static int
spawner_child_exec(void *argp)
{
	struct spawner_birth *b = argp;
	const struct spawner_child *c = b->c;
	sigset_t all;
	int sig;

	if (c->born_at != NULL)
		clock_gettime(CLOCK_BOOTTIME, c->born_at);
	if (setpgid(0, 0) < 0)
		goto fail;
	if (c->cpus != NULL && sched_setaffinity(0, sizeof *c->cpus, c->cpus) < 0)
		goto fail;
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		goto fail;
	if (spawner_fd_limit_raised && setrlimit(RLIMIT_NOFILE, &spawner_fd_limit) < 0)
		goto fail;
	/* flakesweep may already have died between clone and prctl. */
	if (getppid() != b->parent) {
		b->err = ESRCH;
		_exit(127);
	}
	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	sigemptyset(&all);
	sigprocmask(SIG_SETMASK, &all, NULL);
	if (c->isolate_net && spawner_child_netns() < 0)
		goto fail;
	if (c->cwd != NULL && chdir(c->cwd) < 0)
		goto fail;
	if (dup2(c->null_fd, 0) < 0 || dup2(c->out_fd, 1) < 0 || dup2(c->out_fd, 2) < 0)
		goto fail;
	/* dup2 onto itself keeps close-on-exec: clear it by hand then. */
	if (c->report_fd == SPAWNER_REPORT_FD && fcntl(SPAWNER_REPORT_FD, F_SETFD, 0) < 0)
		goto fail;
	if (c->report_fd >= 0 && c->report_fd != SPAWNER_REPORT_FD &&
	    dup2(c->report_fd, SPAWNER_REPORT_FD) < 0)
		goto fail;
	execvpe(c->argv[0], c->argv, b->envp);
fail:
	b->err = errno;
	_exit(127);
}

pid_t
spawner_clone(const struct spawner_child *c, int *pidfd)
{
	struct spawner_birth b;
	char **env = spawner_env(c->envp);
	sigset_t all, old;
	int flags = CLONE_VM | CLONE_VFORK | SIGCHLD;
	pid_t pid;

	memset(&b, 0, sizeof b);
	b.c = c;
	b.envp = env != NULL ? env : c->envp;
	b.parent = getpid();
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	if (pidfd != NULL) {
		*pidfd = -1;
		pid = clone(spawner_child_exec, spawner_stack + sizeof spawner_stack,
		            flags | CLONE_PIDFD, &b, pidfd);
		if (pid < 0 && errno == EINVAL)
			pidfd = NULL;
	}
	if (pidfd == NULL)
		pid = clone(spawner_child_exec, spawner_stack + sizeof spawner_stack, flags, &b);
	if (pid < 0)
		pid = -errno;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	/* CLONE_VFORK: the child has exec'd or failed; env is no longer read. */
	free(env);
	if (pid > 0 && b.err != 0) {
		waitpid(pid, NULL, 0);
		pid = -b.err;
	}
	if (pid < 0 && pidfd != NULL && *pidfd >= 0) {
		close(*pidfd);
		*pidfd = -1;
	}
	return pid;
}
