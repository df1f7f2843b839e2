/* SPDX-License-Identifier: MIT */
/*
 * options.c: the sweep's settings and the one setter that checks each
 * value's syntax, for the command line and anyone else who fills struct
 * options. It knows nothing about argv, the machine or the project.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/driver.h"
#include "engine/adaptive.h"
#include "engine/budget.h"
#include "engine/options.h"
#include "results/options-check.h"
#include "engine/lease.h"
#include "engine/shard.h"
#include "base/timefmt.h"
#include "base/util.h"

void
options_init(struct options *o)
{
	memset(o, 0, sizeof *o);
	o->loads = xmalloc(2 * sizeof *o->loads);
	o->loads[0] = 1;
	o->loads[1] = 2;
	o->nloads = 2;
	o->count = 500;
	o->confirm = 1000;
	o->count_min = ADAPTIVE_COUNT_MIN;
	o->timeout_ms = 120000;
	o->kill_grace_ms = 30000;
	o->keep = -1;
	o->containers = OPTIONS_CONTAINERS_DEFAULT;
	o->clusters = OPTIONS_CLUSTERS_DEFAULT;
	o->race = true;
	o->canaries = OPTIONS_CANARIES_DEFAULT;
	o->driver = xstrdup("go");
	o->tap_select = xstrdup("arg");
	o->pytest_unit = xstrdup("file");
	o->cpu_shim = true;
	o->tz = xstrdup(OPTIONS_TZ_DEFAULT);
	o->locale = xstrdup(OPTIONS_LOCALE_DEFAULT);
	o->lease_ttl_ms = 10 * 60 * 1000;
}

void
options_free(struct options *o)
{
	free(o->cpus);
	free(o->loads);
	util_strv_free_n(o->tags, o->ntags);
	free(o->build_tags);
	free(o->env_up);
	free(o->env_down);
	free(o->run_re);
	free(o->skip_re);
	free(o->outdir);
	free(o->resume);
	free(o->until);
	free(o->quarantine);
	free(o->durations);
	free(o->junit);
	free(o->driver);
	free(o->tap_select);
	free(o->pytest_unit);
	free(o->cpu_shim_path);
	free(o->dir);
	free(o->tz);
	free(o->locale);
	util_strv_free_n(o->exclusive, o->nexclusive);
	free(o->lease_dir);
	util_strv_free_n(o->packages, o->npackages);
	util_strv_free_n(o->command, o->ncommand);
	util_strv_free_n(o->scrub_env, o->nscrub_env);
	util_strv_free_n(o->mask_env, o->nmask_env);
	memset(o, 0, sizeof *o);
}

static int
options_parse_count(const char *value, int *out, int min, const char **expected)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (errno != 0 || *end != '\0' || end == value)
		*expected = options_check_count((long long)min - 1, min);
	else
		*expected = options_check_count(v, min);
	if (*expected != NULL)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* --quiet: "N%" or "N", 1 to 99. */
static int
options_parse_quiet(const char *value, int *out, const char **expected)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(value, &end, 10);
	if (*end == '%')
		end++;
	if (errno != 0 || *end != '\0' || end == value || v < 1)
		*expected = options_check_quiet(-1);
	else
		*expected = options_check_quiet(v);
	if (*expected != NULL)
		return -EINVAL;
	*out = (int)v;
	return 0;
}

/* --canaries: "N%" or "N", a decimal from 0 to 100. */
static int
options_parse_canaries(const char *value, double *out, const char **expected)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (*end == '%')
		end++;
	*expected = errno != 0 || *end != '\0' || end == value ? options_check_canaries(-1)
	                                                       : options_check_canaries(v);
	if (*expected != NULL)
		return -EINVAL;
	*out = v;
	return 0;
}

static int
options_parse_list(const char *value, int **out, int *n, const char **expected)
{
	int *v, nv;

	if (util_parse_int_list(value, &v, &nv) < 0) {
		*expected = _("a comma-separated list of positive numbers");
		return -EINVAL;
	}
	*expected = options_check_list(v, nv);
	if (*expected != NULL) {
		free(v);
		return -EINVAL;
	}
	free(*out);
	*out = v;
	*n = nv;
	return 0;
}

static int
options_parse_duration(const char *value, int64_t *out, const char **expected)
{
	if (timefmt_parse_duration(value, out) < 0) {
		*expected = _("a duration such as 90s, 2m or 1h30m");
		return -EINVAL;
	}
	return 0;
}

static void
options_set_str(char **dst, const char *v)
{
	free(*dst);
	*dst = xstrdup(v);
}

static void
options_split_tags(struct options *o, const char *value)
{
	char *copy = xstrdup(value), *save = NULL, *tok;

	util_strv_free_n(o->tags, o->ntags);
	o->tags = NULL;
	o->ntags = 0;
	for (tok = strtok_r(copy, ",", &save); tok != NULL; tok = strtok_r(NULL, ",", &save)) {
		o->tags = xrealloc(o->tags, sizeof *o->tags * (size_t)(o->ntags + 1));
		o->tags[o->ntags++] = xstrdup(tok);
	}
	free(copy);
}

/* Sets *dst to value when check (what a rule said of it) is NULL. */
static int
options_set_checked(char **dst, const char *value, const char *check, const char **expected)
{
	*expected = check;
	if (check != NULL)
		return -EINVAL;
	options_set_str(dst, value);
	return 0;
}

/* A command for sh -c: one with nothing but blanks would do nothing. */
static const char *
options_check_shell(const char *value)
{
	return value[strspn(value, " \t\n")] == '\0' ? _("a shell command") : NULL;
}

/* A name the environment can hold: letters, digits and underscores, not
 * starting with a digit (POSIX's portable names). */
static const char *
options_check_env_name(const char *value)
{
	static const char name[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_0123456789";

	if (value[0] == '\0' || (value[0] >= '0' && value[0] <= '9') ||
	    value[strspn(value, name)] != '\0')
		return _("a variable name (letters, digits and _, not starting with a digit)");
	return NULL;
}

/* The choices of an option with a fixed set of values. */
static int
options_pick(const char *value, const char *const *choices, const char *expected, int *out,
             const char **why)
{
	int i;

	for (i = 0; choices[i] != NULL; i++) {
		if (strcmp(value, choices[i]) == 0) {
			*out = i;
			return 0;
		}
	}
	*why = expected;
	return -EINVAL;
}

int
options_set(struct options *o, enum options_key key, const char *value, const char **expected)
{
	static const char *const uis[] = {"full", "line", "none", NULL};
	int rc = 0, pick;
	int64_t ms;

	switch (key) {
	case OPTIONS_CPU:
		o->given |= OPTIONS_GIVEN_CPU;
		return options_parse_list(value, &o->cpus, &o->ncpus, expected);
	case OPTIONS_LOAD:
		o->given |= OPTIONS_GIVEN_LOAD;
		rc = options_parse_list(value, &o->loads, &o->nloads, expected);
		if (rc == 0 && (*expected = options_check_loads(o->loads, o->nloads)) != NULL)
			rc = -EINVAL;
		return rc;
	case OPTIONS_COUNT:
		o->given |= OPTIONS_GIVEN_COUNT;
		return options_parse_count(value, &o->count, 1, expected);
	case OPTIONS_CONFIRM:
		o->given |= OPTIONS_GIVEN_CONFIRM;
		return options_parse_count(value, &o->confirm, 0, expected);
	case OPTIONS_TIMEOUT:
		o->given |= OPTIONS_GIVEN_TIMEOUT;
		rc = options_parse_duration(value, &o->timeout_ms, expected);
		if (rc == 0 && (*expected = options_check_timeout(NULL, o->timeout_ms)) != NULL)
			rc = -EINVAL;
		return rc;
	case OPTIONS_KILL_GRACE:
		return options_parse_duration(value, &o->kill_grace_ms, expected);
	case OPTIONS_KEEP:
		o->given |= OPTIONS_GIVEN_KEEP;
		return options_parse_count(value, &o->keep, 0, expected);
	case OPTIONS_CONTAINERS:
		return options_parse_count(value, &o->containers, 1, expected);
	case OPTIONS_CLUSTERS:
		return options_parse_count(value, &o->clusters, 1, expected);
	case OPTIONS_ENV_UP:
		return options_set_checked(&o->env_up, value, options_check_shell(value), expected);
	case OPTIONS_ENV_DOWN:
		return options_set_checked(&o->env_down, value, options_check_shell(value),
		                           expected);
	case OPTIONS_BUILD_TAGS:
		o->given |= OPTIONS_GIVEN_TAGS;
		options_set_str(&o->build_tags, value);
		return 0;
	case OPTIONS_TAGS:
		o->given |= OPTIONS_GIVEN_TAGS;
		options_split_tags(o, value);
		return 0;
	case OPTIONS_SHUFFLE:
		o->given |= OPTIONS_GIVEN_SHUFFLE;
		o->shuffle = true;
		return 0;
	case OPTIONS_RUN:
		o->given |= OPTIONS_GIVEN_RUN;
		options_set_str(&o->run_re, value);
		return 0;
	case OPTIONS_SKIP:
		o->given |= OPTIONS_GIVEN_SKIP;
		options_set_str(&o->skip_re, value);
		return 0;
	case OPTIONS_ISOLATE_NET:
		o->isolate_net = true;
		return 0;
	case OPTIONS_PRIVATE_WORKDIR:
		o->private_workdir = true;
		return 0;
	case OPTIONS_QUIET:
		return options_parse_quiet(value, &o->quiet, expected);
	case OPTIONS_CANARIES:
		o->given |= OPTIONS_GIVEN_CANARIES;
		return options_parse_canaries(value, &o->canaries, expected);
	case OPTIONS_NO_RACE:
		o->given |= OPTIONS_GIVEN_RACE;
		o->race = false;
		return 0;
	case OPTIONS_COVER:
		o->given |= OPTIONS_GIVEN_RACE;
		o->cover = true;
		return 0;
	case OPTIONS_OUTDIR:
		options_set_str(&o->outdir, value);
		return 0;
	case OPTIONS_RESUME:
		options_set_str(&o->resume, value);
		return 0;
	case OPTIONS_FORCE:
		o->force = true;
		return 0;
	case OPTIONS_QUARANTINE:
		options_set_str(&o->quarantine, value);
		return 0;
	case OPTIONS_UI:
		rc = options_pick(value, uis, "full, line or none", &pick, expected);
		if (rc == 0)
			o->ui = (enum options_ui)(OPTIONS_UI_FULL + pick);
		return rc;
	case OPTIONS_JSON:
		o->json = true;
		return 0;
	case OPTIONS_JUNIT:
		options_set_str(&o->junit, value);
		return 0;
	case OPTIONS_DRIVER:
		o->given |= OPTIONS_GIVEN_DRIVER;
		return options_set_checked(&o->driver, value, options_check_driver(value),
		                           expected);
	case OPTIONS_TAP_SELECT:
		return options_set_checked(&o->tap_select, value, options_check_tap_select(value),
		                           expected);
	case OPTIONS_PYTEST_UNIT:
		return options_set_checked(&o->pytest_unit, value, options_check_pytest_unit(value),
		                           expected);
	case OPTIONS_NO_CPU_SHIM:
		o->cpu_shim = false;
		return 0;
	case OPTIONS_SHARD:
		o->given |= OPTIONS_GIVEN_SHARD;
		*expected = shard_parse(value, &o->shard_index, &o->shard_count);
		return *expected != NULL ? -EINVAL : 0;
	case OPTIONS_DURATIONS:
		options_set_str(&o->durations, value);
		return 0;
	case OPTIONS_FOR:
		if (timefmt_parse_duration(value, &ms) < 0 || ms <= 0) {
			*expected = _("a duration above zero, such as 90m or 8h");
			return -EINVAL;
		}
		o->for_ms = ms;
		return 0;
	case OPTIONS_UNTIL:
		rc = budget_parse_until(value, util_now_ms(), &ms, &o->until_tomorrow);
		if (rc < 0) {
			*expected = rc == -ERANGE ? _("a time still to come")
			                          : _("a time such as 07:00, or a date and time "
			                              "such as 2026-12-05T07:00:00Z");
			return -EINVAL;
		}
		options_set_str(&o->until, value);
		o->until_ms = ms;
		return 0;
	case OPTIONS_ADAPTIVE:
		o->adaptive = true;
		return 0;
	case OPTIONS_COUNT_MIN:
		return options_parse_count(value, &o->count_min, 1, expected);
	case OPTIONS_SHARD_PLAN:
		o->shard_plan = true;
		return 0;
	case OPTIONS_TZ:
		o->given |= OPTIONS_GIVEN_ZONE;
		return options_set_checked(&o->tz, value, options_check_tz(value), expected);
	case OPTIONS_LOCALE:
		o->given |= OPTIONS_GIVEN_ZONE;
		return options_set_checked(&o->locale, value, options_check_locale(value),
		                           expected);
	case OPTIONS_EXCLUSIVE:
		o->given |= OPTIONS_GIVEN_EXCLUSIVE;
		if ((*expected = options_check_exclusive(o->exclusive, o->nexclusive, value)) !=
		    NULL)
			return -EINVAL;
		o->exclusive =
		    xrealloc(o->exclusive, sizeof *o->exclusive * (size_t)(o->nexclusive + 1));
		o->exclusive[o->nexclusive++] = xstrdup(value);
		return 0;
	case OPTIONS_LEASE_DIR:
		return options_set_checked(&o->lease_dir, value, lease_check_dir(value), expected);
	case OPTIONS_LEASE_TTL:
		return options_parse_duration(value, &o->lease_ttl_ms, expected);
	case OPTIONS_SCRUB_ENV:
		if ((*expected = options_check_env_name(value)) != NULL)
			return -EINVAL;
		options_add_scrub_env(o, value);
		return 0;
	case OPTIONS_MASK_ENV:
		if ((*expected = options_check_env_name(value)) != NULL)
			return -EINVAL;
		options_add_mask_env(o, value);
		return 0;
	}
	return -EINVAL;
}

/* Appends name to the names *v (*n of them) unless it is there. */
static void
options_add_name(char ***v, int *n, const char *name)
{
	int i;

	for (i = 0; i < *n; i++) {
		if (strcmp((*v)[i], name) == 0)
			return;
	}
	*v = xrealloc(*v, sizeof **v * (size_t)(*n + 1));
	(*v)[(*n)++] = xstrdup(name);
}

void
options_add_mask_env(struct options *o, const char *name)
{
	options_add_name(&o->mask_env, &o->nmask_env, name);
}

void
options_add_scrub_env(struct options *o, const char *name)
{
	options_add_name(&o->scrub_env, &o->nscrub_env, name);
}

void
options_add_package(struct options *o, const char *pattern)
{
	o->packages = xrealloc(o->packages, sizeof *o->packages * (size_t)(o->npackages + 1));
	o->packages[o->npackages++] = xstrdup(pattern);
	o->given |= OPTIONS_GIVEN_PACKAGES;
}

void
options_add_command_arg(struct options *o, const char *arg)
{
	o->command = xrealloc(o->command, sizeof *o->command * (size_t)(o->ncommand + 2));
	o->command[o->ncommand++] = xstrdup(arg);
	o->command[o->ncommand] = NULL;
	o->given |= OPTIONS_GIVEN_PACKAGES;
}
