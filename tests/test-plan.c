/* SPDX-License-Identifier: MIT */
/* test-plan.c: the pairs and targets of the sweep and confirm phases. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/plan.h"
#include "base/util.h"

static const int test_plan_cpus[] = {1, 2}, test_plan_loads[] = {1, 2, 4};

static void
test_plan_grid(struct plan_grid *g, bool run)
{
	memset(g, 0, sizeof *g);
	g->cpus = test_plan_cpus;
	g->ncpus = 2;
	g->loads = test_plan_loads;
	g->nloads = 3;
	g->count = 10;
	g->confirm = 4;
	g->run = run;
}

struct test_plan_added {
	int calls, fresh;
	int64_t extra;
};

static void
test_plan_added(void *arg, struct plan_pair *p, int extra)
{
	struct test_plan_added *a = arg;

	a->calls++;
	a->fresh += p->target == extra;
	a->extra += extra;
}

TEST(plan_sweep_and_confirm_targets)
{
	struct pkg ok = {.name = "a", .level = "unit", .build_ok = true};
	struct pkg empty = {.name = "b", .level = "unit", .build_ok = true, .empty = true};
	struct pkg broken = {.name = "c", .level = "unit"};
	struct pkg *pkgs[] = {&ok, &empty, &broken};
	struct test_plan_added a = {0, 0, 0};
	struct results *r = results_new();
	struct results_test *t;
	struct plan_grid g;
	struct plan p;
	char *asked[] = {"a::TestB", "a::TestGone"};
	int counts[] = {3, 9};
	int64_t done, target;

	/* Only the package that built with tests: 2 cpus x 3 loads x 10. */
	test_plan_grid(&g, false);
	plan_init(&p, &g);
	plan_sweep(&p, pkgs, 3, test_plan_added, &a);
	CHECK_INT(p.npairs, 6);
	CHECK_INT(a.calls, 6);
	CHECK_INT(a.fresh, 6);
	CHECK_INT(p.pairs[0]->phase, RESULTS_SWEEP);
	plan_count_run(&p, RESULTS_SWEEP, 0, NULL, 2, 4, 50);
	p.pairs[0]->runs = 12; /* more than planned counts as planned */
	plan_progress(&p, &done, &target);
	CHECK_INT(target, 60);
	CHECK_INT(done, 11);
	plan_free(&p);

	/* Confirm: TestA failed in the sweep (4 runs a pair), TestB only in a
	 * confirm run but asked for on demand (3), TestGone is unknown. */
	results_add_pkg(r, "a", "unit");
	t = results_add_test(r, 0, "a::TestA", "TestA");
	t->first = xcalloc(1, sizeof *t->first);
	t->first->phase = RESULTS_SWEEP;
	t = results_add_test(r, 0, "a::TestB", "TestB");
	t->first = xcalloc(1, sizeof *t->first);
	t->first->phase = RESULTS_CONFIRM;
	memset(&a, 0, sizeof a);
	plan_init(&p, &g);
	plan_confirm(&p, r, pkgs, asked, counts, 2, test_plan_added, &a);
	CHECK_INT(p.npairs, 12);
	plan_progress(&p, &done, &target);
	CHECK_INT(target, 6 * 4 + 6 * 3);
	CHECK_INT(a.extra, 42);
	/* Asked again: the same pairs, more runs. */
	plan_confirm_test(&p, results_find(r, "a::TestA"), "unit", RESULTS_CONFIRM, 5,
	                  test_plan_added, &a);
	CHECK_INT(p.npairs, 12);
	CHECK_INT(a.fresh, 12);
	CHECK_INT(a.calls, 18);
	CHECK_INT(plan_find(&p, RESULTS_CONFIRM, 0, "TestA", 2, 4)->target, 9);
	plan_free(&p);

	/* --run: the package's runs are confirm runs; nothing confirmed after. */
	test_plan_grid(&g, true);
	plan_init(&p, &g);
	plan_sweep(&p, pkgs, 3, NULL, NULL);
	CHECK_INT(p.pairs[0]->phase, RESULTS_CONFIRM);
	CHECK(p.pairs[0]->test == NULL);
	plan_free(&p);
	plan_init(&p, &g);
	plan_confirm(&p, r, pkgs, NULL, NULL, 0, NULL, NULL);
	CHECK_INT(p.npairs, 0);
	plan_free(&p);
	results_free(r);
}

/* An environment level (functional) gets one pair: the widest cpu, a
 * whole lane, at load 1, in the sweep and in confirm. */
TEST(plan_environment_level_one_pair)
{
	struct pkg fn = {.name = "w", .level = "functional", .build_ok = true};
	struct pkg *pkgs[] = {&fn};
	struct results *r = results_new();
	struct results_test *t;
	struct plan_grid g;
	struct plan p;

	test_plan_grid(&g, false);
	plan_init(&p, &g);
	plan_sweep(&p, pkgs, 1, NULL, NULL);
	CHECK_INT(p.npairs, 1);
	CHECK_INT(p.pairs[0]->cpu, 2);
	CHECK_INT(p.pairs[0]->load, 1);
	CHECK_INT(p.pairs[0]->target, 10);
	plan_free(&p);
	results_add_pkg(r, "w", "functional");
	t = results_add_test(r, 0, "w::TestF", "TestF");
	t->first = xcalloc(1, sizeof *t->first);
	t->first->phase = RESULTS_SWEEP;
	plan_init(&p, &g);
	plan_confirm(&p, r, pkgs, NULL, NULL, 0, NULL, NULL);
	CHECK_INT(p.npairs, 1);
	CHECK_INT(p.pairs[0]->cpu, 2);
	CHECK_INT(p.pairs[0]->load, 1);
	plan_free(&p);
	results_free(r);
}
