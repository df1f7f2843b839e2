/* SPDX-License-Identifier: MIT */
/*
 * spawnloop.c: the benchmark's floor. A bare posix_spawn loop keeps P runs
 * of a command in flight, with inherited affinity and output to /dev/null,
 * until N have finished, and prints runs per second. Nothing is parsed or
 * recorded: no launcher can do less per run.
 *
 * Usage: spawnloop P N COMMAND [ARGS...]
 */
#include "config.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

int
main(int argc, char **argv)
{
	posix_spawn_file_actions_t fa;
	struct timespec t0, t1;
	int p, n, started = 0, done = 0, failed = 0;
	double secs;

	if (argc < 4) {
		fprintf(stderr, "usage: spawnloop P N COMMAND [ARGS...]\n");
		return 2;
	}
	p = atoi(argv[1]);
	n = atoi(argv[2]);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (done < n) {
		int status;

		while (started < n && started - done < p) {
			pid_t pid;

			if (posix_spawn(&pid, argv[3], &fa, NULL, argv + 3, environ) != 0) {
				perror("posix_spawn");
				return 2;
			}
			started++;
		}
		if (wait(&status) > 0) {
			done++;
			failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("%.1f\n", done / secs);
	if (failed > 0)
		fprintf(stderr, "spawnloop: %d runs failed\n", failed);
	return 0;
}
