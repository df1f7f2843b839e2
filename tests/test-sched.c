/* SPDX-License-Identifier: MIT */
/*
 * test-sched.c: the scheduler's properties over many random configurations,
 * with a fake runner that finishes runs in random order.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "engine/sched.h"
#include "base/util.h"

struct fake_envs;

struct fake {
	struct sched *s;
	struct fake_envs *envs; /* sched_environments_hold_a_lane */
	const struct lanes *lanes;
	struct sched_run **inflight;
	int ninflight;
	int *starts; /* per pair */
};

static void
fake_start(void *arg, struct sched_run *run)
{
	struct fake *f = arg;
	int i, j;

	f->starts[run->pair]++;
	f->inflight = xrealloc(f->inflight, sizeof *f->inflight * (size_t)(f->ninflight + 1));
	f->inflight[f->ninflight++] = run;
	/* Pinned to cpu distinct cores of its own lane. */
	for (i = 0; i < run->ncpus; i++) {
		int found = 0;

		for (j = 0; j < f->lanes->width; j++)
			found += f->lanes->cores[run->lane][j] == run->cpus[i];
		CHECK_INT(found, 1);
		for (j = 0; j < i; j++)
			CHECK(run->cpus[j] != run->cpus[i]);
	}
}

static void
make_lanes(struct lanes *l, int nlanes, int width)
{
	int i, j;

	memset(l, 0, sizeof *l);
	l->nlanes = nlanes;
	l->width = width;
	l->ncores = nlanes * width;
	l->cores = xcalloc((size_t)nlanes, sizeof *l->cores);
	for (i = 0; i < nlanes; i++) {
		l->cores[i] = xcalloc((size_t)width, sizeof **l->cores);
		for (j = 0; j < width; j++)
			l->cores[i][j] = i * width + j;
	}
	l->kept = xcalloc(1, sizeof *l->kept);
}

/* The invariants that hold after every dispatch. */
static void
check_invariants(struct fake *f)
{
	int lane, i, k;

	for (lane = 0; lane < f->lanes->nlanes; lane++) {
		int load = sched_lane_load(f->s, lane), held = sched_lane_held(f->s, lane);
		int running = 0;

		for (i = 0; i < f->lanes->width; i++)
			CHECK(sched_lane_core_runs(f->s, lane, i) <= load);
		for (k = 0; k < f->ninflight; k++) {
			int pload;

			if (f->inflight[k]->lane != lane)
				continue;
			running++;
			sched_pair_counts(f->s, f->inflight[k]->pair, NULL, &pload, NULL, NULL,
			                  NULL);
			CHECK_INT(pload, load);
		}
		if (running == 0)
			CHECK_INT(load, 0);
		/* A held task really does not fit: the lane is busy. */
		if (held >= 0 && !sched_paused(f->s)) {
			int hcpu, hload, free_cores = 0;

			CHECK(running > 0);
			sched_pair_counts(f->s, held, &hcpu, &hload, NULL, NULL, NULL);
			for (i = 0; i < f->lanes->width; i++)
				free_cores += sched_lane_core_runs(f->s, lane, i) < load;
			CHECK(hload != load || free_cores < hcpu);
		}
	}
}

/* A pair's counts, and what SCHED_AHEAD_LANES lets it get ahead: that many
 * lanes' worth of its runs, plus one run. */
struct bound_pair {
	int cpu, load, target, started, done;
	int64_t ahead;
};

static void
bound_pair_read(const struct fake *f, int pair, struct bound_pair *b)
{
	sched_pair_counts(f->s, pair, &b->cpu, &b->load, &b->target, &b->started, &b->done);
	b->ahead = (int64_t)SCHED_AHEAD_LANES * f->lanes->width * b->load / b->cpu + 1;
}

/* The bound sched.h states, after every dispatch: no pair's share of its
 * target started is more than its ahead runs ahead of the least share
 * started of a pair that still owes runs; so no pair's share done is more
 * than that, plus another pair's runs in flight (at most a lane's worth
 * in each lane), ahead of the other's. Shares are compared without
 * division. */
static void
check_bound(const struct fake *f)
{
	struct bound_pair p, q, least = {0, 0, 0, 0, 0, 0};
	int n = sched_npairs(f->s), i, j;
	bool owed = false;

	for (i = 0; i < n; i++) {
		bound_pair_read(f, i, &p);
		if (p.started < p.target && (!owed || (int64_t)p.started * least.target <
		                                          (int64_t)least.started * p.target)) {
			least = p;
			owed = true;
		}
	}
	for (i = 0; i < n; i++) {
		bound_pair_read(f, i, &p);
		if (owed)
			CHECK((int64_t)p.started * least.target <=
			      (int64_t)least.started * p.target + p.ahead * least.target);
		for (j = 0; j < n; j++) {
			int64_t flight;

			bound_pair_read(f, j, &q);
			flight = (int64_t)f->lanes->nlanes * f->lanes->width * q.load / q.cpu;
			CHECK((int64_t)p.done * q.target - (int64_t)q.done * p.target <=
			      p.ahead * q.target + flight * p.target);
		}
	}
}

TEST(sched_properties_random_configs)
{
	int iter;

	srand(12345);
	for (iter = 0; iter < 300; iter++) {
		static const int widths[] = {1, 2, 4, 8};
		int width = widths[rand() % 4], nlanes = 1 + rand() % 3;
		struct lanes l;
		struct fake f;
		int pair, npairs, steps = 0, c, ld;
		int loads[3] = {1, 2, 3};

		make_lanes(&l, nlanes, width);
		memset(&f, 0, sizeof f);
		f.lanes = &l;
		f.s = sched_new(&l, fake_start, &f);
		/* Every cpu up to the width that the draw keeps, at 1-3 loads. */
		for (c = 1; c <= width; c *= 2) {
			if (c != width && rand() % 3 == 0)
				continue;
			for (ld = 0; ld < 3; ld++) {
				if (ld > 0 && rand() % 2 == 0)
					continue;
				sched_add_pair(f.s, c, loads[ld], 1 + rand() % 12, NULL);
			}
		}
		npairs = sched_npairs(f.s);
		f.starts = xcalloc((size_t)npairs, sizeof *f.starts);
		sched_dispatch(f.s);
		check_invariants(&f);
		check_bound(&f);
		while (f.ninflight > 0) {
			int k = rand() % f.ninflight;
			struct sched_run *run = f.inflight[k];

			f.inflight[k] = f.inflight[--f.ninflight];
			sched_finish(f.s, run, 1 + rand() % 50);
			sched_dispatch(f.s);
			check_invariants(&f);
			check_bound(&f);
			CHECK(++steps < 100000);
		}
		/* Every task started; every pair ran exactly its target. */
		CHECK(sched_complete(f.s));
		for (pair = 0; pair < npairs; pair++) {
			int target, done;

			sched_pair_counts(f.s, pair, NULL, NULL, &target, NULL, &done);
			CHECK_INT(f.starts[pair], target);
			CHECK_INT(done, target);
		}
		for (c = 0; c < nlanes; c++)
			CHECK_INT(sched_lane_held(f.s, c), -1);
		sched_free(f.s);
		free(f.starts);
		free(f.inflight);
		lanes_free(&l);
	}
}

/* Package 0 has ordinary pairs and alone pairs (at loads 1 and 2),
 * package 1 ordinary ones, on two 2-core lanes, finished in random order:
 * while an alone run of package 0 is in flight no other run of package 0
 * is, package 1's runs go on beside it, and every pair runs its target
 * (nothing waits forever). */
TEST(sched_alone_pairs_have_their_package_to_themselves)
{
	int iter, waited = 0;

	srand(777);
	for (iter = 0; iter < 50; iter++) {
		struct lanes l;
		struct fake f;
		int steps = 0, beside = 0, pair, k;
		static const bool alone[] = {false, true, true, false};

		make_lanes(&l, 2, 2);
		memset(&f, 0, sizeof f);
		f.lanes = &l;
		f.s = sched_new(&l, fake_start, &f);
		sched_pair_group(f.s, sched_add_pair(f.s, 1, 1, 30, NULL), 0, false);
		sched_pair_group(f.s, sched_add_pair(f.s, 1, 1, 8, NULL), 0, true);
		sched_pair_group(f.s, sched_add_pair(f.s, 1, 2, 8, NULL), 0, true);
		sched_pair_group(f.s, sched_add_pair(f.s, 1, 1, 60, NULL), 1, false);
		f.starts = xcalloc(4, sizeof *f.starts);
		sched_dispatch(f.s);
		do {
			int pkg0 = 0, alone0 = 0, pkg1 = 0;

			for (k = 0; k < f.ninflight; k++) {
				pair = f.inflight[k]->pair;
				pkg0 += pair < 3;
				alone0 += alone[pair];
				pkg1 += pair == 3;
			}
			CHECK(alone0 == 0 || pkg0 == 1);
			/* Its alone runs follow the runs of it that need not be
			 * alone: the package drains once. */
			CHECK(alone0 == 0 || f.starts[0] == 30);
			beside += alone0 > 0 && pkg1 > 0;
			/* A lane holding an alone pair of package 0 while another
			 * run of it is in flight says it waits to run alone. */
			for (k = 0; k < l.nlanes; k++) {
				int h = sched_lane_held(f.s, k);

				if (h < 0 || h >= 3 || pkg0 == 0)
					continue;
				if (alone[h]) {
					CHECK_INT(sched_pair_group_wait(f.s, h),
					          SCHED_WAIT_TO_RUN_ALONE);
					waited++;
				} else if (alone0 > 0) {
					CHECK_INT(sched_pair_group_wait(f.s, h),
					          SCHED_WAIT_FOR_ALONE);
				}
			}
			if (f.ninflight == 0)
				break;
			k = rand() % f.ninflight;
			sched_finish(f.s, f.inflight[k], 1 + rand() % 50);
			f.inflight[k] = f.inflight[--f.ninflight];
			sched_dispatch(f.s);
			CHECK(++steps < 10000);
		} while (true);
		CHECK(sched_complete(f.s));
		CHECK(beside > 0);
		for (pair = 0; pair < 4; pair++) {
			int target, done;

			sched_pair_counts(f.s, pair, NULL, NULL, &target, NULL, &done);
			CHECK_INT(done, target);
		}
		sched_free(f.s);
		free(f.starts);
		free(f.inflight);
		lanes_free(&l);
	}
	CHECK(waited > 0);
}

TEST(sched_load_packing)
{
	struct lanes l;
	struct fake f;

	/* One 4-core lane at load 1 holds four cpu-1 runs, at load 2 eight. */
	make_lanes(&l, 1, 4);
	memset(&f, 0, sizeof f);
	f.lanes = &l;
	f.s = sched_new(&l, fake_start, &f);
	sched_add_pair(f.s, 1, 1, 100, NULL);
	f.starts = xcalloc(2, sizeof *f.starts);
	sched_dispatch(f.s);
	CHECK_INT(f.ninflight, 4);
	CHECK_INT(sched_running(f.s), 4);
	sched_free(f.s);
	free(f.inflight);
	memset(&f, 0, sizeof f);
	f.lanes = &l;
	f.starts = xcalloc(2, sizeof *f.starts);
	f.s = sched_new(&l, fake_start, &f);
	sched_add_pair(f.s, 1, 2, 100, NULL);
	sched_dispatch(f.s);
	CHECK_INT(f.ninflight, 8);
	sched_free(f.s);
	free(f.inflight);
	free(f.starts);
	memset(&f, 0, sizeof f);
	f.lanes = &l;
	f.starts = xcalloc(2, sizeof *f.starts);
	f.s = sched_new(&l, fake_start, &f);
	sched_add_pair(f.s, 2, 1, 100, NULL);
	sched_dispatch(f.s);
	CHECK_INT(f.ninflight, 2);
	CHECK(f.inflight[0]->cpus[0] != f.inflight[1]->cpus[0]);
	sched_free(f.s);
	free(f.inflight);
	free(f.starts);
	lanes_free(&l);
}

TEST(sched_furthest_behind_first_and_hold)
{
	struct lanes l;
	struct fake f;
	int started, steps = 0;

	make_lanes(&l, 1, 2);
	memset(&f, 0, sizeof f);
	f.lanes = &l;
	f.starts = xcalloc(2, sizeof *f.starts);
	f.s = sched_new(&l, fake_start, &f);
	sched_add_pair(f.s, 1, 1, 40, NULL); /* pair 0 */
	sched_add_pair(f.s, 2, 1, 40, NULL); /* pair 1 */
	sched_dispatch(f.s);
	/* Pair 0 goes first (tie, lowest id); pair 1 (behind) does not fit
	 * beside it, so pair 0 takes the other core too. */
	CHECK_INT(f.ninflight, 2);
	CHECK_INT(f.inflight[0]->pair, 0);
	CHECK_INT(f.inflight[1]->pair, 0);
	CHECK_INT(sched_lane_held(f.s, 0), -1); /* full: nothing taken */
	/* Pair 0 goes on while it is at most SCHED_AHEAD_LANES (8) lanes'
	 * worth (16 runs) ahead of pair 1; then pair 1 is held and the lane
	 * drains for it. */
	while (sched_lane_held(f.s, 0) < 0) {
		struct sched_run *run = f.inflight[0];

		memmove(f.inflight, f.inflight + 1, sizeof *f.inflight * (size_t)--f.ninflight);
		sched_finish(f.s, run, 5);
		sched_dispatch(f.s);
		CHECK(++steps < 40);
	}
	CHECK_INT(sched_lane_held(f.s, 0), 1);
	CHECK_INT(f.starts[0], 17);
	sched_pair_counts(f.s, 1, NULL, NULL, NULL, &started, NULL);
	CHECK_INT(started, 1);
	CHECK_INT(f.ninflight, 1);
	sched_finish(f.s, f.inflight[0], 5);
	f.ninflight = 0;
	sched_dispatch(f.s);
	CHECK_INT(f.ninflight, 1);
	CHECK_INT(f.inflight[0]->pair, 1);
	CHECK_INT(f.inflight[0]->ncpus, 2);
	CHECK_INT(sched_lane_held(f.s, 0), -1); /* full: nothing taken */
	sched_free(f.s);
	free(f.inflight);
	free(f.starts);
	lanes_free(&l);
}

TEST(sched_pause_stops_placing)
{
	struct lanes l;
	struct fake f;

	make_lanes(&l, 2, 1);
	memset(&f, 0, sizeof f);
	f.lanes = &l;
	f.starts = xcalloc(1, sizeof *f.starts);
	f.s = sched_new(&l, fake_start, &f);
	sched_add_pair(f.s, 1, 1, 5, NULL);
	sched_pause(f.s, true);
	sched_dispatch(f.s);
	CHECK_INT(f.ninflight, 0);
	sched_pause(f.s, false);
	sched_dispatch(f.s);
	CHECK_INT(f.ninflight, 2);
	sched_free(f.s);
	free(f.inflight);
	free(f.starts);
	lanes_free(&l);
}

/* --containers: capped pairs never run more than the cap at once, the
 * other pairs fill the lanes meanwhile, and every run still happens. */
TEST(sched_cap_limits_capped_pairs)
{
	struct lanes l;
	struct fake f;
	int a, b, k, capped, peak = 0, others = 0, finished = 0;

	make_lanes(&l, 4, 1);
	memset(&f, 0, sizeof f);
	f.lanes = &l;
	f.starts = xcalloc(2, sizeof *f.starts);
	f.s = sched_new(&l, fake_start, &f);
	sched_set_cap(f.s, 1);
	a = sched_add_pair(f.s, 1, 1, 6, NULL);
	b = sched_add_pair(f.s, 1, 1, 6, NULL);
	sched_cap_pair(f.s, a);
	sched_dispatch(f.s);
	CHECK_INT(f.ninflight, 4);
	while (f.ninflight > 0) {
		struct sched_run *run = f.inflight[0];

		for (capped = 0, k = 0; k < f.ninflight; k++)
			capped += f.inflight[k]->pair == a;
		if (capped > peak)
			peak = capped;
		if (f.ninflight == 4)
			others = f.ninflight - capped > others ? f.ninflight - capped : others;
		memmove(f.inflight, f.inflight + 1, sizeof *f.inflight * (size_t)--f.ninflight);
		sched_finish(f.s, run, 10);
		finished++;
		sched_dispatch(f.s);
	}
	CHECK_INT(peak, 1);
	CHECK_INT(others, 3);
	CHECK_INT(finished, 12);
	CHECK_INT(f.starts[a], 6);
	CHECK_INT(f.starts[b], 6);
	CHECK(sched_complete(f.s));
	sched_free(f.s);
	free(f.inflight);
	free(f.starts);
	lanes_free(&l);
}

/* The environments the fake brings up and down: what was called, and
 * what waits for the test to answer. */
struct fake_envs {
	int ups[2], downs[2];
	int pending_up, pending_down; /* env waiting for ready / release, or -1 */
	int up_lane[2];
};

static void
fake_env_up(void *arg, int env, int lane)
{
	struct fake_envs *e = ((struct fake *)arg)->envs;

	e->ups[env]++;
	e->up_lane[env] = lane;
	CHECK_INT(e->pending_up, -1);
	e->pending_up = env;
}

static void
fake_env_down(void *arg, int env, int lane)
{
	struct fake_envs *e = ((struct fake *)arg)->envs;

	e->downs[env]++;
	CHECK_INT(lane, e->up_lane[env]);
	CHECK_INT(e->pending_down, -1);
	e->pending_down = env;
}

/* --clusters 1: two environments hold a whole lane each, one after the
 * other; each runs one run at a time on its lane, only once it is up;
 * no other run lands on a held lane; down follows each one's last run,
 * and the phase is complete only once both are released. */
TEST(sched_environments_hold_a_lane)
{
	struct lanes l;
	struct fake f;
	struct fake_envs e = {{0, 0}, {0, 0}, -1, -1, {-1, -1}};
	int pairs[3], k, step, held_peak = 0, env_runs = 0;

	make_lanes(&l, 2, 2);
	memset(&f, 0, sizeof f);
	f.lanes = &l;
	f.starts = xcalloc(3, sizeof *f.starts);
	f.s = sched_new(&l, fake_start, &f);
	f.envs = &e;
	sched_set_envs(f.s, 1, fake_env_up, fake_env_down);
	pairs[0] = sched_add_pair(f.s, 1, 1, 12, NULL);
	pairs[1] = sched_add_pair(f.s, 2, 1, 3, NULL);
	pairs[2] = sched_add_pair(f.s, 2, 1, 3, NULL);
	sched_env_pair(f.s, pairs[1], 0);
	sched_env_pair(f.s, pairs[2], 1);
	for (step = 0; step < 1000 && !sched_complete(f.s); step++) {
		int held = 0, lane;

		sched_dispatch(f.s);
		for (lane = 0; lane < l.nlanes; lane++) {
			int env = sched_lane_env(f.s, lane), on = 0;

			held += env >= 0;
			for (k = 0; k < f.ninflight; k++) {
				int pair = f.inflight[k]->pair;

				if (f.inflight[k]->lane != lane)
					continue;
				on += pair != pairs[0];
				/* A held lane runs only its environment's runs, once up. */
				if (env >= 0)
					CHECK(pair == pairs[1 + env] || e.pending_up != env);
				if (pair != pairs[0])
					CHECK_INT(f.inflight[k]->ncpus, 2);
			}
			CHECK(on <= 1);
		}
		held_peak = held > held_peak ? held : held_peak;
		if (e.pending_up >= 0) {
			for (k = 0; k < f.ninflight; k++)
				CHECK(f.inflight[k]->lane != e.up_lane[e.pending_up]);
			sched_env_ready(f.s, e.pending_up);
			e.pending_up = -1;
			continue;
		}
		if (e.pending_down >= 0) {
			sched_env_release(f.s, e.pending_down);
			e.pending_down = -1;
			continue;
		}
		if (f.ninflight > 0) {
			struct sched_run *run = f.inflight[0];

			env_runs += run->pair != pairs[0];
			memmove(f.inflight, f.inflight + 1,
			        sizeof *f.inflight * (size_t)--f.ninflight);
			sched_finish(f.s, run, 10);
		}
	}
	CHECK(sched_complete(f.s));
	CHECK_INT(held_peak, 1);
	CHECK_INT(env_runs, 6);
	CHECK_INT(f.starts[pairs[0]], 12);
	CHECK_INT(e.ups[0], 1);
	CHECK_INT(e.ups[1], 1);
	CHECK_INT(e.downs[0], 1);
	CHECK_INT(e.downs[1], 1);
	sched_free(f.s);
	free(f.inflight);
	free(f.starts);
	lanes_free(&l);
}

TEST(lanes_plan_and_errors)
{
	cpu_set_t set;
	struct lanes l;
	char *err;
	int i, cpus[] = {1, 2, 4};

	CPU_ZERO(&set);
	for (i = 0; i < 16; i++)
		CPU_SET(i, &set);
	CHECK_INT(lanes_plan(&set, -1, 4, &l, &err), 0);
	CHECK_INT(l.keep, 2);
	CHECK_INT(l.nlanes, 3);
	CHECK_INT(l.cores[0][0], 2);
	CHECK_INT(l.cores[2][3], 13);
	lanes_free(&l);
	CHECK_INT(lanes_plan(&set, 4, 4, &l, &err), 0);
	CHECK_INT(l.nlanes, 3);
	CHECK_INT(l.cores[0][0], 4);
	lanes_free(&l);
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	CPU_SET(1, &set);
	CHECK_INT(lanes_plan(&set, -1, 4, &l, &err), -22);
	CHECK_STR(err, "--cpu 4 does not fit: 2 cores usable (2 allowed, --keep 0); the widest "
	               "run that fits is --cpu 2");
	free(err);
	CHECK_INT(lanes_clip_cpus(cpus, 3, 2), 2);
	CHECK_INT(lanes_default_keep(4), 0);
	CHECK_INT(lanes_default_keep(16), 2);
	CHECK_INT(lanes_default_keep(64), 8);
}

TEST(sched_mixed_loads_really_share_cores)
{
	struct lanes l;
	struct fake f;
	int peak = 0, steps = 0;

	/* One 2-core lane, cpu 1 at loads 1 and 2 and cpu 2 at load 1: the
	 * queue alternates between loads, yet load-2 runs must end up two to
	 * a core, and no pair gets further ahead than the bound. */
	make_lanes(&l, 1, 2);
	memset(&f, 0, sizeof f);
	f.lanes = &l;
	f.starts = xcalloc(3, sizeof *f.starts);
	f.s = sched_new(&l, fake_start, &f);
	sched_add_pair(f.s, 1, 1, 120, NULL);
	sched_add_pair(f.s, 1, 2, 120, NULL);
	sched_add_pair(f.s, 2, 1, 120, NULL);
	sched_dispatch(f.s);
	while (f.ninflight > 0) {
		struct sched_run *run = f.inflight[0];
		int c;

		check_invariants(&f);
		if (sched_lane_load(f.s, 0) == 2) {
			for (c = 0; c < 2; c++)
				if (sched_lane_core_runs(f.s, 0, c) > peak)
					peak = sched_lane_core_runs(f.s, 0, c);
		}
		check_bound(&f);
		memmove(f.inflight, f.inflight + 1, sizeof *f.inflight * (size_t)--f.ninflight);
		sched_finish(f.s, run, 10);
		sched_dispatch(f.s);
		CHECK(++steps < 10000);
	}
	CHECK_INT(peak, 2);
	CHECK(sched_complete(f.s));
	CHECK_INT(f.starts[0], 120);
	CHECK_INT(f.starts[1], 120);
	CHECK_INT(f.starts[2], 120);
	sched_free(f.s);
	free(f.inflight);
	free(f.starts);
	lanes_free(&l);
}

/* A fake clock: each run lasts ms plus up to jitter ms more (rand()), and
 * runs finish in time order. Checks the invariants and the bound after
 * every dispatch, and that every pair runs exactly its target; returns
 * the share of the cores' time the runs had (a load-L run on a core
 * counts 1/L of it). If order is not NULL, it gets the pair of each run
 * placed, a digit each, in order. */
static double
sched_simulate(int nlanes, int width, const int *cpus, const int *loads, const int *targets,
               int npairs, int ms, int jitter, char *order)
{
	struct lanes l;
	struct fake f;
	int64_t *begin = NULL, *end = NULL, now = 0;
	double used = 0;
	int i, fresh = 0, placed = 0, steps = 0;

	make_lanes(&l, nlanes, width);
	memset(&f, 0, sizeof f);
	f.lanes = &l;
	f.starts = xcalloc((size_t)npairs, sizeof *f.starts);
	f.s = sched_new(&l, fake_start, &f);
	for (i = 0; i < npairs; i++)
		sched_add_pair(f.s, cpus[i], loads[i], targets[i], NULL);
	sched_dispatch(f.s);
	check_invariants(&f);
	check_bound(&f);
	while (f.ninflight > 0) {
		int k, first = 0, cpu, load;

		begin = xrealloc(begin, sizeof *begin * (size_t)f.ninflight);
		end = xrealloc(end, sizeof *end * (size_t)f.ninflight);
		/* Runs placed since the last finish start now. */
		for (k = fresh; k < f.ninflight; k++) {
			begin[k] = now;
			end[k] = now + ms + (jitter > 0 ? rand() % (jitter + 1) : 0);
			if (order != NULL)
				order[placed++] = (char)('0' + f.inflight[k]->pair);
		}
		for (k = 1; k < f.ninflight; k++)
			if (end[k] < end[first])
				first = k;
		now = end[first];
		sched_pair_counts(f.s, f.inflight[first]->pair, &cpu, &load, NULL, NULL, NULL);
		used += (double)cpu * (double)(now - begin[first]) / load;
		sched_finish(f.s, f.inflight[first], now - begin[first]);
		f.inflight[first] = f.inflight[--f.ninflight];
		begin[first] = begin[f.ninflight];
		end[first] = end[f.ninflight];
		fresh = f.ninflight;
		sched_dispatch(f.s);
		check_invariants(&f);
		check_bound(&f);
		CHECK(++steps < 1000000);
	}
	if (order != NULL)
		order[placed] = '\0';
	CHECK(sched_complete(f.s));
	for (i = 0; i < npairs; i++)
		CHECK_INT(f.starts[i], targets[i]);
	sched_free(f.s);
	free(f.inflight);
	free(f.starts);
	free(begin);
	free(end);
	lanes_free(&l);
	return used / ((double)nlanes * width * (double)now);
}

/* Many random machines, pair sets (a random target each) and run
 * durations: every pair runs its target, and the shares stay within the
 * bound at every step (sched_simulate checks both). */
TEST(sched_shares_stay_within_the_bound)
{
	static const int widths[] = {1, 2, 4};
	int seed;

	for (seed = 1; seed <= 200; seed++) {
		int width, nlanes, cpus[12], loads[12], targets[12], n = 0, c, ld;

		srand((unsigned)seed);
		width = widths[rand() % 3];
		nlanes = 1 + rand() % 3;
		for (c = 1; c <= width; c *= 2) {
			for (ld = 1; ld <= 3; ld++) {
				if (rand() % 3 == 0)
					continue;
				cpus[n] = c;
				loads[n] = ld;
				targets[n++] = 1 + rand() % 80;
			}
		}
		if (n == 0) {
			cpus[n] = width;
			loads[n] = 1;
			targets[n++] = 1 + rand() % 80;
		}
		sched_simulate(nlanes, width, cpus, loads, targets, n, 1 + rand() % 100,
		               rand() % 200, NULL);
	}
}

/* One 2-core lane, cpu 1 and cpu 2 at load 1, 40 runs each, every run
 * 10 ms: cpu 1 goes first (a tie, lowest id) and, as cpu 2 does not fit
 * beside it, keeps the lane while it is at most SCHED_AHEAD_LANES (8)
 * lanes' worth of its runs (16) ahead of cpu 2: 17 runs. Then the lane
 * drains for cpu 2, which, as each of its runs empties the lane, is the
 * head until it catches up (17; the tie goes to cpu 1); cpu 1 goes 17
 * ahead again, and so on. The one gap: each odd stretch of cpu 1 ends
 * with one core idle for a run (30 ms in 610; 1200 core-ms of runs). */
TEST(sched_exact_order_one_lane)
{
	static const int cpus[] = {1, 2}, loads[] = {1, 1}, targets[] = {40, 40};
	char order[81];
	double u;

	u = sched_simulate(1, 2, cpus, loads, targets, 2, 10, 0, order);
	CHECK_STR(order, "00000000000000000"
	                 "11111111111111111"
	                 "00000000000000000"
	                 "11111111111111111"
	                 "000000"
	                 "111111");
	CHECK(u == 1200.0 / 1220);
}

/* --cpu 1,2 --load 1,2 and --cpu 1,2 at one load, runs of 50 ms and 1 s,
 * on four 2-core lanes with runs of one length, and on a 2-core machine
 * (one lane, as on a small CI host) with runs whose lengths vary: there
 * each switch of load or width drains the lane, so the lane must keep
 * one long enough. */
TEST(sched_utilisation_default_pairs)
{
	static const struct {
		int nlanes, npairs, target, ms, jitter;
		const char *what;
	} cases[] = {
	    {4, 4, 400, 50, 0, "cpu 1,2 x load 1,2, 50 ms"},
	    {4, 4, 100, 1000, 0, "cpu 1,2 x load 1,2, 1 s"},
	    {4, 2, 400, 50, 0, "cpu 1,2 x load 1, 50 ms"},
	    {1, 4, 100, 50, 15, "one lane, cpu 1,2 x load 1,2, 50-65 ms"},
	    {1, 4, 100, 1000, 300, "one lane, cpu 1,2 x load 1,2, 1-1.3 s"},
	    {1, 2, 100, 50, 15, "one lane, cpu 1,2 x load 1, 50-65 ms"},
	};
	/* The first two pairs are the one-load ones. */
	static const int cpus[] = {1, 2, 1, 2}, loads[] = {1, 1, 2, 2};
	int targets[4], i, k;

	srand(42);
	for (i = 0; i < (int)UTIL_ARRAY_LEN(cases); i++) {
		double u;

		for (k = 0; k < 4; k++)
			targets[k] = cases[i].target;
		u = sched_simulate(cases[i].nlanes, 2, cpus, loads, targets, cases[i].npairs,
		                   cases[i].ms, cases[i].jitter, NULL);
		printf("# %s: %.3f of the cores\n", cases[i].what, u);
		CHECK(u >= 0.95);
	}
}
