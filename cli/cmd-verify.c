/* SPDX-License-Identifier: MIT */
/*
 * cmd-verify.c: `flakesweep verify --test ID --results BEFORE [--budget N]
 * [-o DIR] [sweep options]`. It runs the test alone at each pair where it
 * failed before, worst first (verify.c lists them and splits the error
 * rates), each until its sequential test decides (sequential.c): not
 * fixed as soon as one pair says so, fixed when every pair says so. Then
 * it prints compare's verdict of BEFORE against the runs of every pair.
 * Results of another project (identity.h) are refused before any run.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "rates.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "drivers/project.h"
#include "engine/options.h"
#include "engine/outdir.h"
#include "engine/sequential.h"
#include "engine/sweep.h"
#include "results/compare-bandaids.h"
#include "results/compare.h"
#include "results/identity.h"
#include "results/junit.h"
#include "results/results.h"
#include "results/verify-json.h"
#include "results/verify.h"

/* The tests named when the runs did not run the test. */
#define CMD_VERIFY_RAN_SHOWN 3

/* Says that the runs at pair p, whose results are in outdir, did not run
 * the test, and which tests they ran instead. */
static void
cmd_verify_not_run(const struct verify_plan *vp, const struct verify_pair *p, const char *outdir)
{
	struct results *ran = rates_load(outdir);
	struct buf b;
	size_t i;

	buf_init(&b);
	for (i = 0; ran != NULL && i < ran->ntests && i < CMD_VERIFY_RAN_SHOWN; i++)
		buf_printf(&b, "%s%s", i > 0 ? ", " : "", ran->tests[i].id);
	if (ran != NULL && ran->ntests > CMD_VERIFY_RAN_SHOWN)
		buf_printf(&b, _(" and %zu more"), ran->ntests - CMD_VERIFY_RAN_SHOWN);
	if (b.len > 0)
		sanitize_fprintf(stderr,
		                 _("flakesweep: no run of %s at cpu %d load %d: the runs ran %s "
		                   "(results in %s)\n"),
		                 vp->test->id, p->cpu, p->load, b.data, outdir);
	else
		sanitize_fprintf(stderr,
		                 _("flakesweep: no run of %s at cpu %d load %d: the runs reported "
		                   "no test (results in %s)\n"),
		                 vp->test->id, p->cpu, p->load, outdir);
	buf_free(&b);
	results_free(ran);
}

/* Runs pair i of vp; its results are added to after and its runs,
 * failures and decision recorded in *rec. Returns the sequential test's state, or -1 after printing
 * an error (*rc set). */
static int
cmd_verify_pair(struct options *o, const char *base, int64_t budget, const struct verify_plan *vp,
                size_t i, struct results *after, struct verify_json_pair *rec, int *rc)
{
	const struct verify_pair *p = &vp->pairs[i];
	struct sequential_spec sp = {vp->test->test, p->cpu,   p->load, p->p0,      p->p1,
	                             vp->alpha,      vp->beta, budget,  vp->package};
	struct sequential_result r = {0};
	struct results *one = NULL;
	char *err = NULL;
	int state = -1;

	if (base != NULL) {
		free(o->outdir);
		o->outdir = vp->npairs > 1 ? xasprintf("%s/cpu-%d-load-%d", base, p->cpu, p->load)
		                           : xstrdup(base);
	}
	if (sequential_run(o, &sp, &r, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		*rc = 2;
		goto out;
	}
	if (r.exit_status != 130 && (r.lacks_test || r.runs == 0)) {
		cmd_verify_not_run(vp, p, r.outdir);
		*rc = 2;
		goto out;
	}
	printf(_("verify at cpu %d load %d: %lld runs, %lld failed; the sequential test %s "
	         "(rate %.4g not fixed against %.4g fixed; a fixed-count design needs %lld)\n"),
	       p->cpu, p->load, (long long)r.runs, (long long)r.failures,
	       r.state == STATS_SPRT_ACCEPT_P1   ? _("says fixed")
	       : r.state == STATS_SPRT_ACCEPT_P0 ? _("says not fixed")
	                                         : _("did not decide within the budget"),
	       p->p0, p->p1, (long long)p->fixed_runs);
	fflush(stdout);
	if (r.exit_status == 130) {
		*rc = 130;
		goto out;
	}
	one = rates_load(r.outdir);
	if (one == NULL) {
		*rc = 2;
		goto out;
	}
	results_absorb(after, one);
	sanitize_fprintf(stderr, _("flakesweep: results in %s\n"), r.outdir);
	state = (int)r.state;
	*rec = (struct verify_json_pair){p->cpu, p->load, r.runs, r.failures, state};
out:
	results_free(one);
	free(r.outdir);
	free(err);
	return state;
}

/* Warns when the checkout at dir differs from its commit: the runs then
 * measure the edit, while the results name the commit (and record it as
 * dirty: project.h). */
static void
cmd_verify_warn_dirty(const char *dir)
{
	struct project_git g;
	char *changed = NULL;

	if (project_git_find(dir, &g) < 0)
		return;
	if (g.commit != NULL && project_git_differs(&g, &changed) == 1)
		sanitize_fprintf(stderr,
		                 _("flakesweep: the tree differs from commit %.12s (%s changed): "
		                   "verify measures your uncommitted edit\n"),
		                 g.commit, changed);
	free(changed);
	project_git_free(&g);
}

/* Whether the results (recorded project `recorded`, read from path) are
 * of the project in dir (identity.h); says which two projects when not. */
static bool
cmd_verify_same_project(const char *path, const cJSON *recorded, const char *dir)
{
	struct project_git g;
	struct identity_diff d;
	cJSON *here = cJSON_CreateObject();
	char *root = realpath(dir, NULL), *text;
	bool same;

	if (project_git_find(dir, &g) == 0) {
		free(root);
		root = xstrdup(g.top);
		if (g.commit != NULL)
			cJSON_AddStringToObject(here, "commit", g.commit);
		if (g.origin != NULL)
			cJSON_AddStringToObject(here, "origin", g.origin);
		project_git_free(&g);
	}
	if (root != NULL)
		cJSON_AddStringToObject(here, "root", root);
	same = identity_same(recorded, here, &d);
	if (!same) {
		text = identity_diff_text(&d);
		sanitize_fprintf(stderr, _("flakesweep: %s is of another project than %s: %s\n"),
		                 path, root != NULL ? root : dir, text);
		free(text);
	}
	cJSON_Delete(here);
	free(root);
	return same;
}

/* Prints verify's own verdict, the last line: state is the sequential
 * tests' answer, decided at pair `at` after runs runs there (fixed is
 * decided at every pair), rc the exit status it gives. */
static void
cmd_verify_verdict(const struct verify_plan *vp, int state, size_t at, int64_t runs, int rc)
{
	const struct verify_pair *p = &vp->pairs[at];

	if (state == STATS_SPRT_ACCEPT_P1 && vp->npairs > 1)
		sanitize_fprintf(stdout, _("verify: %s fixed at all %zu pairs (exit %d)\n"),
		                 vp->test->id, vp->npairs, rc);
	else if (state == STATS_SPRT_ACCEPT_P1)
		sanitize_fprintf(stdout, _("verify: %s fixed at cpu %d load %d (exit %d)\n"),
		                 vp->test->id, p->cpu, p->load, rc);
	else if (state == STATS_SPRT_ACCEPT_P0)
		sanitize_fprintf(stdout, _("verify: %s not fixed at cpu %d load %d (exit %d)\n"),
		                 vp->test->id, p->cpu, p->load, rc);
	else
		sanitize_fprintf(stdout,
		                 _("verify: %s undecided at cpu %d load %d after %lld runs: the "
		                   "budget is spent (exit %d)\n"),
		                 vp->test->id, p->cpu, p->load, (long long)runs, rc);
}

/* Looks for the band-aids of the change from the commit of before's
 * results (project) to the checkout verify ran in, for the compare line. */
static void
cmd_verify_bandaids(struct compare *c, const cJSON *project, const struct options *o)
{
	cJSON *checkout = cJSON_CreateObject();
	char *err = NULL;

	cJSON_AddStringToObject(checkout, "driver", o->driver);
	if (compare_bandaids(c, project, checkout, o->dir != NULL ? o->dir : ".", &err) < 0) {
		sanitize_fprintf(stderr, _("flakesweep: no band-aids looked for: %s\n"), err);
		free(err);
	}
	cJSON_Delete(checkout);
}

/* -o DIR: DIR/verify.json, with the commit of the checkout and whether a
 * tracked file differed from it; verdict is NULL for the sequential
 * tests' own. */
static void
cmd_verify_record(const struct options *o, const char *test, const char *verdict, int state,
                  const struct verify_json_pair *pairs, size_t npairs, const struct compare_test *t)
{
	struct verify_json v = {test, verdict, NULL, false, pairs, npairs, t};
	struct project_git g;
	char *changed = NULL, *err = NULL;
	bool found = project_git_find(o->dir != NULL ? o->dir : ".", &g) == 0;

	if (v.verdict == NULL)
		v.verdict = verify_json_decision(state);
	if (found) {
		v.commit = g.commit;
		v.dirty = g.commit != NULL && project_git_differs(&g, &changed) != 0;
	}
	if (verify_json_write(o->outdir, &v, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		free(err);
	}
	free(changed);
	if (found)
		project_git_free(&g);
}

static void
cmd_verify_usage(FILE *f)
{
	fputs(
	    _("Usage: flakesweep verify --test ID --results BEFORE [--budget N] [-o DIR] "
	      "[sweep options]\n"
	      "Runs the test alone at each pair where it failed in BEFORE until Wald's test\n"
	      "decides it fixed or not there. It takes a sweep's options too (flakesweep --help);\n"
	      "see flakesweep(1), verify.\n"),
	    f);
}

static int
cmd_verify(int argc, char **argv)
{
	struct rates_seq a;
	struct options o;
	struct results *before = NULL, *after = results_new();
	struct verify_plan vp = {0};
	struct compare *c = NULL;
	const struct compare_test *t;
	char *err = NULL, *text, *ids[1], *base = NULL;
	const char *driver;
	cJSON *project = NULL;
	size_t i, at = 0;
	struct verify_json_pair *pairs = NULL;
	size_t npairs = 0;
	int64_t at_runs = 0;
	int rc, state = STATS_SPRT_ACCEPT_P1;
	bool masked;

	rc = rates_seq_parse(&a, &o, argc, argv, "verify", cmd_verify_usage);
	if (rc != 0) {
		rc = rc == 1 ? 0 : 2;
		goto out;
	}
	rc = 2;
	if (a.test == NULL || a.results == NULL) {
		fprintf(stderr, "%s\n",
		        _("flakesweep: usage: flakesweep verify --test ID --results BEFORE "
		          "[--budget N] [-o DIR] [sweep options]"));
		goto out;
	}
	before = rates_load_project(a.results, &project);
	if (before == NULL)
		goto out;
	driver = identity_member(project, "driver");
	/* Another driver names other tests: none of its runs could be the
	 * test's. */
	if (*driver != '\0' && strcmp(driver, o.driver) != 0) {
		sanitize_fprintf(
		    stderr, _("flakesweep: %s: the results are a %s sweep: give --driver %s%s\n"),
		    a.results, driver, driver,
		    options_check_command(driver, 0) != NULL ? " -- COMMAND" : "");
		goto out;
	}
	if (!cmd_verify_same_project(a.results, project, o.dir != NULL ? o.dir : "."))
		goto out;
	if (verify_plan(before, a.test, &a.co, &vp, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s: %s\n", a.results, err);
		goto out;
	}
	rates_seq_package(&o, vp.package);
	cmd_verify_warn_dirty(o.dir != NULL ? o.dir : ".");
	/* Several pairs' sweeps go under one directory: default ones made
	 * within the same second would collide; --junit reads that one. */
	base = o.outdir != NULL                   ? xstrdup(o.outdir)
	       : vp.npairs > 1 || o.junit != NULL ? outdir_default()
	                                          : NULL;
	pairs = xcalloc(vp.npairs, sizeof *pairs);
	/* Worst first: the first pair that says not fixed ends it; a pair
	 * left undecided cannot make it fixed, but a later one may still show
	 * it not fixed. */
	for (i = 0; i < vp.npairs && state != STATS_SPRT_ACCEPT_P0; i++) {
		int s = cmd_verify_pair(&o, base, a.budget, &vp, i, after, &pairs[i], &rc);

		if (s < 0)
			goto out;
		npairs++;
		/* The first undecided pair names the verdict unless a later one
		 * says not fixed. */
		if (s != STATS_SPRT_ACCEPT_P1 &&
		    (state == STATS_SPRT_ACCEPT_P1 || s == STATS_SPRT_ACCEPT_P0)) {
			state = s;
			at = i;
			at_runs = pairs[i].runs;
		}
	}
	c = compare_new(before, after, &a.co);
	cmd_verify_bandaids(c, project, &o);
	t = compare_find(c, a.test);
	/* A fix of band-aids only is masked (or skipped) whatever the
	 * sequential tests say, unless they say not fixed. */
	masked = t != NULL && t->verdict >= COMPARE_MASKED && state != STATS_SPRT_ACCEPT_P0;
	ids[0] = (char *)a.test;
	text = compare_to_text(c, ids, 1);
	fputs(text, stdout);
	free(text);
	/* The sequential tests answer; compare's fixed-count verdict is shown
	 * before theirs, which comes last. */
	rc = state == STATS_SPRT_ACCEPT_P1 && !masked ? 0 : 1;
	if (masked)
		sanitize_fprintf(stdout, _("verify: %s %s: its fix is band-aids only (exit %d)\n"),
		                 a.test, compare_verdict_name(t->verdict), rc);
	else
		cmd_verify_verdict(&vp, state, at, at_runs, rc);
	if (o.junit != NULL && junit_write(base, o.junit, &err) < 0) {
		sanitize_fprintf(stderr, "flakesweep: --junit: %s\n", err);
		rc = 2;
	}
	if (o.outdir != NULL)
		cmd_verify_record(&o, a.test, masked ? compare_verdict_name(t->verdict) : NULL,
		                  state, pairs, npairs, t);
out:
	free(pairs);
	free(err);
	cJSON_Delete(project);
	free(base);
	verify_plan_free(&vp);
	compare_free(c);
	results_free(before);
	results_free(after);
	options_free(&o);
	return rc;
}

const struct cmd_entry cmd_verify_entry = {"verify", cmd_verify};
