/* SPDX-License-Identifier: MIT */
/* test-status.c: a live sweep and its journal read back give the same
 * sweep_status, at each phase. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "engine/replay-status.h"
#include "results/replay.h"
#include "engine/sweep.h"
#include "base/util.h"

struct test_status {
	struct sweep *s;
	char *journal;
	int compared; /* phases compared */
	int64_t done[SWEEP_PHASE_DONE + 1], target[SWEEP_PHASE_DONE + 1];
};

/* The live sweep's status against the replayed journal's, now. */
static void
test_status_phase(void *arg, enum sweep_phase phase)
{
	struct test_status *ts = arg;
	struct sweep *s = ts->s;
	struct sweep_status live, back;
	struct replay r;
	char *err = NULL;
	int i;

	if (phase != SWEEP_PHASE_SWEEP && phase != SWEEP_PHASE_CONFIRM && phase != SWEEP_PHASE_DONE)
		return;
	memset(&live, 0, sizeof live);
	memset(&back, 0, sizeof back);
	sweep_status(s, &live);
	CHECK_INT(replay_journal(ts->journal, &r, &err), 0);
	replay_status(&r, &back);
	CHECK_INT(back.phase, live.phase);
	CHECK_INT(back.finished, live.finished);
	CHECK_INT(back.done, live.done);
	CHECK_INT(back.target, live.target);
	/* The journal keeps seconds. */
	CHECK_INT(back.started_ms / 1000, live.started_ms / 1000);
	CHECK_INT(back.finished_ms / 1000, live.finished_ms / 1000);
	CHECK_INT(back.count, live.count);
	CHECK_INT(back.confirm, live.confirm);
	CHECK_INT(back.ncpus, live.ncpus);
	CHECK_INT(back.nloads, live.nloads);
	for (i = 0; i < live.ncpus && i < back.ncpus; i++)
		CHECK_INT(back.cpus[i], live.cpus[i]);
	for (i = 0; i < live.nloads && i < back.nloads; i++)
		CHECK_INT(back.loads[i], live.loads[i]);
	CHECK_INT(back.machine_cores, live.machine_cores);
	CHECK_INT(back.keep, live.keep);
	CHECK_INT(back.nlanes, live.nlanes);
	CHECK_INT(back.width, live.width);
	for (i = 0; i < live.nlanes && i < back.nlanes; i++)
		CHECK_INT(back.lanes[i].cores[0], live.lanes[i].cores[0]);
	ts->done[phase] = live.done;
	ts->target[phase] = live.target;
	ts->compared++;
	status_free(&live);
	status_free(&back);
	replay_free(&r);
	free(err);
}

TEST(status_live_and_replayed_agree)
{
	const char *dir = check_tmpdir();
	char *script = xasprintf("%s/t.sh", dir), *err = NULL;
	struct test_status ts;
	struct observer obs;
	struct options o;
	struct sweep *s;
	uv_loop_t loop;
	FILE *f = fopen(script, "w");

	/* One lane: no failure among overlapped runs asks for runs alone
	 * (interference.h). */
	check_one_core();
	/* beta fails in runs 3 and 6 of the sweep, passes when confirmed. */
	fputs("#!/bin/sh\necho 1..2\necho 'ok 1 - alpha'\n"
	      "if [ $((FLAKESWEEP_RUN % 3)) = 0 ]; then echo 'not ok 2 - beta';"
	      " else echo 'ok 2 - beta'; fi\n",
	      f);
	fclose(f);
	chmod(script, 0755);
	memset(&ts, 0, sizeof ts);
	ts.journal = xasprintf("%s/out/journal.jsonl", dir);
	options_init(&o);
	free(o.driver);
	o.driver = xstrdup("tap");
	util_strv_add(&o.command, &(size_t){0}, script);
	o.ncommand = 1;
	o.cpus = xcalloc(1, sizeof *o.cpus);
	o.cpus[0] = 1;
	o.ncpus = 1;
	o.nloads = 1;
	o.count = 6;
	o.confirm = 2;
	o.outdir = xasprintf("%s/out", dir);
	memset(&obs, 0, sizeof obs);
	obs.arg = &ts;
	obs.phase = test_status_phase;
	uv_loop_init(&loop);
	s = ts.s = sweep_new(&loop, &o, &obs, &err);
	CHECK(s != NULL);
	if (s == NULL) {
		fprintf(stderr, "%s\n", err);
		return;
	}
	CHECK_INT(sweep_start(s, &err), 0);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_INT(sweep_exit_status(s), 1);
	sweep_free(s);
	uv_loop_close(&loop);
	CHECK_INT(ts.compared, 3);
	CHECK_INT(ts.target[SWEEP_PHASE_SWEEP], 6);
	CHECK_INT(ts.done[SWEEP_PHASE_SWEEP], 0);
	/* beta failed in the sweep: 2 runs alone at the one pair. */
	CHECK_INT(ts.target[SWEEP_PHASE_CONFIRM], 2);
	CHECK_INT(ts.done[SWEEP_PHASE_CONFIRM], 0);
	CHECK_INT(ts.done[SWEEP_PHASE_DONE], 8);
	CHECK_INT(ts.target[SWEEP_PHASE_DONE], 8);
	options_free(&o);
	free(ts.journal);
	free(script);
}

/* A lane holding a run that waits to be alone says so, rather than
 * counting free cores it has (a run alone waits for its package). */
TEST(status_hold_says_what_an_alone_run_waits_for)
{
	struct sweep_status st;
	int cores[] = {0, 1};

	memset(&st, 0, sizeof st);
	status_set_lanes(&st, 2, 1, cores);
	status_hold(&st, 1, "example.com/m/pkg/y", "TestY", 1, 1);
	status_hold_alone(&st, 1, true);
	CHECK_STR(st.lanes[1].held_why,
	          "runs alone: waits for the other runs of its package to end");
	status_hold_alone(&st, 1, false);
	CHECK_STR(st.lanes[1].held_why, "waits while a run of its package runs alone");
	status_free(&st);
}
