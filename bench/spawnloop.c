/* SPDX-License-Identifier: MIT */
/*
 * spawnloop.c: the benchmarks' floor. A bare posix_spawn loop keeps P runs
 * of a command in flight until N have finished. Run k of the P slots is
 * pinned to core k mod C of the cores it may use (sched_setaffinity on the
 * child as soon as it is born, as --cpu 1 pins a lane), its stdout and
 * stderr go to a pipe that is read to the end (and thrown away), and it is
 * reaped. Nothing is parsed or recorded: no launcher can do less per run.
 * Prints runs per second and its own CPU time per run in ms (getrusage:
 * every thread of it, not its children).
 *
 * Usage: spawnloop P N COMMAND [ARGS...]
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

struct slot {
	pid_t pid; /* 0 when the slot is free */
	int fd;    /* the read end of its output, -1 at its end */
};

/* The cores this process may use, in order. */
static int
cores_allowed(int *cores, int max)
{
	cpu_set_t set;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof set, &set) < 0)
		return 0;
	for (i = 0; i < CPU_SETSIZE && n < max; i++)
		if (CPU_ISSET(i, &set))
			cores[n++] = i;
	return n;
}

static int
spawn_one(struct slot *sl, int core, char **argv)
{
	posix_spawn_file_actions_t fa;
	cpu_set_t set;
	int fds[2], rc;

	if (pipe2(fds, O_CLOEXEC) < 0)
		return -1;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
	posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
	rc = posix_spawn(&sl->pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	close(fds[1]);
	if (rc != 0) {
		close(fds[0]);
		errno = rc;
		return -1;
	}
	CPU_ZERO(&set);
	CPU_SET(core, &set);
	sched_setaffinity(sl->pid, sizeof set, &set);
	sl->fd = fds[0];
	return 0;
}

/* Reads what is ready on the open pipes to their ends; a run whose pipe
 * ended is reaped and its slot freed. Returns the runs that ended. */
static int
drain(struct slot *slots, struct pollfd *pfd, int p, int *failed)
{
	char buf[65536];
	int i, n = 0, ended = 0;

	for (i = 0; i < p; i++) {
		if (slots[i].pid == 0)
			continue;
		pfd[n].fd = slots[i].fd;
		pfd[n].events = POLLIN;
		n++;
	}
	if (poll(pfd, (nfds_t)n, -1) < 0)
		return 0;
	for (i = 0, n = 0; i < p; i++) {
		int status;

		if (slots[i].pid == 0)
			continue;
		if ((pfd[n++].revents & (POLLIN | POLLHUP | POLLERR)) == 0)
			continue;
		if (read(slots[i].fd, buf, sizeof buf) > 0)
			continue;
		close(slots[i].fd);
		waitpid(slots[i].pid, &status, 0);
		*failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		slots[i].pid = 0;
		ended++;
	}
	return ended;
}

int
main(int argc, char **argv)
{
	struct timespec t0, t1;
	struct rusage ru;
	struct slot *slots;
	struct pollfd *pfd;
	int cores[CPU_SETSIZE], ncores, p, n, i, started = 0, done = 0, failed = 0;
	double secs, own_ms;

	if (argc < 4) {
		fprintf(stderr, "usage: spawnloop P N COMMAND [ARGS...]\n");
		return 2;
	}
	p = atoi(argv[1]);
	n = atoi(argv[2]);
	ncores = cores_allowed(cores, CPU_SETSIZE);
	if (p < 1 || n < 1 || ncores < 1) {
		fprintf(stderr, "spawnloop: P and N must be positive\n");
		return 2;
	}
	slots = calloc((size_t)p, sizeof *slots);
	pfd = calloc((size_t)p, sizeof *pfd);
	if (slots == NULL || pfd == NULL)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (done < n) {
		for (i = 0; i < p && started < n; i++) {
			if (slots[i].pid != 0)
				continue;
			if (spawn_one(&slots[i], cores[i % ncores], argv + 3) < 0) {
				perror("posix_spawn");
				return 2;
			}
			started++;
		}
		done += drain(slots, pfd, p, &failed);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	getrusage(RUSAGE_SELF, &ru);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	own_ms = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
	         (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
	printf("%.1f %.4f\n", done / secs, own_ms / done);
	if (failed > 0)
		fprintf(stderr, "spawnloop: %d runs failed\n", failed);
	free(slots);
	free(pfd);
	return 0;
}
