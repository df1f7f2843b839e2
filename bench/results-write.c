/* SPDX-License-Identifier: MIT */
/*
 * results-write.c: what a rewrite of results.json costs a live sweep,
 * against the tree writer it replaced. Results of TESTS tests (100 a
 * package, one failing at each of 4 pairs in 8 runs a package), status
 * "running"; it times, in CPU milliseconds over 10 rewrites each:
 *   write  report_write (results.json and report.txt) as the sweep calls
 *          it, keeping the tests' texts: the first, then one after each
 *          further run of one package (100 tests changed);
 *   text   the results.json text alone, all of it written anew;
 *   tree   the baseline: the same document as a cJSON tree printed with
 *          cJSON_Print (what the writer did before, less making the tree);
 * and checks that the text and the tree's print are the same bytes.
 * Build: make bench/results-write; usage: bench/results-write [TESTS]...
 * (default 1000 10000). Target: under 10 ms for 10k tests.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "drivers/outcome.h"
#include "results/report.h"
#include "results/results-json.h"
#include "results/results.h"
#include "base/util.h"

#define RESULTS_WRITE_TIMES 10

static double
results_write_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1000.0 + (double)ts.tv_nsec / 1e6;
}

/* One run of package p, its test k failing (none when k < 0). */
static void
results_write_run(struct results *r, int p, int ntests, int k, int run)
{
	struct outcome o;
	int t;

	memset(&o, 0, sizeof o);
	for (t = 0; t < 100 && p * 100 + t < ntests; t++)
		outcome_add(&o, xasprintf("Test%d", t), t == k ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
	results_add_run(r, p, RESULTS_SWEEP, 1 + run % 2, 1 + run / 2 % 2, &o, NULL, run);
	outcome_free(&o);
}

static double
results_write_report(const char *dir, const struct results *r, const struct report_meta *m,
                     int times)
{
	char *err = NULL;
	double t0 = results_write_now_ms();
	int i;

	for (i = 0; i < times; i++) {
		if (report_write(dir, r, m, &err) < 0) {
			fprintf(stderr, "results-write: %s\n", err);
			exit(1);
		}
	}
	return (results_write_now_ms() - t0) / times;
}

static void
results_write_bench(const char *dir, int ntests)
{
	struct results *r = results_new();
	struct report_meta m;
	double first, again = 0, text_ms, tree_ms, t0;
	char *text = NULL, *tree = NULL;
	cJSON *doc;
	int p, k, run = 0;

	for (p = 0; p < (ntests + 99) / 100; p++) {
		char *name = xasprintf("example.com/p%d", p);

		results_add_pkg(r, name, "unit");
		free(name);
		for (k = 0; k < 8; k++)
			results_write_run(r, p, ntests, k, ++run);
	}
	memset(&m, 0, sizeof m);
	m.status = "running";
	m.now_ms = util_now_ms();
	m.cache = results_json_cache_new();
	first = results_write_report(dir, r, &m, 1);
	for (k = 0; k < RESULTS_WRITE_TIMES; k++)
		results_write_run(r, k % ((ntests + 99) / 100), ntests, -1, ++run);
	for (k = 0; k < RESULTS_WRITE_TIMES; k++) {
		results_write_run(r, k % ((ntests + 99) / 100), ntests, -1, ++run);
		again += results_write_report(dir, r, &m, 1) / RESULTS_WRITE_TIMES;
	}
	results_json_cache_free(m.cache);
	m.cache = NULL;
	t0 = results_write_now_ms();
	for (k = 0; k < RESULTS_WRITE_TIMES; k++) {
		free(text);
		text = results_json_text(r, &m);
	}
	text_ms = (results_write_now_ms() - t0) / RESULTS_WRITE_TIMES;
	doc = results_to_json(r, &m);
	t0 = results_write_now_ms();
	for (k = 0; k < RESULTS_WRITE_TIMES; k++) {
		free(tree);
		tree = cJSON_Print(doc);
	}
	tree_ms = (results_write_now_ms() - t0) / RESULTS_WRITE_TIMES;
	printf("%6zu tests, %5.1f MiB: write %7.2f ms, after one run %7.2f ms; "
	       "text %7.2f ms, tree baseline (cJSON_Print) %7.2f ms; %s\n",
	       r->ntests, (double)strlen(text) / (1 << 20), first, again, text_ms, tree_ms,
	       strncmp(text, tree, strlen(tree)) == 0 && strcmp(text + strlen(tree), "\n") == 0
	           ? "same bytes"
	           : "BYTES DIFFER");
	cJSON_Delete(doc);
	free(text);
	free(tree);
	results_free(r);
}

int
main(int argc, char **argv)
{
	char dir[] = "/tmp/results-write-XXXXXX";
	int i, k;

	if (mkdtemp(dir) == NULL)
		return 1;
	if (argc < 2) {
		results_write_bench(dir, 1000);
		results_write_bench(dir, 10000);
	}
	for (i = 1; i < argc; i++)
		results_write_bench(dir, atoi(argv[i]));
	for (k = 0; k < 2; k++) {
		char *path = xasprintf("%s/%s", dir, k == 0 ? "results.json" : "report.txt");

		unlink(path);
		free(path);
	}
	rmdir(dir);
	return 0;
}
