/* SPDX-License-Identifier: MIT */
/*
 * sweep-config.c: the settings a sweep records, from and back to its
 * options, and what a resumed sweep may change. The journal header they
 * go into is results/journal-header.c's.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/journal.h"
#include "decisions/quarantine.h"
#include "engine/shard.h"
#include "engine/sweep-config.h"
#include "base/timefmt.h"
#include "base/util.h"

/* ---- helpers ---- */

static char **
sweep_config_strv_dup(const char *const *v, int n)
{
	char **out = xcalloc((size_t)n + 1, sizeof *out);
	int i;

	for (i = 0; i < n; i++)
		out[i] = xstrdup(v[i]);
	return out;
}

static char *
sweep_config_dup(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static int *
sweep_config_ints_dup(const int *v, int n)
{
	int *out = xcalloc((size_t)n + 1, sizeof *out);

	if (n > 0)
		memcpy(out, v, sizeof *v * (size_t)n);
	return out;
}

/* ---- options ---- */

void
sweep_config_from_options(struct sweep_config *c, const struct options *o,
                          const char *const *levels, int nlevels, const char *quarantine)
{
	memset(c, 0, sizeof *c);
	c->cpus = sweep_config_ints_dup(o->cpus, o->ncpus);
	c->ncpus = o->ncpus;
	c->loads = sweep_config_ints_dup(o->loads, o->nloads);
	c->nloads = o->nloads;
	c->count = o->count;
	c->confirm = o->confirm;
	c->timeout_ms = o->timeout_ms;
	c->kill_grace_ms = o->kill_grace_ms;
	c->shuffle = o->shuffle;
	c->race = o->race;
	c->cover = o->cover;
	c->isolate_net = o->isolate_net;
	c->private_workdir = o->private_workdir;
	c->cpu_shim = o->cpu_shim;
	c->quiet = o->quiet;
	c->canaries = o->canaries;
	if (!(o->given & OPTIONS_GIVEN_COUNT)) {
		c->for_ms = o->for_ms;
		c->until_ms = o->until_ms;
		c->adaptive = o->adaptive;
		c->count_min = o->count_min;
	}
	c->containers = o->containers;
	c->clusters = o->clusters;
	c->env_up = sweep_config_dup(o->env_up);
	c->env_down = sweep_config_dup(o->env_down);
	c->run_re = sweep_config_dup(o->run_re);
	c->skip_re = sweep_config_dup(o->skip_re);
	c->levels = sweep_config_strv_dup(levels, nlevels);
	c->nlevels = nlevels;
	c->tags =
	    o->tags != NULL ? sweep_config_strv_dup((const char *const *)o->tags, o->ntags) : NULL;
	c->ntags = o->ntags;
	c->tap_select = xstrdup(o->tap_select != NULL ? o->tap_select : "arg");
	c->quarantine = sweep_config_dup(quarantine);
	c->build_tags = sweep_config_dup(o->build_tags);
	c->driver = xstrdup(o->driver);
	c->pytest_unit = strcmp(o->driver, "pytest") == 0 ? sweep_config_dup(o->pytest_unit) : NULL;
	c->packages = sweep_config_strv_dup((const char *const *)o->packages, o->npackages);
	c->npackages = o->npackages;
	c->command = sweep_config_strv_dup((const char *const *)o->command, o->ncommand);
	c->ncommand = o->ncommand;
	c->mask_env = sweep_config_strv_dup((const char *const *)o->mask_env, o->nmask_env);
	c->nmask_env = o->nmask_env;
	c->scrub_env = sweep_config_strv_dup((const char *const *)o->scrub_env, o->nscrub_env);
	c->nscrub_env = o->nscrub_env;
	c->shard_index = o->shard_index;
	c->shard_count = o->shard_count;
	c->tz = xstrdup(o->tz);
	c->locale = xstrdup(o->locale);
	c->exclusive = sweep_config_strv_dup((const char *const *)o->exclusive, o->nexclusive);
	c->nexclusive = o->nexclusive;
	c->lease_dir = sweep_config_dup(o->lease_dir);
	c->lease_ttl_ms = o->lease_ttl_ms;
	/* Runs that kept the caller's zone or locale: reproduce lines set it. */
	if (strcmp(o->tz, OPTIONS_INHERIT) == 0)
		sweep_config_keep_env(c, (const char *const[]){"TZ", NULL});
	if (strcmp(o->locale, OPTIONS_INHERIT) == 0)
		sweep_config_keep_env(c, (const char *const[]){"LC_ALL", NULL});
}

void
sweep_config_keep_env(struct sweep_config *c, const char *const *names)
{
	size_t i;

	for (i = 0; names != NULL && names[i] != NULL; i++) {
		const char *v = getenv(names[i]);

		if (v != NULL)
			sweep_config_add_env(c, names[i], v);
	}
}

static void
sweep_config_set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = sweep_config_dup(v);
}

void
sweep_config_to_options(const struct sweep_config *c, struct options *o)
{
	int i;

	free(o->cpus);
	o->cpus = sweep_config_ints_dup(c->cpus, c->ncpus);
	o->ncpus = c->ncpus;
	free(o->loads);
	o->loads = sweep_config_ints_dup(c->loads, c->nloads);
	o->nloads = c->nloads;
	o->count = c->count;
	o->confirm = c->confirm;
	o->timeout_ms = c->timeout_ms;
	o->kill_grace_ms = c->kill_grace_ms;
	o->shuffle = c->shuffle;
	o->race = c->race;
	o->cover = c->cover;
	o->isolate_net = c->isolate_net;
	o->private_workdir = c->private_workdir;
	/* The runs go on without the shim when they began without it. */
	o->cpu_shim = c->cpu_shim;
	if (!o->cpu_shim) {
		free(o->cpu_shim_path);
		o->cpu_shim_path = NULL;
	}
	o->for_ms = c->for_ms;
	o->until_ms = c->until_ms;
	o->adaptive = c->adaptive;
	if (c->adaptive)
		o->count_min = c->count_min;
	/* A --quiet given to --resume wins: it changes no measurement. */
	if (o->quiet == 0)
		o->quiet = c->quiet;
	o->canaries = c->canaries;
	o->containers = c->containers;
	o->clusters = c->clusters;
	sweep_config_set_str(&o->env_up, c->env_up);
	sweep_config_set_str(&o->env_down, c->env_down);
	sweep_config_set_str(&o->build_tags, c->build_tags);
	if (o->quarantine == NULL)
		o->quarantine = sweep_config_dup(c->quarantine);
	sweep_config_set_str(&o->run_re, c->run_re);
	sweep_config_set_str(&o->skip_re, c->skip_re);
	sweep_config_set_str(&o->driver, c->driver);
	sweep_config_set_str(&o->tap_select, c->tap_select != NULL ? c->tap_select : "arg");
	if (c->pytest_unit != NULL)
		sweep_config_set_str(&o->pytest_unit, c->pytest_unit);
	util_strv_free_n(o->tags, o->ntags);
	o->tags =
	    c->tags != NULL ? sweep_config_strv_dup((const char *const *)c->tags, c->ntags) : NULL;
	o->ntags = c->ntags;
	util_strv_free_n(o->packages, o->npackages);
	o->packages = sweep_config_strv_dup((const char *const *)c->packages, c->npackages);
	o->npackages = c->npackages;
	util_strv_free_n(o->command, o->ncommand);
	o->command = sweep_config_strv_dup((const char *const *)c->command, c->ncommand);
	o->ncommand = c->ncommand;
	/* The names given again are kept, with the recorded ones: masking
	 * more changes no measurement. */
	for (i = 0; i < c->nmask_env; i++)
		options_add_mask_env(o, c->mask_env[i]);
	for (i = 0; i < c->nscrub_env; i++)
		options_add_scrub_env(o, c->scrub_env[i]);
	o->shard_index = c->shard_index;
	o->shard_count = c->shard_count;
	sweep_config_set_str(&o->tz, c->tz);
	sweep_config_set_str(&o->locale, c->locale);
	util_strv_free_n(o->exclusive, o->nexclusive);
	o->exclusive = sweep_config_strv_dup((const char *const *)c->exclusive, c->nexclusive);
	o->nexclusive = c->nexclusive;
	/* A --lease-dir given to --resume wins, as a quarantine file does: the
	 * leases may have moved. */
	if (o->lease_dir == NULL) {
		o->lease_dir = sweep_config_dup(c->lease_dir);
		o->lease_ttl_ms = c->lease_ttl_ms;
	}
}

static bool
sweep_config_ints_equal(const int *a, int na, const int *b, int nb)
{
	return na == nb && (na == 0 || memcmp(a, b, sizeof *a * (size_t)na) == 0);
}

static bool
sweep_config_strv_equal(char *const *a, int na, char *const *b, int nb)
{
	int i;

	for (i = 0; na == nb && i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return na == nb;
}

char *
sweep_config_diff(const struct options *o, const struct sweep_config *c)
{
	struct buf b;

	buf_init(&b);
	if ((o->given & OPTIONS_GIVEN_COUNT) && o->count != c->count)
		buf_printf(&b, " --count");
	if ((o->given & OPTIONS_GIVEN_CONFIRM) && o->confirm != c->confirm)
		buf_printf(&b, " --confirm");
	if ((o->given & OPTIONS_GIVEN_TIMEOUT) && o->timeout_ms != c->timeout_ms)
		buf_printf(&b, " --timeout");
	if ((o->given & OPTIONS_GIVEN_CPU) &&
	    !sweep_config_ints_equal(o->cpus, o->ncpus, c->cpus, c->ncpus))
		buf_printf(&b, " --cpu");
	if ((o->given & OPTIONS_GIVEN_LOAD) &&
	    !sweep_config_ints_equal(o->loads, o->nloads, c->loads, c->nloads))
		buf_printf(&b, " --load");
	if ((o->given & OPTIONS_GIVEN_SHUFFLE) && o->shuffle != c->shuffle)
		buf_printf(&b, " --shuffle");
	if ((o->given & OPTIONS_GIVEN_RACE) && o->race != c->race)
		buf_printf(&b, " --no-race");
	if ((o->given & OPTIONS_GIVEN_RACE) && o->cover != c->cover)
		buf_printf(&b, " --cover");
	if ((o->given & OPTIONS_GIVEN_CANARIES) && o->canaries != c->canaries)
		buf_printf(&b, " --canaries");
	if (o->given & (OPTIONS_GIVEN_RUN | OPTIONS_GIVEN_SKIP | OPTIONS_GIVEN_TAGS |
	                OPTIONS_GIVEN_DRIVER | OPTIONS_GIVEN_PACKAGES | OPTIONS_GIVEN_KEEP))
		buf_printf(&b, " %s", _("(packages, --run, --skip, --tags, --keep or --driver)"));
	if ((o->given & OPTIONS_GIVEN_ZONE) && strcmp(o->tz, c->tz) != 0)
		buf_printf(&b, " --tz");
	if ((o->given & OPTIONS_GIVEN_ZONE) && strcmp(o->locale, c->locale) != 0)
		buf_printf(&b, " --locale");
	if ((o->given & OPTIONS_GIVEN_EXCLUSIVE) &&
	    !sweep_config_strv_equal(o->exclusive, o->nexclusive, c->exclusive, c->nexclusive))
		buf_printf(&b, " --exclusive");
	if ((o->given & OPTIONS_GIVEN_SHARD) &&
	    (o->shard_index != c->shard_index || o->shard_count != c->shard_count))
		buf_printf(&b, " --shard");
	if (b.len == 0) {
		buf_free(&b);
		return NULL;
	}
	return buf_steal(&b);
}

char *
sweep_config_cores_short(const struct journal_header *h, const char *outdir, int ncores)
{
	int i, width = 1, keep = h->machine.keep, need;
	char *why, *all;

	for (i = 0; i < h->config.ncpus; i++) {
		if (h->config.cpus[i] > width)
			width = h->config.cpus[i];
	}
	need = keep + width;
	if (need <= ncores)
		return NULL;
	why = xasprintf(_("%s was swept with --keep %d and runs up to --cpu %d, %d cores in all, "
	                  "and flakesweep may use %d here: resume it where it may use %d"),
	                outdir, keep, width, need, ncores, need);
	if (width > ncores)
		return why;
	all = xasprintf(_("%s, or keep fewer cores back with --keep %d --force"), why,
	                ncores - width);
	free(why);
	return all;
}
