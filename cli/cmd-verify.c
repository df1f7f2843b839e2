/* SPDX-License-Identifier: MIT */
/*
 * cmd-verify.c: `flakesweep verify --test ID --results BEFORE [--budget N]
 * [-o DIR] [sweep options]`. It runs the test alone at its worst pair
 * before (verify.c picks it) until the sequential test decides
 * (sequential.c), then prints compare's verdict of BEFORE against the new
 * results.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "cmd.h"
#include "rates.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "engine/options.h"
#include "engine/sequential.h"
#include "results/compare.h"
#include "results/results.h"
#include "results/verify.h"

static int
cmd_verify(int argc, char **argv)
{
	struct rates_seq a;
	struct options o;
	struct results *before = NULL, *after = NULL;
	struct verify_plan vp;
	struct sequential_result r = {0};
	struct compare *c = NULL;
	char *err = NULL, *text, *ids[1];
	int rc;

	rc = rates_seq_parse(&a, &o, argc, argv);
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
	before = rates_load(a.results);
	if (before == NULL)
		goto out;
	if (verify_plan(before, a.test, &a.co, &vp, &err) < 0 ||
	    (rates_seq_package(&o, vp.package),
	     sequential_run(&o, vp.test->test, vp.cpu, vp.load, vp.p0, vp.p1, a.budget, &r, &err)) <
	        0) {
		sanitize_fprintf(stderr, "flakesweep: %s: %s\n", a.results, err);
		goto out;
	}
	printf(_("verify at cpu %d load %d: %lld runs, %lld failed; the sequential test %s "
	         "(rate %.4g not fixed against %.4g fixed; a fixed-count design needs %lld)\n"),
	       vp.cpu, vp.load, (long long)r.runs, (long long)r.failures,
	       r.state == STATS_SPRT_ACCEPT_P1   ? _("says fixed")
	       : r.state == STATS_SPRT_ACCEPT_P0 ? _("says not fixed")
	                                         : _("did not decide within the budget"),
	       vp.p0, vp.p1, (long long)vp.fixed_runs);
	if (r.exit_status == 130) {
		rc = 130;
		goto out;
	}
	after = rates_load(r.outdir);
	if (after == NULL)
		goto out;
	c = compare_new(before, after, &a.co);
	ids[0] = (char *)a.test;
	text = compare_to_text(c, ids, 1);
	fputs(text, stdout);
	free(text);
	sanitize_fprintf(stderr, _("flakesweep: results in %s\n"), r.outdir);
	/* The sequential test answers; compare's fixed-count verdict is shown
	 * beside it. */
	rc = r.state == STATS_SPRT_ACCEPT_P1 ? 0 : 1;
out:
	free(err);
	free(r.outdir);
	compare_free(c);
	results_free(before);
	results_free(after);
	options_free(&o);
	return rc;
}

const struct cmd_entry cmd_verify_entry = {"verify", cmd_verify};
