/* SPDX-License-Identifier: MIT */
/*
 * test-sweep.c: the whole sweep, in process, on a real loop: the TAP driver
 * runs this binary's sweep_tap child mode with chosen failures, delays,
 * hangs and exits, and the tests check the exact counts, the exit status
 * and that every handle is closed.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cmd.h"
#include "engine/options.h"
#include "engine/sweep.h"
#include "engine/sweep-int.h"
#include "engine/replay-status.h"
#include "results/replay.h"
#include "base/util.h"

/* A fake TAP package: `sweep_tap MODE [MS]`.
 * flaky3: two tests, the second fails in runs whose id is a multiple of 3;
 * sleep MS: one test that takes MS; hang: one test that never ends;
 * exit N: one passing test, then exit status N; noenv NAME: one test that
 * fails when the variable NAME is set. */
CHILD(sweep_tap)
{
	const char *run = getenv("FLAKESWEEP_RUN");
	long id = run != NULL ? strtol(run, NULL, 10) : 0;

	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "flaky3") == 0) {
		printf("1..2\nok 1 - steady\n%s 2 - every third\n", id % 3 == 0 ? "not ok" : "ok");
		return id % 3 == 0;
	}
	if (strcmp(argv[1], "noenv") == 0 && argc >= 3) {
		printf("1..1\n%s 1 - no %s\n", getenv(argv[2]) == NULL ? "ok" : "not ok", argv[2]);
		return 0;
	}
	printf("1..1\n");
	fflush(stdout);
	if (strcmp(argv[1], "sleep") == 0 && argc >= 3)
		usleep((useconds_t)atoi(argv[2]) * 1000);
	else if (strcmp(argv[1], "hang") == 0)
		for (;;)
			pause();
	printf("ok 1 - done\n");
	return strcmp(argv[1], "exit") == 0 && argc >= 3 ? atoi(argv[2]) : 0;
}

struct sweep_case {
	uv_loop_t loop;
	struct options o;
	struct sweep *s;
	uv_timer_t block;    /* stalls the loop or interrupts, at at_ms */
	uv_check_t stall;    /* stalls the loop, as a stopped flakesweep would */
	int64_t block_ms;    /* how long the stall lasts */
	int interrupt_after; /* > 0: interrupt once this many runs finished */
	bool stop;           /* sweep_stop instead of sweep_interrupt */
	int finished;
	int problems[OBSERVER_ORDER_DEPENDENT + 1]; /* observer.problem calls by kind */
	char *problem;                              /* the last one's text */
};

static void
case_stall_cb(uv_check_t *h)
{
	struct sweep_case *c = h->data;

	/* After the poll: the next iteration runs the due timers before it
	 * polls for the exits that came meanwhile. */
	usleep((useconds_t)c->block_ms * 1000);
	uv_close((uv_handle_t *)h, NULL);
}

static void
case_block_cb(uv_timer_t *t)
{
	struct sweep_case *c = t->data;

	uv_check_init(&c->loop, &c->stall);
	c->stall.data = c;
	uv_check_start(&c->stall, case_stall_cb);
	uv_close((uv_handle_t *)t, NULL);
}

static void
case_run_finished(void *arg, const struct sweep_run *run, const struct outcome *o)
{
	struct sweep_case *c = arg;

	(void)run;
	(void)o;
	if (++c->finished == c->interrupt_after) {
		if (c->stop)
			sweep_stop(c->s);
		else
			sweep_interrupt(c->s);
	}
}

static void
case_problem(void *arg, enum observer_problem kind, const char *what, const char *text)
{
	struct sweep_case *c = arg;

	(void)what;
	c->problems[kind]++;
	free(c->problem);
	c->problem = xstrdup(text);
}

/* Parses "stress ARGS... -o TMP --driver tap -- SELF --child sweep_tap MODE",
 * runs the sweep to its end and returns its exit status. at_ms > 0
 * stalls the loop for c->block_ms at that time. */
static int
case_run(struct sweep_case *c, const char *args, const char *mode, const char *arg, int64_t at_ms)
{
	char *argv[40], *out = xasprintf("%s/out", check_tmpdir()), *err = NULL;
	char *words = xstrdup(args), *save = NULL, *w;
	struct observer obs = {
	    .arg = c, .run_finished = case_run_finished, .problem = case_problem};
	int argc = 0, rc;

	argv[argc++] = "stress";
	for (w = strtok_r(words, " ", &save); w != NULL; w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc++] = "--ui";
	argv[argc++] = "none";
	argv[argc++] = "-o";
	argv[argc++] = out;
	argv[argc++] = "--driver";
	argv[argc++] = "tap";
	argv[argc++] = "--";
	argv[argc++] = (char *)check_self();
	argv[argc++] = "--child";
	argv[argc++] = "sweep_tap";
	argv[argc++] = (char *)mode;
	if (arg != NULL)
		argv[argc++] = (char *)arg;
	argv[argc] = NULL;
	options_init(&c->o);
	CHECK_INT(cmd_stress_parse(&c->o, argc, argv), 0);
	CHECK_INT(uv_loop_init(&c->loop), 0);
	c->s = sweep_new(&c->loop, &c->o, &obs, &err);
	CHECK(c->s != NULL);
	if (at_ms > 0) {
		uv_timer_init(&c->loop, &c->block);
		c->block.data = c;
		uv_timer_start(&c->block, case_block_cb, (uint64_t)at_ms, 0);
	}
	CHECK_INT(sweep_start(c->s, &err), 0);
	uv_run(&c->loop, UV_RUN_DEFAULT);
	rc = sweep_exit_status(c->s);
	free(words);
	free(out);
	return rc;
}

static void
case_free(struct sweep_case *c)
{
	sweep_free(c->s);
	free(c->problem);
	CHECK_INT(uv_loop_close(&c->loop), 0);
	options_free(&c->o);
}

static const struct results_test *
case_test(const struct sweep_case *c, const char *name)
{
	const struct results *r = sweep_results(c->s);
	size_t i;

	for (i = 0; i < r->ntests; i++) {
		if (strcmp(r->tests[i].test, name) == 0)
			return &r->tests[i];
	}
	check_fail(__FILE__, __LINE__, "no test %s", name);
}

/* A sweep and what must come of it: its exit status, and the runs, hangs
 * and failures outside tests of its only package. */
struct case_spec {
	const char *args, *mode, *arg;
	int64_t stall_at_ms, stall_ms;
	int interrupt_after;
	bool stop;
	int status;
	int64_t runs, hangs, outside;
};

/* Runs the sweep of sp in c and checks what sp expects; the caller frees c
 * with case_free() after any further checks. */
static void
case_expect(struct sweep_case *c, const struct case_spec *sp)
{
	const struct results *r;

	memset(c, 0, sizeof *c);
	c->block_ms = sp->stall_ms;
	c->interrupt_after = sp->interrupt_after;
	c->stop = sp->stop;
	CHECK_INT(case_run(c, sp->args, sp->mode, sp->arg, sp->stall_at_ms), sp->status);
	r = sweep_results(c->s);
	CHECK_INT(r->runs, sp->runs);
	CHECK_INT(r->hangs, sp->hangs);
	CHECK_INT(r->pkgs[0].failures_outside_tests, sp->outside);
	CHECK_INT(sweep_phase(c->s), SWEEP_PHASE_DONE);
}

TEST(sweep_counts_exact)
{
	/* Runs 1..12: 3, 6, 9 and 12 fail the second test. */
	static const struct case_spec sp = {.args = "--cpu 1 --load 1,2 --count 6 --confirm 0",
	                                    .mode = "flaky3",
	                                    .status = 1,
	                                    .runs = 12};
	struct sweep_case c;
	int64_t runs, failures, hangs;

	case_expect(&c, &sp);
	CHECK_INT(sweep_results(c.s)->failures, 4);
	results_test_totals(case_test(&c, "every third"), &runs, &failures, &hangs);
	CHECK_INT(runs, 12);
	CHECK_INT(failures, 4);
	results_test_totals(case_test(&c, "steady"), &runs, &failures, &hangs);
	CHECK_INT(failures, 0);
	case_free(&c);
}

/* The canary cell of kind at (cpu, load); fails the test when absent. */
static const struct harness_cell *
case_canary(const struct sweep_case *c, const char *kind, int cpu, int load)
{
	const struct harness *h = &sweep_results(c->s)->harness;
	size_t i;

	for (i = 0; i < h->ncells; i++) {
		if (strcmp(h->cells[i].kind, kind) == 0 && h->cells[i].cpu == cpu &&
		    h->cells[i].load == load)
			return &h->cells[i];
	}
	check_fail(__FILE__, __LINE__, "no %s canary at cpu %d load %d", kind, cpu, load);
}

/* Every pair gets its canaries: 6 runs a pair at the default 1% is under
 * the floor of three a pair, one of each kind. They count in the harness
 * only: the project's runs and tests are as without them. */
/* The runs never see the GitHub token, and the sweep's own process keeps
 * it: a dashboard whose confirm runs ran in its process then posts. */
TEST(sweep_token_withheld_from_runs_only)
{
	static const struct case_spec sp = {.args = "--cpu 1 --load 1 --count 2 --confirm 0",
	                                    .mode = "noenv",
	                                    .arg = "GH_TOKEN",
	                                    .status = 0,
	                                    .runs = 2};
	struct sweep_case c;

	setenv("GH_TOKEN", "ghp_kept", 1);
	case_expect(&c, &sp);
	CHECK_STR(getenv("GH_TOKEN"), "ghp_kept");
	case_free(&c);
	unsetenv("GH_TOKEN");
}

TEST(sweep_canaries_at_every_pair)
{
	static const char *const kinds[] = {"green", "red", "cores"};
	static const struct case_spec sp = {.args = "--cpu 1 --load 1,2 --count 6 --confirm 0",
	                                    .mode = "flaky3",
	                                    .status = 1,
	                                    .runs = 12};
	struct sweep_case c;
	const struct harness *h;
	struct replay r;
	enum sweep_phase phase;
	int64_t done, target;
	char *path, *err = NULL;
	int k, load;

	case_expect(&c, &sp);
	h = &sweep_results(c.s)->harness;
	CHECK(h->on);
	CHECK_INT(h->ncells, 6);
	for (k = 0; k < 3; k++) {
		for (load = 1; load <= 2; load++) {
			const struct harness_cell *x = case_canary(&c, kinds[k], 1, load);

			CHECK_INT(x->runs, 1);
			CHECK_INT(x->unexpected, 0);
		}
	}
	CHECK(harness_clean(h));
	CHECK_INT(sweep_results(c.s)->ntests, 2);
	/* Read back, the journal has the same harness, and its progress
	 * counts the project's runs only, as the live sweep's does. */
	path = xasprintf("%s/journal.jsonl", sweep_outdir(c.s));
	CHECK_INT(replay_journal(path, &r, &err), 0);
	replay_progress(&r, &phase, &done, &target);
	CHECK_INT(done, 12);
	CHECK_INT(target, 12);
	CHECK_INT(r.results->harness.ncells, 6);
	CHECK_INT(r.max_canary, 6);
	replay_free(&r);
	free(path);
	case_free(&c);
}

/* --canaries 25%: 20 runs at the pair give 5 canaries, shared out in
 * turn. */
TEST(sweep_canaries_budget)
{
	static const struct case_spec sp = {
	    .args = "--cpu 1 --load 1 --count 20 --confirm 0 --canaries 25%",
	    .mode = "exit",
	    .arg = "0",
	    .runs = 20};
	struct sweep_case c;

	case_expect(&c, &sp);
	CHECK_INT(case_canary(&c, "green", 1, 1)->runs, 2);
	CHECK_INT(case_canary(&c, "red", 1, 1)->runs, 2);
	CHECK_INT(case_canary(&c, "cores", 1, 1)->runs, 1);
	CHECK_INT(sweep_results(c.s)->harness.ncells, 3);
	case_free(&c);
}

/* --canaries 0: none run, and the harness says so. */
TEST(sweep_canaries_off)
{
	static const struct case_spec sp = {
	    .args = "--cpu 1 --load 1 --count 3 --confirm 0 --canaries 0",
	    .mode = "exit",
	    .arg = "0",
	    .runs = 3};
	struct sweep_case c;

	case_expect(&c, &sp);
	CHECK(sweep_results(c.s)->harness.on);
	CHECK_INT(sweep_results(c.s)->harness.ncells, 0);
	case_free(&c);
}

/* A red canary that passes (the tests' fault list) makes the harness
 * unclean: exit status 2, the reason names it, report.txt leads with it,
 * and the project's counts are untouched. */
TEST(sweep_canary_unexpected)
{
	static const struct case_spec sp = {.args = "--cpu 1 --load 1 --count 6 --confirm 0",
	                                    .mode = "flaky3",
	                                    .status = 2,
	                                    .runs = 6};
	struct sweep_case c;
	const struct harness *h;
	char *path, *text = NULL;
	size_t len;

	setenv("FLAKESWEEP_CANARY_FAULT", "red", 1);
	case_expect(&c, &sp);
	h = &sweep_results(c.s)->harness;
	CHECK_INT(case_canary(&c, "red", 1, 1)->unexpected, 1);
	CHECK_INT(case_canary(&c, "green", 1, 1)->unexpected, 0);
	CHECK(!harness_clean(h));
	CHECK_INT(h->nreasons, 1);
	CHECK_STR(h->reasons[0],
	          "red canary at cpu 1 load 1 (canary run 2): passed; it must fail every run");
	CHECK_INT(sweep_results(c.s)->failures, 2);
	path = xasprintf("%s/report.txt", sweep_outdir(c.s));
	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	CHECK(strncmp(text, "HARNESS NOT CLEAN: ", 19) == 0);
	free(text);
	free(path);
	case_free(&c);
}

/* TAP names no test before its result: a run stopped at its limit failed
 * outside any test. */
TEST(sweep_hang_counted)
{
	static const struct case_spec sp = {
	    .args = "--cpu 1 --load 1 --count 2 --confirm 0 --timeout 300ms --kill-grace 200ms",
	    .mode = "hang",
	    .status = 1,
	    .runs = 2,
	    .outside = 2};
	struct sweep_case c;

	case_expect(&c, &sp);
	case_free(&c);
}

TEST(sweep_exit_status_outside_tests)
{
	static const struct case_spec sp = {.args = "--cpu 1 --load 1 --count 3 --confirm 0",
	                                    .mode = "exit",
	                                    .arg = "3",
	                                    .status = 1,
	                                    .runs = 3,
	                                    .outside = 3};
	struct sweep_case c;

	case_expect(&c, &sp);
	/* One event for the package, not one a run. */
	CHECK_INT(c.problems[OBSERVER_OUTSIDE_TEST], 1);
	CHECK_INT(c.problems[OBSERVER_BUILD_FAILED], 0);
	CHECK(strstr(c.problem, "sweep_tap exit 3: run ") != NULL);
	CHECK(strstr(c.problem, " failed outside any test (exit status 3)") != NULL);
	case_free(&c);
}

/* The loop stalls 3.5 s (flakesweep stopped) while a 1 s run ends: when
 * it wakes, the run's 2 s limit is past, but the run ended normally. */
TEST(sweep_stalled_loop_is_no_timeout)
{
	static const struct case_spec sp = {
	    .args = "--cpu 1 --load 1 --count 1 --confirm 0 --timeout 2s --kill-grace 1s",
	    .mode = "sleep",
	    .arg = "1000",
	    .stall_at_ms = 300,
	    .stall_ms = 3500,
	    .runs = 1};
	struct sweep_case c;

	case_expect(&c, &sp);
	case_free(&c);
}

/* The runs in flight at the interrupt are killed and not counted. */
TEST(sweep_interrupt_mid_sweep)
{
	static const struct case_spec sp = {.args = "--cpu 1 --load 1 --count 50 --confirm 0",
	                                    .mode = "sleep",
	                                    .arg = "100",
	                                    .interrupt_after = 3,
	                                    .status = 130,
	                                    .runs = 3};
	struct sweep_case c;

	case_expect(&c, &sp);
	case_free(&c);
}

/* sweep_stop (a sequential test decided): the runs in flight are killed
 * and not counted, as with an interrupt, but the sweep is complete. */
TEST(sweep_stop_ends_complete)
{
	static const struct case_spec sp = {.args = "--cpu 1 --load 1 --count 50 --confirm 0",
	                                    .mode = "sleep",
	                                    .arg = "100",
	                                    .interrupt_after = 3,
	                                    .stop = true,
	                                    .status = 0,
	                                    .runs = 3};
	struct sweep_case c;
	char *path, *text = NULL;
	size_t len;

	case_expect(&c, &sp);
	path = xasprintf("%s/results.json", sweep_outdir(c.s));
	CHECK_INT(util_read_file(path, 1 << 20, &text, &len), 0);
	CHECK(strstr(text, "\"status\":\t\"complete\"") != NULL);
	free(text);
	free(path);
	case_free(&c);
}

TEST(sweep_options_limits)
{
	static const char *const bad[][6] = {
	    {"stress", "--load", "1,65", NULL},
	    {"stress", "--count", "2147483647", NULL},
	    {"stress", "--timeout", "2562048h", "./...", NULL},
	    {"stress", "-o", "", "./...", NULL},
	    {"stress", "--resume", "", NULL},
	};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(bad); i++) {
		struct options o;
		int argc = 0;

		while (bad[i][argc] != NULL)
			argc++;
		options_init(&o);
		CHECK_INT(cmd_stress_parse(&o, argc, (char **)bad[i]), -1);
		options_free(&o);
	}
}

/* A shuffle seed is a run of digits whatever the clock: the product of
 * the time and the multiplier wraps around 2^64, and read as a signed
 * number it was negative for weeks at a time (2026-12-04 among them). */
TEST(sweep_seed_is_digits)
{
	static const int64_t now[] = {0, 1796144528817, 1796421728817, 1799000000000,
	                              INT64_MAX / 4};
	char buf[32];
	size_t i;
	int64_t id;

	for (i = 0; i < sizeof now / sizeof *now; i++) {
		for (id = 1; id < 100; id += 7) {
			run_seed(buf, sizeof buf, now[i], id);
			CHECK(buf[0] != '\0' && strspn(buf, "0123456789") == strlen(buf));
			CHECK(strlen(buf) <= 12);
		}
	}
}
