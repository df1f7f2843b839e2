/* SPDX-License-Identifier: MIT */
/*
 * test-sched-core.c: the scheduler core driven by a fake executor that
 * finishes runs oldest first (the phases, the confirm cells, a resume's
 * runs, an executor that cannot start runs), and the virtual executor
 * behind `flakesweep plan` (its utilisation bounds).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "check.h"
#include "engine/forecast.h"
#include "engine/sched-core.h"
#include "results/results-json.h"

static const int test_core_cpus[] = {1, 2}, test_core_loads[] = {1, 2};

/* What the fake executor saw. */
struct test_core_log {
	int starts[SWEEP_PHASE_DONE + 1]; /* runs started in each phase */
	int alone;                        /* of them, RESULTS_ALONE runs */
	enum sweep_phase phases[8];
	int nphases;
	int overs;
	int max_inflight;
};

static void
test_core_lanes(struct lanes *l, int cores)
{
	cpu_set_t set;
	char *err = NULL;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < cores; i++)
		CPU_SET(i, &set);
	CHECK_INT(lanes_plan(&set, 0, 2, l, &err), 0);
}

static struct sched_core *
test_core_new(const struct lanes *l, int confirm)
{
	struct sched_core_setup setup;

	memset(&setup, 0, sizeof setup);
	setup.lanes = l;
	setup.grid.cpus = test_core_cpus;
	setup.grid.ncpus = 2;
	setup.grid.loads = test_core_loads;
	setup.grid.nloads = 2;
	setup.grid.count = 3;
	setup.grid.confirm = confirm;
	return sched_core_new(&setup);
}

/* Drives c to its end (or until it has nothing to do), finishing the
 * oldest run first, at most may_start runs started (< 0: no limit). */
static void
test_core_drive(struct sched_core *c, struct test_core_log *log, int may_start)
{
	struct sched_run *inflight[64];
	int n = 0, i;
	struct sched_core_decision d;

	for (;;) {
		while (sched_core_next(c, may_start != 0, &d)) {
			const struct plan_pair *p;

			switch (d.kind) {
			case SCHED_CORE_START:
				p = sched_pair_data(sched_core_sched(c), d.run->pair);
				log->starts[sched_core_phase(c)]++;
				log->alone += p->phase == RESULTS_ALONE;
				CHECK(n < 64);
				inflight[n++] = d.run;
				if (n > log->max_inflight)
					log->max_inflight = n;
				if (may_start > 0)
					may_start--;
				break;
			case SCHED_CORE_PHASE:
				CHECK(log->nphases < 8);
				log->phases[log->nphases++] = d.phase;
				break;
			case SCHED_CORE_OVER:
				log->overs++;
				break;
			default:
				CHECK(!"no environment in these tests");
			}
		}
		if (n == 0 || log->overs > 0)
			return;
		sched_core_finish(c, inflight[0], 10);
		for (i = 1; i < n; i++)
			inflight[i - 1] = inflight[i];
		n--;
	}
}

TEST(sched_core_phases_sweep_confirm_over)
{
	struct pkg a = {.name = "a", .level = "unit", .build_ok = true};
	struct pkg b = {.name = "b", .level = "unit", .build_ok = true};
	struct pkg *pkgs[] = {&a, &b};
	struct results *r = results_new();
	struct results_test *t;
	struct sched_core_input in;
	struct test_core_log log;
	struct sched_core *c;
	struct lanes l;
	int64_t done, target;

	/* TestA of a failed in the sweep: 2 confirm runs at each of 4 pairs. */
	results_add_pkg(r, "a", "unit");
	results_add_pkg(r, "b", "unit");
	t = results_add_test(r, 0, "a::TestA", "TestA");
	t->first = xcalloc(1, sizeof *t->first);
	t->first->phase = RESULTS_SWEEP;
	test_core_lanes(&l, 4);
	c = test_core_new(&l, 2);
	CHECK_INT(sched_core_phase(c), SWEEP_PHASE_BUILD);
	memset(&in, 0, sizeof in);
	in.pkgs = pkgs;
	in.npkgs = 2;
	in.results = r;
	sched_core_begin(c, &in);
	memset(&log, 0, sizeof log);
	test_core_drive(c, &log, -1);
	CHECK_INT(log.nphases, 2);
	CHECK_INT(log.phases[0], SWEEP_PHASE_SWEEP);
	CHECK_INT(log.phases[1], SWEEP_PHASE_CONFIRM);
	/* 2 packages x 4 pairs x 3 runs, then 4 pairs x 2 runs. */
	CHECK_INT(log.starts[SWEEP_PHASE_SWEEP], 24);
	CHECK_INT(log.starts[SWEEP_PHASE_CONFIRM], 8);
	CHECK_INT(log.overs, 1);
	/* Four cores at load 2 at most: never more than 8 runs at once. */
	CHECK(log.max_inflight <= 8);
	sched_core_prior(c, &done, &target);
	CHECK_INT(done, 24);
	CHECK_INT(target, 24);
	plan_progress(sched_core_plan(c), &done, &target);
	CHECK_INT(done, 8);
	/* Asked for more: the confirm phase owes runs again, then is over
	 * once more. */
	sched_core_confirm(c, t, "unit", 1);
	memset(&log, 0, sizeof log);
	test_core_drive(c, &log, -1);
	CHECK_INT(log.starts[SWEEP_PHASE_CONFIRM], 4);
	CHECK_INT(log.overs, 1);
	sched_core_free(c);
	lanes_free(&l);
	results_free(r);
}

/* One package "a" on two cores, its sweep phase begun with the runs a
 * resume holds (done, or NULL). */
struct test_core_one {
	struct pkg a;
	struct pkg *pkgs[1];
	struct results *r;
	struct lanes l;
	struct sched_core *c;
	struct test_core_log log;
};

static void
test_core_one_begin(struct test_core_one *f, const struct plan *done)
{
	struct sched_core_input in;

	memset(f, 0, sizeof *f);
	f->a = (struct pkg){.name = "a", .level = "unit", .build_ok = true};
	f->pkgs[0] = &f->a;
	f->r = results_new();
	results_add_pkg(f->r, "a", "unit");
	test_core_lanes(&f->l, 2);
	f->c = test_core_new(&f->l, 0);
	memset(&in, 0, sizeof in);
	in.pkgs = f->pkgs;
	in.npkgs = 1;
	in.results = f->r;
	in.done = done;
	sched_core_begin(f->c, &in);
}

static void
test_core_one_free(struct test_core_one *f)
{
	sched_core_free(f->c);
	lanes_free(&f->l);
	results_free(f->r);
}

TEST(sched_core_no_phase_change_while_it_may_not_start)
{
	struct test_core_one f;

	test_core_one_begin(&f, NULL);
	/* The phase is announced; no run is placed while the executor cannot
	 * start one (an interrupt, a journal that takes no line). */
	test_core_drive(f.c, &f.log, 0);
	CHECK_INT(f.log.nphases, 1);
	CHECK_INT(f.log.starts[SWEEP_PHASE_SWEEP], 0);
	/* Then it may: all 12 runs, an empty confirm phase, the end. */
	test_core_drive(f.c, &f.log, -1);
	CHECK_INT(f.log.starts[SWEEP_PHASE_SWEEP], 12);
	CHECK_INT(f.log.nphases, 2);
	CHECK_INT(f.log.overs, 1);
	test_core_one_free(&f);
}

TEST(sched_core_counts_the_runs_a_resume_holds)
{
	struct test_core_one f;
	struct plan done;
	struct plan_grid g = {0};
	int i;

	/* The journal holds 2 runs at (1, 1) and 5 (more than planned) at
	 * (2, 2): 1 + 3 + 3 + 0 runs are owed. */
	plan_init(&done, &g);
	plan_count_run(&done, RESULTS_SWEEP, 0, NULL, 1, 1, 10);
	plan_count_run(&done, RESULTS_SWEEP, 0, NULL, 1, 1, 10);
	for (i = 0; i < 5; i++)
		plan_count_run(&done, RESULTS_SWEEP, 0, NULL, 2, 2, 10);
	test_core_one_begin(&f, &done);
	test_core_drive(f.c, &f.log, -1);
	CHECK_INT(f.log.starts[SWEEP_PHASE_SWEEP], 7);
	CHECK_INT(f.log.overs, 1);
	test_core_one_free(&f);
	plan_free(&done);
}

static struct results *
test_core_dozen(void)
{
	struct results *r = NULL;
	char *path = xasprintf("%s/tests/fixtures/plan/dozen.json", check_srcdir()), *err = NULL;

	if (results_load(path, &r, NULL, &err) < 0)
		check_fail(__FILE__, __LINE__, "%s", err);
	free(path);
	return r;
}

/* A dozen packages of 15-180 ms on 256 cores at widths 1 to 8 and loads 1
 * and 2: at least 95% of the usable cores are busy, never more than all. */
TEST(forecast_keeps_256_cores_busy)
{
	static const int cpus[] = {1, 2, 4, 8}, loads[] = {1, 2};
	struct forecast_input in = {.cores = 256,
	                            .keep = -1,
	                            .cpus = cpus,
	                            .ncpus = 4,
	                            .loads = loads,
	                            .nloads = 2,
	                            .count = 500,
	                            .confirm = 1000,
	                            .canaries = 1};
	struct forecast f;
	char *err = NULL;

	in.durations = test_core_dozen();
	in.measured = in.durations->npkgs;
	CHECK_INT(forecast_run(&in, &f, &err), 0);
	CHECK_INT(f.nlanes, 31);
	CHECK_INT(f.sweep.runs, 12 * 4 * 2 * 500);
	CHECK_INT(f.confirm.runs, 0);
	CHECK(f.utilisation >= 0.95);
	CHECK(f.utilisation <= 1.0);
	CHECK(f.busy_core_s <= f.usable_core_s);
	/* cpu 4 and 8 were never measured: they scale from cpu 2. */
	CHECK(f.nscaled == 12 * 4);
	CHECK_INT(f.scaled[0].from_cpu, 2);
	forecast_free(&f);
	results_free((struct results *)in.durations);
}

/* On one core at load 1 the plan is the sum of its runs: no run overlaps,
 * none is lost. */
TEST(forecast_one_core_is_the_sum_of_the_runs)
{
	static const int cpus[] = {1}, loads[] = {1};
	struct forecast_input in = {.cores = 1,
	                            .keep = 0,
	                            .cpus = cpus,
	                            .ncpus = 1,
	                            .loads = loads,
	                            .nloads = 1,
	                            .count = 10};
	struct forecast f;
	char *err = NULL;
	int64_t sum_ms = 0;
	size_t i;

	in.durations = test_core_dozen();
	in.measured = in.durations->npkgs;
	for (i = 0; i < in.durations->npkgs; i++)
		sum_ms += 10 * in.durations->pkgs[i].durations.cells[0].median_ms;
	CHECK_INT(forecast_run(&in, &f, &err), 0);
	CHECK_INT(f.runs, 120);
	CHECK_INT((int64_t)(f.wall_s * 1000 + 0.5), sum_ms);
	CHECK(f.utilisation > 0.999 && f.utilisation <= 1.0);
	forecast_free(&f);
	/* No lane fits: the error says what does. */
	in.cpus = (const int[]){2};
	CHECK_INT(forecast_run(&in, &f, &err), -EINVAL);
	CHECK(err != NULL);
	free(err);
	forecast_free(&f);
	results_free((struct results *)in.durations);
}
