/* SPDX-License-Identifier: MIT */
/*
 * faketap.c: a fast fake TAP test binary for bench/ui-cost.sh. It sleeps
 * the given milliseconds (so runs finish at a chosen rate without burning
 * CPU), then prints ten TAP points, one of which fails about one run in
 * fifty, so the dashboard has a flaky test to show while it is measured.
 *
 * Usage: faketap MS
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	long ms = argc > 1 ? atol(argv[1]) : 10;
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	int i;

	nanosleep(&ts, NULL);
	srand((unsigned)getpid() ^ (unsigned)time(NULL));
	printf("1..10\n");
	for (i = 1; i <= 10; i++) {
		if (i == 7 && rand() % 50 == 0)
			printf("not ok %d - case_%d\n# case_%d: lost a wakeup\n", i, i, i);
		else
			printf("ok %d - case_%d\n", i, i);
	}
	return 0;
}
