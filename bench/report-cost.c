/* SPDX-License-Identifier: MIT */
/*
 * report-cost.c: what one rewrite of results.json and report.txt costs a
 * live sweep (it rewrites them every 2 s on its loop): results of TESTS
 * tests (100 a package) at 4 pairs, a quarantine file of ENTRIES entries,
 * report_write timed over 10 rewrites. Prints the milliseconds a rewrite
 * of CPU a rewrite takes (the machine may be busy: wall time would
 * measure it) and, apart, the same without the quarantine.
 * Build: make bench/report-cost; usage: bench/report-cost [TESTS [ENTRIES]]
 * (default 10000 and 1000). Target: under 10 ms for 10k tests.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "decisions/quarantine.h"
#include "results/report.h"
#include "results/results.h"
#include "base/util.h"

#define REPORT_COST_REWRITES 10

static double
report_cost_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static double
report_cost_ms(const char *dir, const struct results *r, struct report_meta *m)
{
	char *err = NULL;
	double t0 = report_cost_now_ms();
	int i;

	for (i = 0; i < REPORT_COST_REWRITES; i++) {
		if (report_write(dir, r, m, &err) < 0) {
			fprintf(stderr, "report-cost: %s\n", err);
			exit(1);
		}
	}
	return (report_cost_now_ms() - t0) / REPORT_COST_REWRITES;
}

int
main(int argc, char **argv)
{
	int ntests = argc > 1 ? atoi(argv[1]) : 10000, nentries = argc > 2 ? atoi(argv[2]) : 1000;
	char dir[] = "/tmp/report-cost-XXXXXX";
	struct results *r = results_new();
	struct report_meta m;
	struct quarantine *q;
	struct buf b;
	int p, t, k, run = 0;
	double with_q, without_q;

	if (mkdtemp(dir) == NULL)
		return 1;
	for (p = 0; p < (ntests + 99) / 100; p++) {
		char *name = xasprintf("example.com/p%d", p);

		results_add_pkg(r, name, "unit");
		free(name);
		for (k = 0; k < 8; k++) {
			struct outcome o;

			memset(&o, 0, sizeof o);
			for (t = 0; t < 100 && p * 100 + t < ntests; t++)
				outcome_add(&o, xasprintf("Test%d", t),
				            t == k ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
			results_add_run(r, p, RESULTS_SWEEP, 1 + k % 2, 1 + k / 2 % 2, &o, NULL,
			                ++run);
			outcome_free(&o);
		}
	}
	buf_init(&b);
	buf_adds(&b, "[\n");
	for (k = 0; k < nentries; k++)
		buf_printf(&b,
		           "%s{\"test\": \"example.com/p%d::Test%d\", \"channel\": \"any\", "
		           "\"owner\": \"o\", \"issue\": \"#%d\", \"expires\": \"2099-01-31\"}\n",
		           k > 0 ? "," : "", k % ((ntests + 99) / 100), k / ((ntests + 99) / 100),
		           k);
	buf_adds(&b, "]\n");
	q = quarantine_parse("quarantine.json", b.data, b.len);
	memset(&m, 0, sizeof m);
	m.status = "running";
	m.now_ms = util_now_ms();
	without_q = report_cost_ms(dir, r, &m);
	m.quarantine = q;
	with_q = report_cost_ms(dir, r, &m);
	printf(
	    "results.json + report.txt, %zu tests, %d quarantine entries: %.1f ms of CPU a rewrite "
	    "(%.1f ms without the quarantine)\n",
	    r->ntests, nentries, with_q, without_q);
	quarantine_free(q);
	results_free(r);
	buf_free(&b);
	for (k = 0; k < 2; k++) {
		char *path = xasprintf("%s/%s", dir, k == 0 ? "results.json" : "report.txt");

		unlink(path);
		free(path);
	}
	rmdir(dir);
	return 0;
}
