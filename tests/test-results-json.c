/* SPDX-License-Identifier: MIT */
/* test-results-json.c: results.json read back and written again, and the
 * reader's refusals with file, line and field. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "drivers/outcome.h"
#include "results/causes.h"
#include "results/report-keep.h"
#include "results/results-json.h"
#include "base/util.h"

struct rt {
	const struct results *r;
	const struct results_meta *m;
};

static void
rt_reproduce(void *arg, const struct results_test *t, const struct results_cell *worst,
             char **flakesweep, char **direct)
{
	const struct rt *rt = arg;
	const struct results_meta_test *mt = &rt->m->tests[t - rt->r->tests];

	(void)worst;
	*flakesweep = mt->reproduce_flakesweep ? xstrdup(mt->reproduce_flakesweep) : NULL;
	*direct = mt->reproduce_direct ? xstrdup(mt->reproduce_direct) : NULL;
}

/* The document results_json_text makes of what results_load read, with
 * the texts kept in cache (or none), checked against cJSON's print of the
 * same document. */
static char *
rt_write_kept(const struct results *r, const struct results_meta *meta, struct report_keep *cache)
{
	struct report_meta m;
	struct rt rt = {r, meta};
	struct pkg *pkgs = xcalloc(r->npkgs + 1, sizeof *pkgs);
	struct pkg **ptrs = xcalloc(r->npkgs + 1, sizeof *ptrs);
	char *text, *tree;
	cJSON *doc;
	size_t i;

	for (i = 0; i < r->npkgs; i++) {
		pkgs[i].name = r->pkgs[i].name;
		pkgs[i].level = r->pkgs[i].level;
		pkgs[i].build_ok = meta->pkgs[i].build_ok;
		pkgs[i].build_output = meta->pkgs[i].build_output;
		pkgs[i].toolchain = meta->pkgs[i].toolchain;
		ptrs[i] = &pkgs[i];
	}
	memset(&m, 0, sizeof m);
	m.status = meta->status;
	m.started_ms = meta->started_ms;
	m.finished_ms = meta->finished_ms;
	m.machine = meta->machine;
	m.project = meta->project;
	m.config = meta->config;
	m.pkgs = ptrs;
	m.npkgs = r->npkgs;
	m.reproduce = rt_reproduce;
	m.arg = &rt;
	m.cache = cache;
	text = results_json_text(r, &m);
	doc = results_to_json(r, &m);
	tree = cJSON_Print(doc);
	cJSON_Delete(doc);
	free(ptrs);
	free(pkgs);
	CHECK(strncmp(text, tree, strlen(tree)) == 0 && strcmp(text + strlen(tree), "\n") == 0);
	free(tree);
	return text;
}

static char *
rt_write(const struct results *r, const struct results_meta *meta)
{
	return rt_write_kept(r, meta, NULL);
}

/* Reads path, writes it again and again from what was written: both
 * times the bytes of path. */
static void
rt_check(const char *path)
{
	char *orig = NULL, *again, *err = NULL, *copy;
	struct results *r = NULL;
	struct results_meta m;
	size_t len;
	FILE *f;

	CHECK_INT(util_read_file(path, 1 << 24, &orig, &len), 0);
	CHECK_INT(results_load(path, &r, &m, &err), 0);
	CHECK(err == NULL);
	again = rt_write(r, &m);
	CHECK_STR(again, orig);
	results_free(r);
	results_meta_free(&m);
	copy = xasprintf("%s/again.json", check_tmpdir());
	f = fopen(copy, "w");
	fputs(again, f);
	fclose(f);
	CHECK_INT(results_load(copy, &r, &m, &err), 0);
	free(again);
	again = rt_write(r, &m);
	CHECK_STR(again, orig);
	results_free(r);
	results_meta_free(&m);
	free(again);
	free(copy);
	free(orig);
}

/* A shuffled Go sweep of case 06 whose victim's polluter was found: the
 * polluter comes back and is written again byte for byte. */
TEST(results_json_round_trip_keeps_the_polluter)
{
	char *path = xasprintf("%s/tests/fixtures/results/order.json", check_srcdir());
	struct results *r = NULL;
	struct results_meta m;
	const struct results_test *t;
	char *err = NULL;

	rt_check(path);
	CHECK_INT(results_load(path, &r, &m, &err), 0);
	t = results_find(r, "example.com/case06::TestOutputQuietByDefault");
	CHECK(t != NULL && t->polluter != NULL);
	CHECK_STR(t->polluter->test, "TestSetVerbose");
	CHECK_STR(t->polluter->seed, "46678304503");
	CHECK_INT(t->polluter->runs, 2);
	CHECK(strstr(t->polluter->command,
	             "-test.run '^(TestSetVerbose|TestOutputQuietByDefault)$'") != NULL);
	CHECK(results_find(r, "example.com/case06::TestSetVerbose")->polluter == NULL);
	results_free(r);
	results_meta_free(&m);
	free(path);
}

/* The file src (order.json when NULL) with text in place of its part from
 * the first from to the next until, both included, in the test's
 * directory as name. */
static char *
rt_edited(const char *src, const char *name, const char *from, const char *until,
          const char *text)
{
	char *path = src != NULL ? xstrdup(src)
	                         : xasprintf("%s/tests/fixtures/results/order.json", check_srcdir());
	char *orig = NULL, *at, *out = xasprintf("%s/%s", check_tmpdir(), name);
	struct buf b;
	size_t len;

	CHECK_INT(util_read_file(path, 1 << 24, &orig, &len), 0);
	at = strstr(orig, from);
	CHECK(at != NULL && strstr(at, until) != NULL);
	buf_init(&b);
	buf_add(&b, orig, (size_t)(at - orig));
	buf_adds(&b, text);
	buf_adds(&b, strstr(at, until) + strlen(until));
	CHECK_INT(util_write_file_atomic(out, b.data, b.len), 0);
	buf_free(&b);
	free(orig);
	free(path);
	return out;
}

/* A second polluter, with its own seed and command, comes back and is
 * written again byte for byte; a file from before polluters and
 * search_runs reads as one polluter whose search took its runs. */
TEST(results_json_round_trip_keeps_every_polluter)
{
	const char *victim = "example.com/case06::TestOutputQuietByDefault";
	char *two = rt_edited(NULL, "two.json", "\t\t\t\t}]\n\t\t}, {", "{",
	                      "\t\t\t\t}, {\n"
	                      "\t\t\t\t\t\"test\":\t\"TestRegisterDefaults\",\n"
	                      "\t\t\t\t\t\"seed\":\t\"77\",\n"
	                      "\t\t\t\t\t\"reproduce\":\t\"go test -run x\"\n"
	                      "\t\t\t\t}]\n\t\t}, {");
	char *old = rt_edited(NULL, "old.json", ",\n\t\t\t\t\"search_runs\"", "}]\n",
	                      "\n\t\t\t}\n");
	struct results *r = NULL;
	struct results_meta m;
	const struct results_test *t;
	char *err = NULL, *with;

	with = rt_edited(two, "two.json", "(2 runs to find it)", ")",
	                 "(2 runs to find it); also after TestRegisterDefaults, under seed 77");
	free(two);
	two = with;
	rt_check(two);
	CHECK_INT(results_load(two, &r, &m, &err), 0);
	t = results_find(r, victim);
	CHECK(t != NULL && t->polluter != NULL);
	CHECK_STR(t->polluter->test, "TestSetVerbose");
	CHECK_INT(t->polluter->search_runs, 4);
	CHECK_INT(t->polluter->nmore, 1);
	CHECK_STR(t->polluter->more[0].test, "TestRegisterDefaults");
	CHECK_STR(t->polluter->more[0].seed, "77");
	CHECK_STR(t->polluter->more[0].command, "go test -run x");
	results_free(r);
	results_meta_free(&m);
	CHECK_INT(results_load(old, &r, &m, &err), 0);
	t = results_find(r, victim);
	CHECK_INT(t->polluter->search_runs, 2);
	CHECK_INT(t->polluter->nmore, 0);
	results_free(r);
	results_meta_free(&m);
	free(two);
	free(old);
}

/* One run of cascade.json's package at cpu 1, load 2: alpha passes, and
 * root and later fail when bad. */
static void
rt_add_run(struct results *r, bool bad, int64_t run)
{
	struct outcome o;

	memset(&o, 0, sizeof o);
	outcome_add(&o, xstrdup("alpha"), OUTCOME_PASS, NULL);
	outcome_add(&o, xstrdup("root"), bad ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
	outcome_add(&o, xstrdup("later"), bad ? OUTCOME_FAIL : OUTCOME_PASS, NULL);
	results_add_run(r, 0, RESULTS_SWEEP, 1, 2, &o, NULL, run);
	outcome_free(&o);
}

/* A rewrite that copies the texts of unchanged tests writes what a
 * rewrite from nothing writes, after runs that change a passing test, a
 * failing one, and a status that makes every test provisional. */
TEST(results_json_kept_texts_follow_every_change)
{
	char *path = xasprintf("%s/tests/fixtures/results/cascade.json", check_srcdir());
	struct report_keep *cache = report_keep_new();
	struct results *r = NULL;
	struct results_meta m;
	char *err = NULL, *fresh, *kept, *prev = NULL;
	int i;

	CHECK_INT(results_load(path, &r, &m, &err), 0);
	for (i = 0; i < 4; i++) {
		if (i == 1)
			rt_add_run(r, false, 1000);
		if (i == 2)
			rt_add_run(r, true, 1001);
		if (i == 3) {
			free(m.status);
			m.status = xstrdup("running");
		}
		fresh = rt_write(r, &m);
		kept = rt_write_kept(r, &m, cache);
		CHECK_STR(kept, fresh);
		/* Each change shows: nothing stale was copied. */
		if (prev != NULL)
			CHECK(strcmp(kept, prev) != 0);
		free(fresh);
		free(prev);
		prev = kept;
	}
	CHECK(strstr(prev, "\"provisional\":\ttrue") != NULL);
	free(prev);
	report_keep_free(cache);
	results_free(r);
	results_meta_free(&m);
	free(path);
}

TEST(results_json_round_trip_is_byte_identical)
{
	char *path = xasprintf("%s/tests/fixtures/results/cascade.json", check_srcdir());
	struct results *r = NULL;
	struct results_meta m;
	const struct results_test *t;
	char *err = NULL;

	rt_check(path);
	CHECK_INT(results_load(path, &r, &m, &err), 0);
	CHECK_INT(r->ntests, 3);
	CHECK_INT(r->runs, 72); /* 60 in the sweep, 12 confirming root and later */
	t = results_find(r, "./t.sh::later");
	CHECK(t != NULL);
	CHECK_STR(results_verdict_name(results_verdict(t)), "cascade");
	CHECK_STR(results_cascade_root(t), "root");
	CHECK_INT(t->ncores, 2);
	CHECK_STR(m.status, "complete");
	CHECK_STR(m.driver, "tap");
	CHECK_STR(m.tests[t - r->tests].cascade_of, "root");
	CHECK(m.tests[0].reproduce_flakesweep == NULL);
	results_free(r);
	results_meta_free(&m);
	free(path);
}

/* The debris runs left in the package's directory comes back as written. */
TEST(results_json_round_trip_keeps_debris)
{
	char *path = xasprintf("%s/tests/fixtures/results/debris.json", check_srcdir());
	struct results *r = NULL;
	struct results_meta m;
	char *err = NULL;

	rt_check(path);
	CHECK_INT(results_load(path, &r, &m, &err), 0);
	CHECK_INT(r->npkgs, 1);
	CHECK_INT(r->pkgs[0].ndebris, 1);
	CHECK_STR(r->pkgs[0].debris[0].path, "made-by-test");
	CHECK_INT(r->pkgs[0].debris[0].run, 1);
	CHECK_INT(r->pkgs[0].runs_after_debris, 4);
	results_free(r);
	results_meta_free(&m);
	free(path);
}

/* A cell's noisy runs come back as written, and so does the noise cause
 * they make: 7 of the 10 noisy runs failed, none of the 10 quiet ones. */
TEST(results_json_round_trip_keeps_noisy_runs)
{
	char *path = xasprintf("%s/tests/fixtures/results/noise.json", check_srcdir());
	struct results *r = NULL;
	struct results_meta m;
	struct causes *c;
	char *err = NULL;
	cJSON *a;

	rt_check(path);
	CHECK_INT(results_load(path, &r, &m, &err), 0);
	CHECK_INT(r->ntests, 1);
	CHECK_INT(r->tests[0].ncells, 1);
	CHECK_INT(r->tests[0].cells[0].runs, 20);
	CHECK_INT(r->tests[0].cells[0].failures, 7);
	CHECK_INT(r->tests[0].cells[0].noisy_runs, 10);
	CHECK_INT(r->tests[0].cells[0].noisy_bad, 7);
	c = causes_new(r);
	a = causes_json(c, 0);
	CHECK_INT(cJSON_GetArraySize(a), 1);
	CHECK_STR(cJSON_GetObjectItem(cJSON_GetArrayItem(a, 0), "cause")->valuestring, "noise");
	CHECK(cJSON_GetObjectItem(cJSON_GetArrayItem(a, 0), "p")->valuedouble ==
	      util_round3(120.0 / 77520));
	cJSON_Delete(a);
	causes_free(c);
	results_free(r);
	results_meta_free(&m);
	free(path);
}

/* A results.json written before cores and cascades were recorded. */
TEST(results_json_reads_an_older_file)
{
	char *path = xasprintf("%s/tests/fixtures/ui/demo/results.json", check_srcdir());
	char *err = NULL;
	struct results *r = NULL;
	struct results_meta m;
	const struct results_test *t;

	CHECK_INT(results_load(path, &r, &m, &err), 0);
	CHECK(err == NULL);
	CHECK_INT(r->ntests, 8);
	CHECK_INT(r->npkgs, 1);
	CHECK_INT(r->runs, 200);
	CHECK_INT(r->pkgs[0].failures_outside_tests, 3);
	CHECK_STR(r->pkgs[0].first_outside->lines,
	          "exit status 3 with no test running\nsetup: fixture server did not come up");
	CHECK_STR(m.status, "complete");
	CHECK_STR(m.driver, "go");
	CHECK_STR(m.toolchain, "go1.19.8");
	CHECK_INT(m.cores, 2);
	CHECK_INT(m.nlanes, 1);
	CHECK_INT(m.lane_width, 2);
	CHECK_STR(m.pkgs[0].toolchain, "go1.19.8");
	t = results_find(r, "example.com/flakesweep-demo::TestCanaryRed");
	CHECK(t != NULL);
	CHECK_STR(results_verdict_name(results_verdict(t)), "failing");
	CHECK(m.tests[t - r->tests].reproduce_flakesweep != NULL);
	CHECK(m.tests[0].reproduce_flakesweep == NULL);
	results_free(r);
	results_meta_free(&m);
	free(path);
}

TEST(results_json_reads_hand_made_files)
{
	char *path = xasprintf("%s/tests/fixtures/post/nasty/results.json", check_srcdir());
	char *err = NULL;
	struct results *r = NULL;
	struct results_meta m;
	size_t i;

	/* Invalid UTF-8 and fields the writer always adds left out. */
	CHECK_INT(results_load(path, &r, &m, &err), 0);
	CHECK(err == NULL);
	CHECK_INT(r->ntests, 2);
	CHECK(r->tests[0].first != NULL);
	CHECK(r->tests[0].first->run == 0);
	CHECK_INT(m.pkgs[0].build_ok, 1);
	CHECK_INT(r->pkgs[0].unreliable_runs, 0);
	/* The first failure's lines as the file has them: 14 of the document,
	 * 2000 of the diff and the FAIL line; the line separator (U+2028)
	 * stays inside its line, where the sanitised text breaks it. */
	for (i = 0; m.tests[0].first_lines[i] != NULL; i++)
		;
	CHECK_INT(i, 2015);
	CHECK_STR(m.tests[0].first_lines[0], "=== RUN   TestRendersReleaseNotes");
	CHECK(strstr(m.tests[0].first_lines[12], "separator \u2028 here") != NULL);
	CHECK(strstr(r->tests[0].first->lines, "separator \n here") != NULL);
	CHECK(m.tests[1].first_lines[0] != NULL && m.tests[1].first_lines[1] == NULL);
	results_free(r);
	results_meta_free(&m);
	free(path);
}

/* Loads text from a file and checks the error. */
static void
bad(const char *text, const char *want)
{
	char *path = xasprintf("%s/bad.json", check_tmpdir()), *err = NULL, *full;
	struct results *r = (struct results *)1;
	FILE *f = fopen(path, "w");

	fputs(text, f);
	fclose(f);
	CHECK_INT(results_load(path, &r, NULL, &err), -EBADMSG);
	CHECK(r == NULL);
	full = xasprintf("%s:%s", path, want);
	CHECK_STR(err, full);
	free(full);
	free(err);
	free(path);
}

#define CELL(cpu, runs, failures, hangs)                                        \
	"{\"phase\": \"sweep\", \"cpu\": " cpu ", \"load\": 1, \"runs\": " runs \
	", \"failures\": " failures ", \"hangs\": " hangs "}"
#define DOC(cells)                                                                               \
	"{\n \"schema\": \"flakesweep/results/v1\",\n \"tests\": [\n  {\"id\": \"p::T\", "       \
	"\"package\": \"p\", \"test\": \"T\", \"level\": \"unit\",\n   \"cells\": [\n    " CELL( \
	    "1", "4", "1", "0") ",\n    " cells "\n   ]\n  }\n ]\n}\n"

TEST(results_json_refuses_malformed_files_naming_line_and_field)
{
	bad("{\n \"schema\": \"flakesweep/results/v1\",\n \"tests\": [,]\n}\n",
	    "3:12: invalid JSON");
	bad("{\"schema\": \"flakesweep/results/v1\", \"tests\": []} trailing",
	    "1:50: invalid JSON");
	bad("{\n \"schema\": \"flakesweep/results/v999\",\n \"tests\": []\n}\n",
	    "2: schema: expected \"flakesweep/results/v1\"");
	bad("{\n \"schema\": \"flakesweep/results/v1\"\n}\n",
	    "1: tests: expected an array of tests");
	bad(DOC(CELL("2", "4", "3", "2")),
	    "7: tests[0].cells[1].hangs: expected a whole number from 0 to 1");
	bad(DOC(CELL("2", "4", "5", "0")),
	    "7: tests[0].cells[1].failures: expected a whole number from 0 to 4");
	bad(DOC(CELL("0", "4", "1", "0")),
	    "7: tests[0].cells[1].cpu: expected a whole number from 1 to 1048576");
	bad(DOC(CELL("[1]", "4", "1", "0")),
	    "7: tests[0].cells[1].cpu: expected a whole number from 1 to 1048576");
	bad(DOC(CELL("1", "-1", "0", "0")),
	    "7: tests[0].cells[1].runs: expected a whole number from 0 to 9000000000000000");
	bad(DOC(CELL("1", "2.5", "0", "0")),
	    "7: tests[0].cells[1].runs: expected a whole number from 0 to 9000000000000000");
	bad(DOC("{\"phase\": \"warmup\"}"),
	    "7: tests[0].cells[1].phase: expected \"sweep\", \"confirm\" or \"alone\"");
	bad(DOC("7"), "7: tests[0].cells[1]: expected an object");
	bad(DOC("{\"phase\": \"sweep\", \"cpu\": 2, \"load\": 1, \"runs\": 1, \"failures\": 0, "
	        "\"hangs\": 0, \"noise\": 1.5}"),
	    "7: tests[0].cells[1].noise: expected a share from 0 to 1, or null");
	/* Noisy runs are some of the cell's runs; their failures, some of
	 * those runs' and of the cell's. */
	bad(DOC("{\"phase\": \"sweep\", \"cpu\": 2, \"load\": 1, \"runs\": 4, \"failures\": 3, "
	        "\"hangs\": 0, \"noisy\": {\"runs\": 5, \"failures\": 0}}"),
	    "7: tests[0].cells[1].noisy.runs: expected a whole number from 0 to 4");
	bad(DOC("{\"phase\": \"sweep\", \"cpu\": 2, \"load\": 1, \"runs\": 4, \"failures\": 3, "
	        "\"hangs\": 0, \"noisy\": {\"runs\": 2, \"failures\": 3}}"),
	    "7: tests[0].cells[1].noisy.failures: expected a whole number from 0 to 2");
	bad(DOC("{\"phase\": \"sweep\", \"cpu\": 2, \"load\": 1, \"runs\": 4, \"failures\": 3, "
	        "\"hangs\": 0, \"noisy\": 2}"),
	    "7: tests[0].cells[1].noisy: expected an object");
}
