/* SPDX-License-Identifier: MIT */
/*
 * tapone.c: the smallest TAP test binary, for bench/floor.sh: one point,
 * always passing, after MS milliseconds asleep ("sleep") or of CPU spent
 * spinning ("spin"). Built static, so its exec is as cheap as one can be.
 *
 * Usage: tapone sleep|spin MS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double
cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int
main(int argc, char **argv)
{
	long ms = argc > 2 ? atol(argv[2]) : 0;

	if (argc > 1 && strcmp(argv[1], "spin") == 0) {
		double end = cpu_ms() + (double)ms;
		volatile unsigned long x = 0;

		while (cpu_ms() < end)
			x++;
	} else if (ms > 0) {
		struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};

		nanosleep(&ts, NULL);
	}
	fputs("1..1\nok 1 - one\n", stdout);
	return 0;
}
