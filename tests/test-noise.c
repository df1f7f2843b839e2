/* SPDX-License-Identifier: MIT */
/*
 * test-noise.c: host noise from a /proc/stat the test writes: busy and
 * steal time on a run's cores, less the run's own CPU time, over the
 * cores' time; cells add the time other processes took.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "engine/noise.h"
#include "base/util.h"

/* user nice system idle iowait irq softirq steal, for cpu0 and cpu1. */
static void
write_stat(const char *path, const char *cpu0, const char *cpu1)
{
	char *text =
	    xasprintf("cpu  1 2 3 4 5 6 7 8 0 0\ncpu0 %s 0 0\ncpu1 %s 0 0\nintr 1 2\n", cpu0, cpu1);

	CHECK_INT(util_write_file_atomic(path, text, strlen(text)), 0);
	free(text);
}

TEST(noise_share_of_other_processes_on_the_runs_cores)
{
	char *path = xasprintf("%s/stat", check_tmpdir());
	long hz = sysconf(_SC_CLK_TCK);
	int core0[] = {0}, both[] = {0, 1};
	struct noise *n;
	struct noise_run *r, *w;
	double other_ms, share;

	write_stat(path, "100 0 50 50 0 0 0 0", "10 0 0 190 0 0 0 0");
	n = noise_new(path);
	/* pid 0 is no process: only wait4's count stands for the run. */
	r = noise_begin(n, 1, 0, core0, 1);
	w = noise_begin(n, 1, 0, both, 2);
	/* 100 ticks on core 0: 40 user, 10 system, 5 steal, 45 idle; on core 1
	 * 20 user, 80 idle. */
	write_stat(path, "140 0 60 95 0 0 0 5", "30 0 0 270 0 0 0 0");
	/* The same loop tick reads /proc/stat once: nothing passed yet. */
	share = noise_end(n, r, 1, 20 * 1000000 / hz, &other_ms);
	CHECK(share == -1);
	r = noise_begin(n, 1, 0, core0, 1);
	/* The run took 20 of core 0's 55 busy ticks: others took 35 of 100. */
	share = noise_end(n, r, 2, 20 * 1000000 / hz, &other_ms);
	CHECK(fabs(share - 0.35) < 1e-9);
	CHECK(fabs(other_ms - 35 * 1000.0 / (double)hz) < 1e-6);
	/* The two-core run spans both: 55 + 20 busy, less the 20 of each run
	 * on core 0 and its own 10, over 200. */
	share = noise_end(n, w, 2, 10 * 1000000 / hz, &other_ms);
	CHECK(fabs(share - 25.0 / 200) < 1e-9);
	/* A run that took more than the busy time counts none, not less. */
	r = noise_begin(n, 2, 0, core0, 1);
	write_stat(path, "150 0 60 185 0 0 0 5", "30 0 0 370 0 0 0 0");
	share = noise_end(n, r, 3, 30 * 1000000 / hz, &other_ms);
	CHECK(share == 0);
	CHECK(other_ms < 0);
	/* An unreadable /proc/stat measures nothing. */
	unlink(path);
	r = noise_begin(n, 4, 0, core0, 1);
	CHECK(noise_end(n, r, 5, 0, &other_ms) == -1);
	noise_free(n);
	CHECK(noise_share(30, 100) == 0.3);
	CHECK(noise_share(-5, 100) == 0);
	CHECK(noise_share(5, 0) == -1);
	free(path);
}
