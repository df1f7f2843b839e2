/* SPDX-License-Identifier: MIT */
/*
 * report-cost.c: what one rewrite of results.json and report.txt costs a
 * live sweep (it rewrites them every 2 s on its loop): results of TESTS
 * tests (100 a package, one failing in each of 8 runs at 4 pairs), a
 * quarantine file of ENTRIES entries. Prints the milliseconds of CPU (the
 * machine may be busy: wall time would measure it) that report_write
 * takes:
 *   - as the sweep calls it, keeping the tests' texts between rewrites
 *     (report_keep): the first rewrite, then one after each further run
 *     of a package (100 tests changed), averaged over 10, on the calling
 *     thread (the loop's) and with the files its writer thread writes;
 *   - its baseline, a rewrite from scratch of the same results, checking
 *     both write the same bytes; and what writing files of those sizes
 *     alone takes;
 * and the results.json text alone written anew against the baseline of
 * the writer before it, cJSON_Print of the same document as a tree (not
 * counting making the tree), checking both are the same bytes.
 * Build: make bench/report-cost; usage: bench/report-cost [TESTS [ENTRIES]]
 * (default 10000 and 1000). Target: under 10 ms for 10k tests.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "decisions/quarantine.h"
#include "drivers/outcome.h"
#include "results/report.h"
#include "results/report-keep.h"
#include "results/report-writer.h"
#include "results/results-json.h"
#include "results/results.h"
#include "base/util.h"

#define REPORT_COST_REWRITES 10

/* ms of CPU the process (every thread) has used. */
static double
report_cost_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* ms of CPU this thread (the loop's, in a sweep) has used. */
static double
report_cost_loop_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

static double
report_cost_ms(const char *dir, const struct results *r, struct report_meta *m, int times)
{
	char *err = NULL;
	double t0 = report_cost_now_ms();
	int i;

	for (i = 0; i < times; i++) {
		if (report_write(dir, r, m, &err) < 0) {
			fprintf(stderr, "report-cost: %s\n", err);
			exit(1);
		}
	}
	return (report_cost_now_ms() - t0) / times;
}

/* One rewrite as the sweep makes it, with m->cache: ms of CPU on this
 * thread into *loop_ms, and with the files its writer thread writes in
 * the process's. */
static double
report_cost_kept_ms(const char *dir, const struct results *r, struct report_meta *m,
                    double *loop_ms)
{
	char *err = NULL;
	double t0 = report_cost_now_ms(), l0 = report_cost_loop_ms();

	if (report_write(dir, r, m, &err) < 0) {
		fprintf(stderr, "report-cost: %s\n", err);
		exit(1);
	}
	*loop_ms = report_cost_loop_ms() - l0;
	if (report_writer_wait(report_keep_writer(m->cache), &err) < 0) {
		fprintf(stderr, "report-cost: %s\n", err);
		exit(1);
	}
	return report_cost_now_ms() - t0;
}

/* Run number run of package p of r (ntests tests in all), its test k
 * failing (none when k < 0). */
static void
report_cost_run(struct results *r, int ntests, int p, int k, int run)
{
	struct outcome o;
	int t;

	memset(&o, 0, sizeof o);
	for (t = 0; t < 100 && p * 100 + t < ntests; t++)
		outcome_add(&o, xasprintf("Test%d", t), t == k ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
	results_add_run(r, p, RESULTS_SWEEP, 1 + run % 2, 1 + run / 2 % 2, &o, NULL, run);
	outcome_free(&o);
}

/* The results.json text written anew, and cJSON_Print of its tree: ms of
 * each into *text_ms and *tree_ms; true when they are the same bytes. */
static bool
report_cost_text(const struct results *r, const struct report_meta *m, double *text_ms,
                 double *tree_ms)
{
	char *text = NULL, *tree = NULL;
	cJSON *doc = results_to_json(r, m);
	double t0 = report_cost_now_ms();
	bool same;
	int i;

	for (i = 0; i < REPORT_COST_REWRITES; i++) {
		free(text);
		text = results_json_text(r, m);
	}
	*text_ms = (report_cost_now_ms() - t0) / REPORT_COST_REWRITES;
	t0 = report_cost_now_ms();
	for (i = 0; i < REPORT_COST_REWRITES; i++) {
		free(tree);
		tree = cJSON_Print(doc);
	}
	*tree_ms = (report_cost_now_ms() - t0) / REPORT_COST_REWRITES;
	same = strncmp(text, tree, strlen(tree)) == 0 && strcmp(text + strlen(tree), "\n") == 0;
	cJSON_Delete(doc);
	free(text);
	free(tree);
	return same;
}

/* Whether DIR/name and DIR2/name hold the same bytes; *len gets their
 * length. */
static bool
report_cost_same(const char *dir, const char *dir2, const char *name, size_t *len)
{
	char *path = xasprintf("%s/%s", dir, name), *path2 = xasprintf("%s/%s", dir2, name);
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	bool same = util_read_file(path, SIZE_MAX, &a, &alen) == 0 &&
	            util_read_file(path2, SIZE_MAX, &b, &blen) == 0 && alen == blen &&
	            memcmp(a, b, alen) == 0;

	*len = alen;
	free(a);
	free(b);
	free(path);
	free(path2);
	return same;
}

/* ms of CPU that writing len bytes to DIR/name as report_write does
 * (util_write_file_replace) takes. */
static double
report_cost_file_ms(const char *dir, const char *name, size_t len)
{
	char *path = xasprintf("%s/%s", dir, name), *data = xmalloc(len + 1);
	double t0;

	memset(data, 'x', len);
	t0 = report_cost_now_ms();
	if (util_write_file_replace(path, data, len) < 0)
		exit(1);
	t0 = report_cost_now_ms() - t0;
	free(data);
	free(path);
	return t0;
}

static void
report_cost_rmdir(const char *dir)
{
	int k;

	for (k = 0; k < 2; k++) {
		char *path = xasprintf("%s/%s", dir, k == 0 ? "results.json" : "report.txt");

		unlink(path);
		free(path);
	}
	rmdir(dir);
}

int
main(int argc, char **argv)
{
	int ntests = argc > 1 ? atoi(argv[1]) : 10000, nentries = argc > 2 ? atoi(argv[2]) : 1000;
	int npkgs = (ntests + 99) / 100;
	char dir[] = "/tmp/report-cost-XXXXXX", dir2[] = "/tmp/report-cost-XXXXXX";
	struct results *r = results_new();
	struct report_keep *keep = report_keep_new();
	struct report_meta m;
	struct quarantine *q;
	struct buf b;
	int p, k, run = 0;
	size_t json_len = 0, text_len = 0;
	double first, kept = 0, kept_loop = 0, loop, anew = 0, files = 0, text_ms, tree_ms;
	bool same, same_text;

	if (mkdtemp(dir) == NULL || mkdtemp(dir2) == NULL)
		return 1;
	for (p = 0; p < npkgs; p++) {
		char *name = xasprintf("example.com/p%d", p);

		results_add_pkg(r, name, "unit");
		free(name);
		for (k = 0; k < 8; k++)
			report_cost_run(r, ntests, p, k, ++run);
	}
	buf_init(&b);
	buf_adds(&b, "[\n");
	for (k = 0; k < nentries; k++)
		buf_printf(&b,
		           "%s{\"test\": \"example.com/p%d::Test%d\", \"channel\": \"any\", "
		           "\"owner\": \"o\", \"issue\": \"#%d\", \"expires\": \"2099-01-31\"}\n",
		           k > 0 ? "," : "", k % npkgs, k / npkgs, k);
	buf_adds(&b, "]\n");
	q = quarantine_parse("quarantine.json", b.data, b.len);
	memset(&m, 0, sizeof m);
	m.status = "running";
	m.now_ms = util_now_ms();
	m.quarantine = q;
	m.cache = keep;
	first = report_cost_kept_ms(dir, r, &m, &loop);
	/* One package's run, then the rewrite that keeps texts; then the
	 * baseline, rewrites from scratch of the same results, and files of
	 * the same sizes written alone. Each in a block of its own: the
	 * baseline's megabytes of allocations would weigh on the rewrites
	 * that follow them as they do not in a sweep. */
	for (k = 0; k < REPORT_COST_REWRITES; k++) {
		report_cost_run(r, ntests, k % npkgs, -1, ++run);
		m.now_ms += 2000;
		kept += report_cost_kept_ms(dir, r, &m, &loop) / REPORT_COST_REWRITES;
		kept_loop += loop / REPORT_COST_REWRITES;
	}
	/* The kept texts would weigh on the baseline's memory; its first
	 * rewrite, which grows the heap, is not counted. */
	report_keep_free(keep);
	m.cache = NULL;
	report_cost_ms(dir2, r, &m, 1);
	anew = report_cost_ms(dir2, r, &m, REPORT_COST_REWRITES);
	same = report_cost_same(dir, dir2, "results.json", &json_len) &&
	       report_cost_same(dir, dir2, "report.txt", &text_len);
	for (k = 0; k < REPORT_COST_REWRITES; k++)
		files += (report_cost_file_ms(dir2, "results.json", json_len) +
		          report_cost_file_ms(dir2, "report.txt", text_len)) /
		         REPORT_COST_REWRITES;
	same_text = report_cost_text(r, &m, &text_ms, &tree_ms);
	printf("results.json + report.txt, %zu tests, %d quarantine entries, ms of CPU a "
	       "rewrite:\n"
	       "  first rewrite: %.1f\n"
	       "  after a run of one package (%d rounds):\n"
	       "    keeping unchanged tests' texts: %.1f on the loop (%s 10 ms), %.1f with "
	       "its writer thread's files\n"
	       "    baseline, every test written anew: %.1f (%s bytes, %.1fx)\n"
	       "    writing files of the same %.1f MB alone: %.1f\n"
	       "results.json text alone: %.1f; baseline cJSON_Print of its tree: %.1f (%s)\n",
	       r->ntests, nentries, first, REPORT_COST_REWRITES, kept_loop,
	       kept_loop < 10 ? "under" : "NOT under", kept, anew, same ? "same" : "DIFFERENT",
	       kept_loop > 0 ? anew / kept_loop : 0, (double)(json_len + text_len) / 1e6, files,
	       text_ms, tree_ms, same_text ? "same bytes" : "BYTES DIFFER");
	quarantine_free(q);
	results_free(r);
	buf_free(&b);
	report_cost_rmdir(dir);
	report_cost_rmdir(dir2);
	return same && same_text ? 0 : 1;
}
