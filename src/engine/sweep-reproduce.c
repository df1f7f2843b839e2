/* SPDX-License-Identifier: MIT */
/*
 * sweep-reproduce.c: the two commands that reproduce a test's failure at
 * a cell: a flakesweep line and a direct one (the driver's), each with the
 * environment, limits and cores the sweep ran with, so they run the same
 * in a fresh shell. It only reads the sweep.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/sanitize.h"
#include "base/timefmt.h"
#include "base/util.h"
#include "engine/sweep-int.h"

/* The ncpu cores a reproduce line pins to: the core on which the test
 * failed most first (a core-sensitive test passes elsewhere), then the
 * first lane's cores, as the sweep would. */
static void
sweep_reproduce_cores(const struct sweep_repro *s, const struct results_test *t, int ncpu,
                      int *cpus)
{
	int worst = results_worst_core(t), n = 0, i;

	if (worst >= 0)
		cpus[n++] = worst;
	for (i = 0; n < ncpu && s->cores != NULL && i < s->width; i++)
		if (s->cores[i] != worst)
			cpus[n++] = s->cores[i];
	for (i = 0; n < ncpu; i++)
		if (i != worst)
			cpus[n++] = i;
}

/* line with the environment the sweep ran with exported first, so it runs
 * the same in a fresh login shell. Takes ownership of line. */
static char *
sweep_reproduce_env(const struct sweep_config *config, char *line)
{
	struct buf b;
	int i;

	buf_init(&b);
	for (i = 0; i < config->nenv; i++) {
		char *q = sanitize_shell_quote(config->env_values[i]);

		buf_printf(&b, "%s%s=%s", b.len == 0 ? "export " : " ", config->env_names[i], q);
		free(q);
	}
	if (b.len == 0) {
		buf_free(&b);
		return line;
	}
	buf_printf(&b, " && %s", line);
	free(line);
	return buf_steal(&b);
}

/* A direct line ("cd DIR && COMMAND") run in its own network namespace
 * with only loopback up, as --isolate-net runs it. Takes ownership of
 * line. */
static char *
sweep_reproduce_netns(char *line, const char *dir)
{
	char *qdir = sanitize_shell_quote(dir), *cd = xasprintf("cd %s && ", qdir), *out, *q;

	free(qdir);
	if (strncmp(line, cd, strlen(cd)) != 0) {
		free(cd);
		return line;
	}
	q = sanitize_shell_quote(line + strlen(cd));
	out = xasprintf("%sunshare -rn sh -c 'ip link set lo up && eval \"$0\"' %s", cd, q);
	free(q);
	free(cd);
	free(line);
	return out;
}

void
sweep_repro_commands(const struct sweep_repro *s, const struct results_test *t,
                     const struct results_cell *c, char **flakesweep, char **direct)
{
	const struct pkg *pkg = t->pkg >= 0 && (size_t)t->pkg < s->npkgs ? s->pkgs[t->pkg] : NULL;
	bool order = results_order_dependent(t);
	/* As many runs as the phase that measured the test gave each pair. */
	int count = s->o->confirm > 0 && s->o->run_re == NULL ? s->o->confirm : s->o->count;
	int *cpus = xcalloc((size_t)c->cpu, sizeof *cpus);
	struct driver_run dr;
	char *qdir, *qpkg, *filter, *qfilter, *fs, *direct_line, limits[160], t1[32], t2[32];
	const struct sweep_config *config = s->config;
	const char *tap_select = config->tap_select;
	struct buf extra;

	sweep_reproduce_cores(s, t, c->cpu, cpus);
	qdir = sanitize_shell_quote(s->root != NULL ? s->root : ".");
	qpkg = pkg != NULL ? s->driver->package_args(pkg) : xstrdup("");
	timefmt_format_duration(s->o->timeout_ms, t1, sizeof t1);
	timefmt_format_duration(s->o->kill_grace_ms, t2, sizeof t2);
	snprintf(limits, sizeof limits, " --timeout %s --kill-grace %s%s", t1, t2,
	         s->o->race ? "" : " --no-race");
	/* What else the sweep ran with, so the line runs the same thing. */
	buf_init(&extra);
	buf_add(&extra, limits, strlen(limits));
	if (s->o->isolate_net)
		buf_adds(&extra, " --isolate-net");
	if (s->o->cover)
		buf_adds(&extra, " --cover");
	if (s->o->private_workdir)
		buf_adds(&extra, " --private-workdir");
	if (s->o->build_tags != NULL) {
		char *q = sanitize_shell_quote(s->o->build_tags);

		buf_printf(&extra, " --build-tags %s", q);
		free(q);
	}
	if (tap_select != NULL && strcmp(tap_select, "env") == 0)
		buf_adds(&extra, " --tap-select env");
	filter = s->driver->filter(t->test);
	qfilter = sanitize_shell_quote(filter);
	/* An order-dependent test passes alone: both commands replay the
	 * whole package in the failing order instead. */
	if (order)
		fs = xasprintf(
		    "cd %s && flakesweep stress --cpu %d --load %d --count %d --shuffle%s %s", qdir,
		    c->cpu, c->load, count, extra.data, qpkg);
	else
		fs = xasprintf("cd %s && flakesweep stress --cpu %d --load %d --count %d "
		               "--run %s%s %s",
		               qdir, c->cpu, c->load, count, qfilter, extra.data, qpkg);
	buf_free(&extra);
	memset(&dr, 0, sizeof dr);
	dr.cpu = c->cpu;
	dr.timeout_ms = s->o->timeout_ms;
	dr.test = order ? NULL : t->test;
	dr.seed = t->first != NULL ? t->first->seed : NULL;
	dr.select_env = tap_select != NULL && strcmp(tap_select, "env") == 0;
	direct_line = pkg != NULL ? s->driver->reproduce(pkg, &dr, cpus, count) : xstrdup("");
	if (pkg != NULL && s->o->isolate_net)
		direct_line = sweep_reproduce_netns(direct_line, pkg->dir);
	*flakesweep = sweep_reproduce_env(config, fs);
	*direct = sweep_reproduce_env(config, direct_line);
	free(filter);
	free(qfilter);
	free(qpkg);
	free(qdir);
	free(cpus);
}

void
sweep_reproduce(const struct sweep *s, const struct results_test *t, const struct results_cell *c,
                char **flakesweep, char **direct)
{
	struct sweep_repro rp;

	memset(&rp, 0, sizeof rp);
	rp.driver = s->driver;
	rp.o = s->o;
	rp.config = &s->hdr.config;
	rp.root = s->proj.root;
	if (s->lanes.nlanes > 0) {
		rp.cores = s->lanes.cores[0];
		rp.width = s->lanes.width;
	}
	rp.pkgs = s->pkgs;
	rp.npkgs = s->npkgs;
	sweep_repro_commands(&rp, t, c, flakesweep, direct);
}
