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
#include <stdlib.h>
#include <unistd.h>

#include "check.h"
#include "options.h"
#include "sweep.h"
#include "util.h"

/* A fake TAP package: `sweep_tap MODE [MS]`.
 * flaky3: two tests, the second fails in runs whose id is a multiple of 3;
 * sleep MS: one test that takes MS; hang: one test that never ends;
 * exit N: one passing test, then exit status N. */
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
	int finished;
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
case_run_finished(void *arg, struct sweep *s, const struct sweep_run *run, const struct outcome *o,
                  int new_failures)
{
	struct sweep_case *c = arg;

	(void)run;
	(void)o;
	(void)new_failures;
	if (++c->finished == c->interrupt_after)
		sweep_interrupt(s);
}

/* Parses "stress ARGS... -o TMP --driver tap -- SELF --child sweep_tap MODE",
 * runs the sweep to its end and returns its exit status. at_ms > 0
 * stalls the loop for c->block_ms at that time. */
static int
case_run(struct sweep_case *c, const char *const *args, const char *mode, const char *arg,
         int64_t at_ms)
{
	char *argv[40], *out = xasprintf("%s/out", check_tmpdir()), *err = NULL;
	struct observer obs = {.arg = c, .run_finished = case_run_finished};
	int argc = 0, i, rc;

	argv[argc++] = "stress";
	for (i = 0; args[i] != NULL; i++)
		argv[argc++] = (char *)args[i];
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
	CHECK_INT(options_parse(&c->o, argc, argv), 0);
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
	free(out);
	return rc;
}

static void
case_free(struct sweep_case *c)
{
	sweep_free(c->s);
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

TEST(sweep_counts_exact)
{
	static const char *const args[] = {"--cpu",     "1", "--load",    "1,2", "--count", "6",
	                                   "--confirm", "0", "--timeout", "10s", NULL};
	struct sweep_case c;
	int64_t runs, failures, hangs;

	memset(&c, 0, sizeof c);
	/* Runs 1..12: 3, 6, 9 and 12 fail the second test. */
	CHECK_INT(case_run(&c, args, "flaky3", NULL, 0), 1);
	CHECK_INT(sweep_results(c.s)->runs, 12);
	CHECK_INT(sweep_results(c.s)->failures, 4);
	CHECK_INT(sweep_results(c.s)->hangs, 0);
	results_test_totals(case_test(&c, "every third"), &runs, &failures, &hangs);
	CHECK_INT(runs, 12);
	CHECK_INT(failures, 4);
	results_test_totals(case_test(&c, "steady"), &runs, &failures, &hangs);
	CHECK_INT(failures, 0);
	case_free(&c);
}

TEST(sweep_hang_counted)
{
	static const char *const args[] = {
	    "--cpu",     "1",     "--load",       "1",     "--count", "2", "--confirm", "0",
	    "--timeout", "300ms", "--kill-grace", "200ms", NULL};
	struct sweep_case c;

	memset(&c, 0, sizeof c);
	/* TAP names no test before its result: a run stopped at its limit
	 * failed outside any test. */
	CHECK_INT(case_run(&c, args, "hang", NULL, 0), 1);
	CHECK_INT(sweep_results(c.s)->runs, 2);
	CHECK_INT(sweep_results(c.s)->hangs, 0);
	CHECK_INT(sweep_results(c.s)->pkgs[0].failures_outside_tests, 2);
	case_free(&c);
}

TEST(sweep_exit_status_outside_tests)
{
	static const char *const args[] = {"--cpu", "1",         "--load", "1", "--count",
	                                   "3",     "--confirm", "0",      NULL};
	struct sweep_case c;

	memset(&c, 0, sizeof c);
	CHECK_INT(case_run(&c, args, "exit", "3", 0), 1);
	CHECK_INT(sweep_results(c.s)->runs, 3);
	CHECK_INT(sweep_results(c.s)->pkgs[0].failures_outside_tests, 3);
	case_free(&c);
}

/* The loop stalls 3.5 s (flakesweep stopped) while a 1 s run ends: when
 * it wakes, the run's 2 s limit is past, but the run ended normally. */
TEST(sweep_stalled_loop_is_no_timeout)
{
	static const char *const args[] = {
	    "--cpu",     "1",  "--load",       "1",  "--count", "1", "--confirm", "0",
	    "--timeout", "2s", "--kill-grace", "1s", NULL};
	struct sweep_case c;

	memset(&c, 0, sizeof c);
	c.block_ms = 3500;
	CHECK_INT(case_run(&c, args, "sleep", "1000", 300), 0);
	CHECK_INT(sweep_results(c.s)->runs, 1);
	CHECK_INT(sweep_results(c.s)->hangs, 0);
	CHECK_INT(sweep_results(c.s)->pkgs[0].failures_outside_tests, 0);
	case_free(&c);
}

TEST(sweep_interrupt_mid_sweep)
{
	static const char *const args[] = {"--cpu", "1",         "--load", "1", "--count",
	                                   "50",    "--confirm", "0",      NULL};
	struct sweep_case c;

	memset(&c, 0, sizeof c);
	c.interrupt_after = 3;
	/* The runs in flight at the interrupt are killed and not counted. */
	CHECK_INT(case_run(&c, args, "sleep", "100", 0), 130);
	CHECK_INT(sweep_results(c.s)->runs, 3);
	CHECK_INT(sweep_phase(c.s), SWEEP_PHASE_DONE);
	case_free(&c);
}

TEST(sweep_options_limits)
{
	static const char *const bad[][6] = {
	    {"stress", "--load", "1,65", NULL},
	    {"stress", "--count", "2147483647", NULL},
	    {"stress", "--timeout", "2562048h", "./...", NULL},
	    {"stress", "-o", "", "./...", NULL},
	};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(bad); i++) {
		struct options o;
		int argc = 0;

		while (bad[i][argc] != NULL)
			argc++;
		options_init(&o);
		CHECK_INT(options_parse(&o, argc, (char **)bad[i]), -1);
		options_free(&o);
	}
}
