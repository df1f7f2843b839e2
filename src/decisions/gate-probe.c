/* SPDX-License-Identifier: MIT */
/*
 * gate-probe.c: the probe sweep behind `gate --probe`. A test that only
 * added a clock or rng read is suspect but unproven; this sweeps it at every
 * (cpu, load) pair and turns a failure into needs-freeze. The sweep is the
 * ordinary engine with the TAP driver, on its own loop; pytest prints TAP
 * through flakesweep's plugin.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "decisions/gate-probe.h"
#include "engine/out-line.h"
#include "engine/proc.h"
#include "engine/sweep.h"
#include "base/datadir.h"
#include "base/util.h"

extern char **environ;

/* A Python that can import pytest (caller frees), or NULL. */
static char *
gate_probe_python(void)
{
	const char *cands[] = {getenv("FLAKESWEEP_PYTHON"), "python3", "/usr/bin/python3"};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(cands); i++) {
		char *argv[] = {(char *)cands[i], "-c", "import pytest", NULL};
		char *out = NULL;
		int rc;

		if (cands[i] == NULL || *cands[i] == '\0')
			continue;
		rc = proc_capture(argv, NULL, environ, 4096, &out);
		free(out);
		if (rc == 0)
			return xstrdup(cands[i]);
	}
	return NULL;
}

/* Puts the plugin's directory first on PYTHONPATH, for the runs. */
static void
gate_probe_pythonpath(void)
{
	const char *old = getenv("PYTHONPATH");
	char *dir = datadir_find("flakesweep_ledger.py"), *v;

	v = old != NULL && *old != '\0' ? xasprintf("%s:%s", dir, old) : xstrdup(dir);
	setenv("PYTHONPATH", v, 1);
	free(v);
	free(dir);
}

/* Promotes each probe row whose test failed or hung in the sweep. */
static void
gate_probe_judge(struct gate_result *r, const struct results *res)
{
	size_t i, j;

	for (i = 0; i < r->nrows; i++) {
		struct gate_row *row = &r->rows[i];
		int64_t runs = 0, bad = 0;

		if (row->verdict != GATE_PROBE)
			continue;
		for (j = 0; j < res->ntests; j++) {
			int64_t n, f, h;

			if (strcmp(res->tests[j].test, row->test) != 0)
				continue;
			results_test_totals(&res->tests[j], &n, &f, &h);
			runs += n;
			bad += f + h;
		}
		if (bad > 0) {
			char *reason = xasprintf(_("%s; failed %lld of %lld probe runs"),
			                         row->reason, (long long)bad, (long long)runs);

			free(row->reason);
			row->reason = reason;
			row->verdict = GATE_NEEDS_FREEZE;
			r->counts[GATE_PROBE]--;
			r->counts[GATE_NEEDS_FREEZE]++;
		}
	}
}

int
gate_probe(struct gate_result *r, const struct gate_probe_options *po, char **err)
{
	struct options o;
	struct out_line *ol = NULL;
	struct sweep *s = NULL;
	uv_loop_t loop;
	char *py = NULL, *cwd = getcwd(NULL, 0), tmpl[4096];
	size_t i, n = 0;
	int rc = -1;

	*err = NULL;
	options_init(&o);
	for (i = 0; i < r->nrows; i++) {
		if (r->rows[i].verdict == GATE_PROBE) {
			if (n == 0) {
				py = gate_probe_python();
				if (py == NULL) {
					*err = xstrdup(
					    _("gate --probe needs a python3 that can import "
					      "pytest (set FLAKESWEEP_PYTHON)"));
					goto out;
				}
				util_strv_add(&o.command, &n, py);
				util_strv_add(&o.command, &n, "-m");
				util_strv_add(&o.command, &n, "pytest");
				util_strv_add(&o.command, &n, "-p");
				util_strv_add(&o.command, &n, "flakesweep_ledger");
				util_strv_add(&o.command, &n, "-p");
				util_strv_add(&o.command, &n, "no:terminal");
				util_strv_add(&o.command, &n, "-p");
				util_strv_add(&o.command, &n, "no:cacheprovider");
				util_strv_add(&o.command, &n, "--flakesweep-tap");
			}
			util_strv_add(&o.command, &n, r->rows[i].test);
		}
	}
	if (n == 0) {
		rc = 0;
		goto out;
	}
	o.ncommand = (int)n;
	free(o.driver);
	o.driver = xstrdup("tap");
	o.count = po->count;
	o.confirm = 0;
	o.ui = OPTIONS_UI_NONE;
	if (po->outdir != NULL) {
		o.outdir = xstrdup(po->outdir);
	} else {
		const char *t = getenv("TMPDIR");

		snprintf(tmpl, sizeof tmpl, "%s/flakesweep-probe.XXXXXX", t != NULL ? t : "/tmp");
		if (mkdtemp(tmpl) == NULL) {
			*err = xasprintf("%s: %s", tmpl, strerror(errno));
			goto out;
		}
		o.outdir = xasprintf("%s/sweep", tmpl);
	}
	if (po->dir != NULL && chdir(po->dir) < 0) {
		*err = xasprintf("%s: %s", po->dir, strerror(errno));
		goto out;
	}
	gate_probe_pythonpath();
	uv_loop_init(&loop);
	ol = out_line_new(&loop, stderr, po->progress, 5000);
	s = sweep_new(&loop, &o, out_line_observer(ol), err);
	if (s == NULL) {
		out_line_observer(ol)->finished(ol);
	} else {
		out_line_attach(ol, s);
		if (sweep_start(s, err) == 0) {
			free(*err);
			*err = NULL;
		}
	}
	uv_run(&loop, UV_RUN_DEFAULT);
	if (s != NULL && *err == NULL) {
		int status = sweep_exit_status(s);

		if (status == 0 || status == 1) {
			gate_probe_judge(r, sweep_results(s));
			fprintf(stderr, _("flakesweep: probe sweep in %s\n"), sweep_outdir(s));
			rc = 0;
		} else {
			*err = xasprintf(_("the probe sweep in %s did not finish (exit %d)"),
			                 sweep_outdir(s), status);
		}
	}
	sweep_free(s);
	out_line_free(ol);
	uv_loop_close(&loop);
out:
	if (cwd != NULL && chdir(cwd) < 0 && *err == NULL)
		*err = xasprintf("%s: %s", cwd, strerror(errno));
	free(cwd);
	free(py);
	options_free(&o);
	return rc;
}
