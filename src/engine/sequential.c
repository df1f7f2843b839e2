/* SPDX-License-Identifier: MIT */
/*
 * sequential.c: one test, one pair, a sweep that stops when Wald's test
 * decides. The observer's run_finished hook records each run by id; runs
 * are fed to the test only as a gap-free prefix of ids, because parallel
 * lanes finish out of order and the decision must not depend on that.
 * Runs still in flight when the test decides are killed and not counted.
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "engine/sequential.h"
#include "engine/sweep.h"
#include "base/util.h"

enum sequential_mark {
	SEQUENTIAL_UNKNOWN, /* not finished yet */
	SEQUENTIAL_PASSED,
	SEQUENTIAL_FAILED,
	SEQUENTIAL_ABSENT,  /* the run did not report the test */
	SEQUENTIAL_IGNORED, /* unreliable: counted nowhere */
};

struct sequential {
	const char *test, *package;
	struct stats_sprt sprt;
	int64_t budget;
	struct sequential_result *r;
	struct sweep *s;
	bool signalled;
	unsigned char *marks; /* by run id */
	int64_t nmarks;
	int64_t next; /* the next run id to feed */
};

static enum sequential_mark
sequential_judge(const struct sequential *q, const struct sweep_run *run, const struct outcome *o)
{
	const struct results *res = sweep_results(q->s);
	size_t i;

	if (o->unreliable)
		return SEQUENTIAL_IGNORED;
	if (q->package != NULL && strcmp(res->pkgs[run->pkg].name, q->package) != 0)
		return SEQUENTIAL_ABSENT;
	for (i = 0; i < o->ntests; i++) {
		if (strcmp(o->tests[i].name, q->test) != 0)
			continue;
		if (o->tests[i].status == OUTCOME_FAIL || o->tests[i].status == OUTCOME_HANG)
			return SEQUENTIAL_FAILED;
		return o->tests[i].status == OUTCOME_PASS ? SEQUENTIAL_PASSED : SEQUENTIAL_ABSENT;
	}
	/* The package died before the test could report: that run failed it. */
	return o->package_failed && o->ntests > 0 ? SEQUENTIAL_FAILED : SEQUENTIAL_ABSENT;
}

static void
sequential_feed(struct sequential *q)
{
	struct sequential_result *r = q->r;

	while (q->next < q->nmarks && q->marks[q->next] != SEQUENTIAL_UNKNOWN) {
		enum sequential_mark m = q->marks[q->next++];

		if (r->state != STATS_SPRT_CONTINUE || r->lacks_test || r->runs >= q->budget)
			return;
		if (m == SEQUENTIAL_IGNORED)
			continue;
		if (m == SEQUENTIAL_ABSENT) {
			/* A commit that lacks the test says so in its first run. */
			if (r->runs == 0) {
				r->lacks_test = true;
				sweep_stop(q->s);
			}
			continue;
		}
		r->runs++;
		r->failures += m == SEQUENTIAL_FAILED;
		r->state = stats_sprt_add(&q->sprt, m == SEQUENTIAL_FAILED);
		if (r->state != STATS_SPRT_CONTINUE)
			sweep_stop(q->s);
	}
}

/* SIGINT, SIGTERM or SIGHUP: the sweep is interrupted as a stress sweep
 * would be; nothing of the decision is kept. */
static void
sequential_signal_cb(uv_signal_t *h, int signum)
{
	struct sequential *q = h->data;

	(void)signum;
	q->signalled = true;
	sweep_interrupt(q->s);
}

static void
sequential_run_finished(void *arg, const struct sweep_run *run, const struct outcome *o)
{
	struct sequential *q = arg;

	if (run->id < 0)
		return;
	if (run->id >= q->nmarks) {
		int64_t n = run->id + 64;

		q->marks = xrealloc(q->marks, (size_t)n);
		memset(q->marks + q->nmarks, SEQUENTIAL_UNKNOWN, (size_t)(n - q->nmarks));
		q->nmarks = n;
	}
	q->marks[run->id] = (unsigned char)sequential_judge(q, run, o);
	sequential_feed(q);
}

int
sequential_run(struct options *o, const struct sequential_spec *sp, struct sequential_result *r,
               char **err)
{
	struct sequential q = {
	    .test = sp->test, .package = sp->package, .budget = sp->budget, .r = r, .next = 1};
	struct observer obs = {.arg = &q, .run_finished = sequential_run_finished};
	static const int signums[] = {SIGINT, SIGTERM, SIGHUP};
	uv_signal_t sigs[3];
	struct sigaction saved[3];
	sigset_t quit, old;
	uv_loop_t loop;
	size_t i;
	int rc;

	memset(r, 0, sizeof *r);
	r->state = STATS_SPRT_CONTINUE;
	if (sp->budget < 1 || sp->budget > OPTIONS_COUNT_MAX) {
		*err = xasprintf(_("the budget is %lld runs; expected 1 to %d"),
		                 (long long)sp->budget, OPTIONS_COUNT_MAX);
		return -EINVAL;
	}
	rc = stats_sprt_init(&q.sprt, sp->p0, sp->p1, sp->alpha, sp->beta);
	if (rc < 0) {
		*err = xasprintf(_("no sequential test of rate %g against %g"), sp->p0, sp->p1);
		return rc;
	}
	free(o->cpus);
	free(o->loads);
	o->cpus = xmalloc(sizeof *o->cpus);
	o->loads = xmalloc(sizeof *o->loads);
	o->cpus[0] = sp->cpu;
	o->loads[0] = sp->load;
	o->ncpus = o->nloads = 1;
	o->count = (int)sp->budget;
	o->confirm = 0;
	o->ui = OPTIONS_UI_NONE;
	o->given |= OPTIONS_GIVEN_CPU | OPTIONS_GIVEN_LOAD | OPTIONS_GIVEN_COUNT |
	            OPTIONS_GIVEN_CONFIRM | OPTIONS_GIVEN_RUN;
	free(o->run_re);
	o->run_re = driver_find(o->driver)->filter(sp->test);
	uv_loop_init(&loop);
	q.s = sweep_new(&loop, o, &obs, err);
	if (q.s == NULL) {
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		return -EINVAL;
	}
	for (i = 0; i < UTIL_ARRAY_LEN(sigs); i++) {
		sigaction(signums[i], NULL, &saved[i]);
		uv_signal_init(&loop, &sigs[i]);
		sigs[i].data = &q;
		uv_signal_start(&sigs[i], sequential_signal_cb, signums[i]);
		uv_unref((uv_handle_t *)&sigs[i]);
	}
	rc = sweep_start(q.s, err);
	uv_run(&loop, UV_RUN_DEFAULT);
	/* A signal caught as the sweep ended is still in the loop's pipe. */
	uv_run(&loop, UV_RUN_NOWAIT);
	/* Closing the last handle of a signal sets it to SIG_DFL: the
	 * caller's own handlers (bisect's, between probes) come back, and
	 * one of these signals that comes meanwhile waits for them, never
	 * the default action. */
	sigemptyset(&quit);
	for (i = 0; i < UTIL_ARRAY_LEN(signums); i++)
		sigaddset(&quit, signums[i]);
	sigprocmask(SIG_BLOCK, &quit, &old);
	for (i = 0; i < UTIL_ARRAY_LEN(sigs); i++) {
		uv_close((uv_handle_t *)&sigs[i], NULL);
		sigaction(signums[i], &saved[i], NULL);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	r->exit_status = q.signalled ? 130 : sweep_exit_status(q.s);
	/* A sweep that could not start has no results to read. */
	r->outdir = rc < 0 ? NULL : xstrdup(sweep_outdir(q.s));
	sweep_free(q.s);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	free(q.marks);
	return rc < 0 ? -EIO : 0;
}
