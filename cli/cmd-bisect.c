/* SPDX-License-Identifier: MIT */
/*
 * cmd-bisect.c: `flakesweep bisect --good REV --bad REV --test ID -o DIR
 * [--results FILE] [--budget N] [sweep options]`. bisect.c searches the
 * range, a worktree and a sequential test per probed commit; this file
 * picks the pair and the rates and prints what each probe found.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "rates.h"
#include "base/sanitize.h"
#include "base/util.h"
#include "engine/bisect.h"
#include "engine/options.h"
#include "results/results.h"
#include "results/verify.h"

static void
cmd_bisect_probed(void *arg, const struct bisect_commit *c)
{
	(void)arg;
	fprintf(stderr, _("flakesweep: %.12s %s after %lld runs, %lld failed%s\n"), c->sha,
	        bisect_state_name(c->state), (long long)c->runs, (long long)c->failures,
	        c->resumed ? _(" (from its journal)") : "");
}

static int
cmd_bisect(int argc, char **argv)
{
	struct rates_seq a;
	struct options o;
	struct results *before = NULL;
	struct bisect_config cfg = {0};
	struct bisect b = {0};
	struct verify_plan vp;
	char *err = NULL, *text, *cwd = NULL;
	int rc;

	rc = rates_seq_parse(&a, &o, argc, argv);
	if (rc != 0) {
		rc = rc == 1 ? 0 : 2;
		goto out;
	}
	rc = 2;
	if (a.test == NULL || a.good == NULL || a.bad == NULL || o.outdir == NULL) {
		fprintf(
		    stderr, "%s\n",
		    _("flakesweep: usage: flakesweep bisect --good REV --bad REV --test ID -o DIR "
		      "[--results FILE] [--budget N] [sweep options]"));
		goto out;
	}
	cfg.cpu = cfg.load = 1;
	cfg.p0 = 0.1;
	cfg.p1 = a.co.level > 0 ? a.co.level : cfg.p0 / 10;
	cfg.test = strstr(a.test, "::") != NULL ? strstr(a.test, "::") + 2 : a.test;
	if (a.results != NULL) {
		before = rates_load(a.results);
		if (before == NULL)
			goto out;
		if (verify_plan(before, a.test, &a.co, &vp, &err) < 0) {
			sanitize_fprintf(stderr, "flakesweep: %s: %s\n", a.results, err);
			goto out;
		}
		rates_seq_package(&o, vp.package);
		cfg.cpu = vp.cpu;
		cfg.load = vp.load;
		cfg.p0 = vp.p0;
		cfg.p1 = vp.p1;
		cfg.test = vp.test->test;
	}
	cwd = getcwd(NULL, 0);
	cfg.repo = cwd != NULL ? cwd : ".";
	cfg.good = a.good;
	cfg.bad = a.bad;
	cfg.outdir = o.outdir;
	cfg.budget = a.budget;
	cfg.sweep = &o;
	o.outdir = NULL;
	rc = bisect_run(&cfg, &b, cmd_bisect_probed, NULL, &err);
	if (rc < 0) {
		sanitize_fprintf(stderr, "flakesweep: %s\n", err);
		rc = rc == -EINTR ? 130 : 2;
		goto out;
	}
	text = bisect_to_text(&b);
	sanitize_write(stdout, text, strlen(text));
	free(text);
	rc = bisect_first_bad(&b) != NULL ? 0 : 1;
out:
	free(err);
	free(cwd);
	free((char *)cfg.outdir);
	bisect_free(&b);
	results_free(before);
	options_free(&o);
	return rc;
}

const struct cmd_entry cmd_bisect_entry = {"bisect", cmd_bisect};
