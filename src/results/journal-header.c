/* SPDX-License-Identifier: MIT */
/*
 * journal-header.c: the journal header both ways. Encoding writes the keys
 * in a fixed order; decoding refuses any value the command line would
 * refuse (the same options_check_* rules), naming the file, the line and
 * the field, so a damaged header stops --resume before it runs anything.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/journal.h"
#include "results/journal-header.h"
#include "results/options-check.h"
#include "decisions/quarantine.h"
#include "base/timefmt.h"
#include "base/util.h"

void
sweep_config_add_env(struct sweep_config *c, const char *name, const char *value)
{
	c->env_names = xrealloc(c->env_names, sizeof *c->env_names * (size_t)(c->nenv + 1));
	c->env_values = xrealloc(c->env_values, sizeof *c->env_values * (size_t)(c->nenv + 1));
	c->env_names[c->nenv] = xstrdup(name);
	c->env_values[c->nenv++] = xstrdup(value);
}

void
sweep_config_free(struct sweep_config *c)
{
	free(c->cpus);
	free(c->loads);
	free(c->run_re);
	free(c->skip_re);
	util_strv_free_n(c->levels, c->nlevels);
	util_strv_free_n(c->tags, c->ntags);
	free(c->tap_select);
	util_strv_free_n(c->env_names, c->nenv);
	util_strv_free_n(c->env_values, c->nenv);
	free(c->quarantine);
	free(c->build_tags);
	free(c->env_up);
	free(c->env_down);
	free(c->driver);
	free(c->pytest_unit);
	util_strv_free_n(c->packages, c->npackages);
	util_strv_free_n(c->command, c->ncommand);
	util_strv_free_n(c->mask_env, c->nmask_env);
	util_strv_free_n(c->scrub_env, c->nscrub_env);
	free(c->shard_buckets);
	free(c->shard_merged);
	levels_free(c->level_config);
	free(c->tz);
	free(c->locale);
	util_strv_free_n(c->exclusive, c->nexclusive);
	free(c->lease_dir);
	memset(c, 0, sizeof *c);
}

/* ---- encoding ---- */

static void
sweep_config_add_str(cJSON *o, const char *key, const char *v)
{
	if (v != NULL)
		cJSON_AddStringToObject(o, key, v);
	else
		cJSON_AddNullToObject(o, key);
}

static cJSON *
sweep_config_strv_json(char *const *v, int n)
{
	cJSON *a = cJSON_CreateArray();
	int i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateString(v[i]));
	return a;
}

static cJSON *
sweep_config_json(const struct sweep_config *c)
{
	cJSON *o = cJSON_CreateObject(), *env;
	int i;

	cJSON_AddItemToObject(o, "cpu", cJSON_CreateIntArray(c->cpus, c->ncpus));
	cJSON_AddItemToObject(o, "load", cJSON_CreateIntArray(c->loads, c->nloads));
	cJSON_AddNumberToObject(o, "count", c->count);
	cJSON_AddNumberToObject(o, "confirm", c->confirm);
	if (c->for_ms > 0)
		cJSON_AddNumberToObject(o, "for_s", (double)c->for_ms / 1000);
	if (c->until_ms > 0) {
		char when[40];

		timefmt_format_rfc3339(c->until_ms, when, sizeof when);
		cJSON_AddStringToObject(o, "until", when);
	}
	if (c->adaptive) {
		cJSON_AddBoolToObject(o, "adaptive", true);
		cJSON_AddNumberToObject(o, "count_min", c->count_min);
	}
	if (c->clipped_limits > 0)
		cJSON_AddNumberToObject(o, "clipped_limits", (double)c->clipped_limits);
	cJSON_AddNumberToObject(o, "timeout_ms", (double)c->timeout_ms);
	cJSON_AddNumberToObject(o, "kill_grace_ms", (double)c->kill_grace_ms);
	cJSON_AddBoolToObject(o, "shuffle", c->shuffle);
	sweep_config_add_str(o, "run", c->run_re);
	sweep_config_add_str(o, "skip", c->skip_re);
	cJSON_AddItemToObject(o, "levels", sweep_config_strv_json(c->levels, c->nlevels));
	if (c->tags != NULL)
		cJSON_AddItemToObject(o, "tags", sweep_config_strv_json(c->tags, c->ntags));
	else
		cJSON_AddNullToObject(o, "tags");
	cJSON_AddBoolToObject(o, "race", c->race);
	cJSON_AddBoolToObject(o, "isolate_net", c->isolate_net);
	if (c->cover)
		cJSON_AddTrueToObject(o, "cover");
	if (c->private_workdir)
		cJSON_AddTrueToObject(o, "private_workdir");
	if (!c->cpu_shim)
		cJSON_AddFalseToObject(o, "cpu_shim");
	if (c->quiet > 0)
		cJSON_AddNumberToObject(o, "quiet", c->quiet);
	if (c->canaries != OPTIONS_CANARIES_DEFAULT)
		cJSON_AddNumberToObject(o, "canaries", c->canaries);
	if (c->containers != OPTIONS_CONTAINERS_DEFAULT)
		cJSON_AddNumberToObject(o, "containers", c->containers);
	if (c->clusters != OPTIONS_CLUSTERS_DEFAULT)
		cJSON_AddNumberToObject(o, "clusters", c->clusters);
	if (c->env_up != NULL)
		cJSON_AddStringToObject(o, "env_up", c->env_up);
	if (c->env_down != NULL)
		cJSON_AddStringToObject(o, "env_down", c->env_down);
	cJSON_AddStringToObject(o, "tap_select", c->tap_select != NULL ? c->tap_select : "arg");
	env = cJSON_AddObjectToObject(o, "env");
	for (i = 0; i < c->nenv; i++)
		cJSON_AddStringToObject(env, c->env_names[i], c->env_values[i]);
	sweep_config_add_str(o, "quarantine", c->quarantine);
	sweep_config_add_str(o, "build_tags", c->build_tags);
	cJSON_AddStringToObject(o, "driver", c->driver);
	if (c->pytest_unit != NULL)
		cJSON_AddStringToObject(o, "pytest_unit", c->pytest_unit);
	cJSON_AddItemToObject(o, "packages", sweep_config_strv_json(c->packages, c->npackages));
	cJSON_AddItemToObject(o, "command", sweep_config_strv_json(c->command, c->ncommand));
	if (c->nmask_env > 0)
		cJSON_AddItemToObject(o, "mask_env",
		                      sweep_config_strv_json(c->mask_env, c->nmask_env));
	if (c->nscrub_env > 0)
		cJSON_AddItemToObject(o, "scrub_env",
		                      sweep_config_strv_json(c->scrub_env, c->nscrub_env));
	if (c->shard_count > 0) {
		cJSON *shard = cJSON_AddObjectToObject(o, "shard");

		cJSON_AddNumberToObject(shard, "index", c->shard_index);
		cJSON_AddNumberToObject(shard, "count", c->shard_count);
		cJSON_AddItemToObject(shard, "buckets",
		                      cJSON_CreateIntArray(c->shard_buckets, c->nshard_buckets));
		if (c->shard_merged != NULL)
			cJSON_AddItemToObject(
			    shard, "merged",
			    cJSON_CreateIntArray(c->shard_merged, c->nshard_merged));
	}
	if (c->level_config != NULL)
		cJSON_AddItemToObject(o, "level_config", levels_json(c->level_config));
	cJSON_AddStringToObject(o, "tz", c->tz != NULL ? c->tz : OPTIONS_INHERIT);
	cJSON_AddStringToObject(o, "locale", c->locale != NULL ? c->locale : OPTIONS_INHERIT);
	if (c->lease_dir != NULL) {
		cJSON_AddStringToObject(o, "lease_dir", c->lease_dir);
		cJSON_AddNumberToObject(o, "lease_ttl_ms", (double)c->lease_ttl_ms);
	}
	if (c->nexclusive > 0) {
		cJSON *x = cJSON_AddObjectToObject(o, "exclusive");

		for (i = 0; i < c->nexclusive; i++) {
			size_t k = strcspn(c->exclusive[i], "=");
			char *name = xstrndup(c->exclusive[i], k);

			cJSON_AddStringToObject(x, name, c->exclusive[i] + k + 1);
			free(name);
		}
	}
	return o;
}

cJSON *
journal_header_encode(const struct journal_header *h)
{
	cJSON *line = cJSON_CreateObject(), *m, *lanes, *p;
	char when[40];
	int i;

	cJSON_AddStringToObject(line, "type", "header");
	cJSON_AddStringToObject(line, "schema", JOURNAL_SCHEMA);
	timefmt_format_rfc3339(h->started_ms, when, sizeof when);
	cJSON_AddStringToObject(line, "started", when);
	if (h->simulated)
		cJSON_AddTrueToObject(line, "simulated");
	cJSON_AddItemToObject(line, "config", sweep_config_json(&h->config));
	m = cJSON_AddObjectToObject(line, "machine");
	if (h->machine.host != NULL)
		cJSON_AddStringToObject(m, "host", h->machine.host);
	cJSON_AddNumberToObject(m, "cores", h->machine.cores);
	cJSON_AddNumberToObject(m, "keep", h->machine.keep);
	lanes = cJSON_AddArrayToObject(m, "lanes");
	for (i = 0; i < h->machine.nlanes; i++)
		cJSON_AddItemToArray(lanes,
		                     cJSON_CreateIntArray(h->machine.lanes + i * h->machine.width,
		                                          h->machine.width));
	p = cJSON_AddObjectToObject(line, "project");
	cJSON_AddStringToObject(p, "driver", h->project.driver != NULL ? h->project.driver : "");
	sweep_config_add_str(p, "root", h->project.root);
	sweep_config_add_str(p, "commit", h->project.commit);
	sweep_config_add_str(p, "toolchain", h->project.toolchain);
	sweep_config_add_str(p, "origin", h->project.origin);
	if (h->project.dirty)
		cJSON_AddTrueToObject(p, "dirty");
	return line;
}

void
journal_header_parts(const cJSON *line, const cJSON **config, const cJSON **machine,
                     const cJSON **project)
{
	*config = cJSON_GetObjectItemCaseSensitive(line, "config");
	*machine = cJSON_GetObjectItemCaseSensitive(line, "machine");
	*project = cJSON_GetObjectItemCaseSensitive(line, "project");
}

/* ---- decoding ---- */

struct sweep_config_in {
	const char *path;
	int lineno;
	const char *section; /* "config", "machine" or "project" */
	char *err;
};

static int
sweep_config_bad(struct sweep_config_in *in, const char *key, const char *expected)
{
	if (in->err == NULL)
		in->err = xasprintf(_("%s:%d: %s%s%s: expected %s"), in->path, in->lineno,
		                    in->section != NULL ? in->section : "",
		                    in->section != NULL ? "." : "", key, expected);
	return -EINVAL;
}

/* A whole number in [min, max]; absent keeps *out. */
static int
sweep_config_num(struct sweep_config_in *in, const cJSON *o, const char *key, double min,
                 double max, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (v == NULL)
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble < min || v->valuedouble > max ||
	    v->valuedouble != floor(v->valuedouble))
		return sweep_config_bad(in, key, _("a whole number"));
	*out = v->valuedouble;
	return 0;
}

/* A count with the command line's rule. */
static int
sweep_config_count(struct sweep_config_in *in, const cJSON *o, const char *key, int min, int *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	const char *expected;

	if (!cJSON_IsNumber(v) || v->valuedouble != floor(v->valuedouble) ||
	    fabs(v->valuedouble) > 1e12)
		return sweep_config_bad(in, key, options_check_count((long long)min - 1, min));
	expected = options_check_count((long long)v->valuedouble, min);
	if (expected != NULL)
		return sweep_config_bad(in, key, expected);
	*out = (int)v->valuedouble;
	return 0;
}

static int
sweep_config_bool(struct sweep_config_in *in, const cJSON *o, const char *key, bool *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (v == NULL)
		return 0;
	if (!cJSON_IsBool(v))
		return sweep_config_bad(in, key, _("true or false"));
	*out = cJSON_IsTrue(v);
	return 0;
}

/* A string, or null when nullable; absent is NULL. */
static int
sweep_config_str(struct sweep_config_in *in, const cJSON *o, const char *key, bool nullable,
                 char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	free(*out);
	*out = NULL;
	if (v == NULL || (nullable && cJSON_IsNull(v)))
		return 0;
	if (!cJSON_IsString(v))
		return sweep_config_bad(in, key, nullable ? _("a string or null") : _("a string"));
	*out = xstrdup(v->valuestring);
	return 0;
}

/* An array of strings; null gives NULL when nullable, absent gives none. */
static int
sweep_config_strv(struct sweep_config_in *in, const cJSON *o, const char *key, bool nullable,
                  char ***out, int *n)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key), *x;
	int i = 0;

	*out = NULL;
	*n = 0;
	if (nullable && cJSON_IsNull(v))
		return 0;
	if (v != NULL && !cJSON_IsArray(v))
		return sweep_config_bad(in, key, _("an array of strings"));
	*out = xcalloc((size_t)cJSON_GetArraySize(v) + 1, sizeof **out);
	cJSON_ArrayForEach(x, v)
	{
		if (!cJSON_IsString(x))
			return sweep_config_bad(in, key, _("an array of strings"));
		(*out)[i++] = xstrdup(x->valuestring);
		*n = i;
	}
	return 0;
}

/* A list of cores or loads with the command line's rule. */
static int
sweep_config_list(struct sweep_config_in *in, const cJSON *o, const char *key, int **out, int *n)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key), *x;
	const char *list = _("a comma-separated list of positive numbers");
	int i = 0;

	if (!cJSON_IsArray(v))
		return sweep_config_bad(in, key, list);
	*out = xcalloc((size_t)cJSON_GetArraySize(v) + 1, sizeof **out);
	cJSON_ArrayForEach(x, v)
	{
		if (!cJSON_IsNumber(x) || x->valuedouble != floor(x->valuedouble) ||
		    x->valuedouble < 1 || x->valuedouble > 1 << 20)
			return sweep_config_bad(in, key, list);
		(*out)[i++] = (int)x->valuedouble;
		*n = i;
	}
	list = options_check_list(*out, *n);
	return list != NULL ? sweep_config_bad(in, key, list) : 0;
}

/* "env": an object of strings; absent is none. */
static int
sweep_config_env(struct sweep_config_in *in, const cJSON *o, struct sweep_config *c)
{
	const cJSON *env = cJSON_GetObjectItemCaseSensitive(o, "env"), *v;

	if (env == NULL)
		return 0;
	if (!cJSON_IsObject(env))
		return sweep_config_bad(in, "env", _("an object of strings"));
	cJSON_ArrayForEach(v, env)
	{
		if (!cJSON_IsString(v))
			return sweep_config_bad(in, "env", _("an object of strings"));
		sweep_config_add_env(c, v->string, v->valuestring);
	}
	return 0;
}

/* "shard": absent, or {index, count, buckets} with 1 <= index <= count
 * and each bucket a number below SHARD_BUCKETS, increasing. */
static int
sweep_config_shard(struct sweep_config_in *in, const cJSON *v, struct sweep_config *c)
{
	const char *expected =
	    _("an object {\"index\": I, \"count\": N, \"buckets\": [...]} with "
	      "1 <= I <= N <= 512, increasing buckets below 512 and, in a merge, "
	      "increasing \"merged\" shards from 1 to N");
	const cJSON *index, *count, *buckets, *merged, *x;
	int i = 0;

	if (v == NULL)
		return 0;
	index = cJSON_GetObjectItemCaseSensitive(v, "index");
	count = cJSON_GetObjectItemCaseSensitive(v, "count");
	buckets = cJSON_GetObjectItemCaseSensitive(v, "buckets");
	if (!cJSON_IsNumber(index) || !cJSON_IsNumber(count) || !cJSON_IsArray(buckets) ||
	    index->valuedouble != floor(index->valuedouble) || index->valuedouble < 1 ||
	    count->valuedouble != floor(count->valuedouble) ||
	    count->valuedouble < index->valuedouble || count->valuedouble > SHARD_BUCKETS ||
	    cJSON_GetArraySize(buckets) > SHARD_BUCKETS)
		return sweep_config_bad(in, "shard", expected);
	c->shard_index = (int)index->valuedouble;
	c->shard_count = (int)count->valuedouble;
	c->shard_buckets =
	    xcalloc((size_t)cJSON_GetArraySize(buckets) + 1, sizeof *c->shard_buckets);
	cJSON_ArrayForEach(x, buckets)
	{
		if (!cJSON_IsNumber(x) || x->valuedouble != floor(x->valuedouble) ||
		    x->valuedouble < (i > 0 ? c->shard_buckets[i - 1] + 1 : 0) ||
		    x->valuedouble >= SHARD_BUCKETS)
			return sweep_config_bad(in, "shard", expected);
		c->shard_buckets[i++] = (int)x->valuedouble;
		c->nshard_buckets = i;
	}
	merged = cJSON_GetObjectItemCaseSensitive(v, "merged");
	if (merged == NULL)
		return 0;
	if (!cJSON_IsArray(merged) || cJSON_GetArraySize(merged) > c->shard_count)
		return sweep_config_bad(in, "shard", expected);
	c->shard_merged = xcalloc((size_t)cJSON_GetArraySize(merged) + 1, sizeof *c->shard_merged);
	i = 0;
	cJSON_ArrayForEach(x, merged)
	{
		if (!cJSON_IsNumber(x) || x->valuedouble != floor(x->valuedouble) ||
		    x->valuedouble < (i > 0 ? c->shard_merged[i - 1] + 1 : 1) ||
		    x->valuedouble > c->shard_count)
			return sweep_config_bad(in, "shard", expected);
		c->shard_merged[i++] = (int)x->valuedouble;
		c->nshard_merged = i;
	}
	return 0;
}

/* "level_config": absent, or the levels file's "levels" as levels.c
 * reads it. */
static int
sweep_config_levels(struct sweep_config_in *in, const cJSON *v, struct sweep_config *c)
{
	struct levels_error e;
	char *key;
	int rc;

	if (v == NULL || levels_decode(v, &c->level_config, &e) == 0)
		return 0;
	key = levels_where("level_config", &e);
	rc = sweep_config_bad(in, key, e.expected);
	free(key);
	return rc;
}

/* "tz" and "locale": absent is inherit, else the command line's rules. */
static int
sweep_config_zone(struct sweep_config_in *in, const cJSON *o, struct sweep_config *c)
{
	const char *expected;
	int rc = sweep_config_str(in, o, "tz", false, &c->tz);

	if (rc == 0)
		rc = sweep_config_str(in, o, "locale", false, &c->locale);
	if (rc < 0)
		return rc;
	if (c->tz == NULL)
		c->tz = xstrdup(OPTIONS_INHERIT);
	if (c->locale == NULL)
		c->locale = xstrdup(OPTIONS_INHERIT);
	if ((expected = options_check_tz(c->tz)) != NULL)
		return sweep_config_bad(in, "tz", expected);
	if ((expected = options_check_locale(c->locale)) != NULL)
		return sweep_config_bad(in, "locale", expected);
	return 0;
}

/* "exclusive": absent, or an object of NAME: PATTERN with the command
 * line's rules. */
static int
sweep_config_exclusive(struct sweep_config_in *in, const cJSON *v, struct sweep_config *c)
{
	const cJSON *x;
	const char *expected;

	if (v == NULL)
		return 0;
	if (!cJSON_IsObject(v))
		return sweep_config_bad(in, "exclusive",
		                        _("an object of group names and patterns"));
	cJSON_ArrayForEach(x, v)
	{
		char *spec =
		    cJSON_IsString(x) ? xasprintf("%s=%s", x->string, x->valuestring) : NULL;

		expected = spec != NULL ? options_check_exclusive(c->exclusive, c->nexclusive, spec)
		                        : _("an object of group names and patterns");
		if (expected != NULL) {
			free(spec);
			return sweep_config_bad(in, "exclusive", expected);
		}
		c->exclusive =
		    xrealloc(c->exclusive, sizeof *c->exclusive * (size_t)(c->nexclusive + 1));
		c->exclusive[c->nexclusive++] = spec;
	}
	return 0;
}

static int
sweep_config_decode(struct sweep_config_in *in, const cJSON *o, struct sweep_config *c)
{
	const cJSON *v;
	double d;
	const char *expected;
	int rc, i;

	in->section = "config";
	c->containers = OPTIONS_CONTAINERS_DEFAULT;
	c->clusters = OPTIONS_CLUSTERS_DEFAULT;
	c->timeout_ms = 120000;
	c->kill_grace_ms = 30000;
	c->race = true;
	c->cpu_shim = true;
	c->canaries = OPTIONS_CANARIES_DEFAULT;
	rc = sweep_config_list(in, o, "cpu", &c->cpus, &c->ncpus);
	if (rc == 0)
		rc = sweep_config_list(in, o, "load", &c->loads, &c->nloads);
	if (rc == 0 && (expected = options_check_loads(c->loads, c->nloads)) != NULL)
		rc = sweep_config_bad(in, "load", expected);
	if (rc == 0)
		rc = sweep_config_count(in, o, "count", 1, &c->count);
	if (rc == 0)
		rc = sweep_config_count(in, o, "confirm", 0, &c->confirm);
	if (rc == 0 && (v = cJSON_GetObjectItemCaseSensitive(o, "for_s")) != NULL) {
		if (!cJSON_IsNumber(v) || !(v->valuedouble > 0 && v->valuedouble < 1e12))
			rc = sweep_config_bad(in, "for_s", _("a number of seconds above zero"));
		else
			c->for_ms = (int64_t)llround(v->valuedouble * 1000);
	}
	if (rc == 0 && (v = cJSON_GetObjectItemCaseSensitive(o, "until")) != NULL &&
	    (!cJSON_IsString(v) || timefmt_parse_time(v->valuestring, &c->until_ms) < 0))
		rc = sweep_config_bad(in, "until",
		                      _("a date and time such as 2026-12-05T07:00:00Z"));
	if (rc == 0)
		rc = sweep_config_bool(in, o, "adaptive", &c->adaptive);
	if (rc == 0 && c->adaptive)
		rc = sweep_config_count(in, o, "count_min", 1, &c->count_min);
	d = (double)c->clipped_limits;
	if (rc == 0 && (rc = sweep_config_num(in, o, "clipped_limits", 0, 1e15, &d)) == 0)
		c->clipped_limits = (int64_t)d;
	d = (double)c->timeout_ms;
	if (rc == 0 && (rc = sweep_config_num(in, o, "timeout_ms", -1e15, 1e15, &d)) == 0) {
		c->timeout_ms = (int64_t)d;
	}
	d = (double)c->kill_grace_ms;
	if (rc == 0 && (rc = sweep_config_num(in, o, "kill_grace_ms", 0, 1e15, &d)) == 0)
		c->kill_grace_ms = (int64_t)d;
	if (rc == 0)
		rc = sweep_config_bool(in, o, "shuffle", &c->shuffle);
	if (rc == 0)
		rc = sweep_config_bool(in, o, "race", &c->race);
	if (rc == 0)
		rc = sweep_config_bool(in, o, "isolate_net", &c->isolate_net);
	if (rc == 0)
		rc = sweep_config_bool(in, o, "cover", &c->cover);
	if (rc == 0)
		rc = sweep_config_bool(in, o, "private_workdir", &c->private_workdir);
	if (rc == 0)
		rc = sweep_config_bool(in, o, "cpu_shim", &c->cpu_shim);
	if (rc == 0 && cJSON_GetObjectItemCaseSensitive(o, "containers") != NULL)
		rc = sweep_config_count(in, o, "containers", 1, &c->containers);
	if (rc == 0 && cJSON_GetObjectItemCaseSensitive(o, "clusters") != NULL)
		rc = sweep_config_count(in, o, "clusters", 1, &c->clusters);
	if (rc == 0)
		rc = sweep_config_str(in, o, "env_up", false, &c->env_up);
	if (rc == 0)
		rc = sweep_config_str(in, o, "env_down", false, &c->env_down);
	d = 0;
	if (rc == 0 && (rc = sweep_config_num(in, o, "quiet", -1e12, 1e12, &d)) == 0) {
		if ((expected = options_check_quiet((long long)d)) != NULL)
			rc = sweep_config_bad(in, "quiet", expected);
		c->quiet = (int)d;
	}
	if (rc == 0 && (v = cJSON_GetObjectItemCaseSensitive(o, "canaries")) != NULL) {
		if (!cJSON_IsNumber(v) || options_check_canaries(v->valuedouble) != NULL)
			rc = sweep_config_bad(in, "canaries", options_check_canaries(-1));
		else
			c->canaries = v->valuedouble;
	}
	if (rc == 0)
		rc = sweep_config_str(in, o, "run", true, &c->run_re);
	if (rc == 0)
		rc = sweep_config_str(in, o, "skip", true, &c->skip_re);
	if (rc == 0)
		rc = sweep_config_strv(in, o, "levels", false, &c->levels, &c->nlevels);
	if (rc == 0)
		rc = sweep_config_strv(in, o, "tags", true, &c->tags, &c->ntags);
	if (rc == 0)
		rc = sweep_config_str(in, o, "tap_select", false, &c->tap_select);
	if (rc == 0 && c->tap_select == NULL)
		c->tap_select = xstrdup("arg");
	if (rc == 0 && (expected = options_check_tap_select(c->tap_select)) != NULL)
		rc = sweep_config_bad(in, "tap_select", expected);
	if (rc == 0)
		rc = sweep_config_env(in, o, c);
	if (rc == 0)
		rc = sweep_config_str(in, o, "quarantine", true, &c->quarantine);
	if (rc == 0)
		rc = sweep_config_str(in, o, "build_tags", true, &c->build_tags);
	if (rc == 0)
		rc = sweep_config_str(in, o, "driver", false, &c->driver);
	if (rc == 0 && c->driver == NULL)
		c->driver = xstrdup("go");
	if (rc == 0 && (expected = options_check_driver(c->driver)) != NULL)
		rc = sweep_config_bad(in, "driver", expected);
	if (rc == 0 && (expected = options_check_timeout(c->driver, c->timeout_ms)) != NULL)
		rc = sweep_config_bad(in, "timeout_ms", expected);
	if (rc == 0)
		rc = sweep_config_str(in, o, "pytest_unit", true, &c->pytest_unit);
	if (rc == 0 && c->pytest_unit != NULL &&
	    (expected = options_check_pytest_unit(c->pytest_unit)) != NULL)
		rc = sweep_config_bad(in, "pytest_unit", expected);
	if (rc == 0)
		rc = sweep_config_strv(in, o, "packages", false, &c->packages, &c->npackages);
	if (rc == 0)
		rc = sweep_config_strv(in, o, "command", false, &c->command, &c->ncommand);
	if (rc == 0 && options_check_command(c->driver, c->ncommand) != NULL)
		rc = sweep_config_bad(in, "command", options_check_command(c->driver, c->ncommand));
	if (rc == 0)
		rc = sweep_config_strv(in, o, "mask_env", false, &c->mask_env, &c->nmask_env);
	for (i = 0; rc == 0 && i < c->nmask_env; i++) {
		if (c->mask_env[i][0] == '\0' || strchr(c->mask_env[i], '=') != NULL)
			rc = sweep_config_bad(
			    in, "mask_env", _("an array of variable names (no \"=\", none empty)"));
	}
	if (rc == 0)
		rc = sweep_config_strv(in, o, "scrub_env", false, &c->scrub_env, &c->nscrub_env);
	for (i = 0; rc == 0 && i < c->nscrub_env; i++) {
		if (c->scrub_env[i][0] == '\0' || strchr(c->scrub_env[i], '=') != NULL)
			rc = sweep_config_bad(
			    in, "scrub_env",
			    _("an array of variable names (no \"=\", none empty)"));
	}
	if (rc == 0)
		rc = sweep_config_shard(in, cJSON_GetObjectItemCaseSensitive(o, "shard"), c);
	if (rc == 0)
		rc =
		    sweep_config_levels(in, cJSON_GetObjectItemCaseSensitive(o, "level_config"), c);
	if (rc == 0)
		rc = sweep_config_zone(in, o, c);
	if (rc == 0)
		rc =
		    sweep_config_exclusive(in, cJSON_GetObjectItemCaseSensitive(o, "exclusive"), c);
	if (rc == 0)
		rc = sweep_config_str(in, o, "lease_dir", true, &c->lease_dir);
	d = 600000;
	if (rc == 0 && (rc = sweep_config_num(in, o, "lease_ttl_ms", 1, 1e15, &d)) == 0)
		c->lease_ttl_ms = (int64_t)d;
	return rc;
}

static int
sweep_config_decode_machine(struct sweep_config_in *in, const cJSON *o, struct journal_machine *m)
{
	const cJSON *lanes = cJSON_GetObjectItemCaseSensitive(o, "lanes"), *lane, *x;
	double d = 0;
	int rc, i = 0;

	in->section = "machine";
	if (o != NULL && !cJSON_IsObject(o)) {
		in->section = NULL;
		return sweep_config_bad(in, "machine", _("an object"));
	}
	rc = sweep_config_str(in, o, "host", true, &m->host);
	if (rc == 0)
		rc = sweep_config_num(in, o, "cores", 0, 1 << 20, &d);
	m->cores = (int)d;
	d = 0;
	if (rc == 0)
		rc = sweep_config_num(in, o, "keep", 0, 1 << 20, &d);
	m->keep = (int)d;
	if (rc < 0 || lanes == NULL)
		return rc;
	if (!cJSON_IsArray(lanes))
		return sweep_config_bad(in, "lanes", _("an array of arrays of cores"));
	m->nlanes = cJSON_GetArraySize(lanes);
	m->width = cJSON_GetArraySize(cJSON_GetArrayItem(lanes, 0));
	m->lanes = xcalloc((size_t)(m->nlanes * m->width) + 1, sizeof *m->lanes);
	cJSON_ArrayForEach(lane, lanes)
	{
		if (!cJSON_IsArray(lane) || cJSON_GetArraySize(lane) != m->width)
			return sweep_config_bad(in, "lanes",
			                        _("arrays of cores of the same length"));
		cJSON_ArrayForEach(x, lane)
		{
			if (!cJSON_IsNumber(x) || x->valuedouble < 0 || x->valuedouble > 1 << 20)
				return sweep_config_bad(in, "lanes", _("arrays of core numbers"));
			m->lanes[i++] = (int)x->valuedouble;
		}
	}
	return 0;
}

static int
sweep_config_decode_project(struct sweep_config_in *in, const cJSON *o, struct journal_project *p)
{
	int rc;

	in->section = "project";
	if (o != NULL && !cJSON_IsObject(o)) {
		in->section = NULL;
		return sweep_config_bad(in, "project", _("an object"));
	}
	rc = sweep_config_str(in, o, "driver", true, &p->driver);
	if (rc == 0)
		rc = sweep_config_str(in, o, "root", true, &p->root);
	if (rc == 0)
		rc = sweep_config_str(in, o, "commit", true, &p->commit);
	if (rc == 0)
		rc = sweep_config_str(in, o, "toolchain", true, &p->toolchain);
	if (rc == 0)
		rc = sweep_config_str(in, o, "origin", true, &p->origin);
	if (rc == 0)
		rc = sweep_config_bool(in, o, "dirty", &p->dirty);
	return rc;
}

int
journal_header_decode(const cJSON *line, const char *path, int lineno, struct journal_header *h,
                      char **err)
{
	struct sweep_config_in in = {path, lineno, NULL, NULL};
	const cJSON *config = cJSON_GetObjectItemCaseSensitive(line, "config");
	const cJSON *started = cJSON_GetObjectItemCaseSensitive(line, "started");
	const cJSON *simulated = cJSON_GetObjectItemCaseSensitive(line, "simulated");
	char *why;
	int rc = 0;

	memset(h, 0, sizeof *h);
	if ((why = journal_schema_error(line)) != NULL) {
		in.err = xasprintf("%s:%d: %s", path, lineno, why);
		free(why);
		rc = -EINVAL;
	} else if (started != NULL &&
	           (!cJSON_IsString(started) ||
	            timefmt_parse_time(started->valuestring, &h->started_ms) < 0))
		rc = sweep_config_bad(&in, "started", _("a time like 2026-11-30T02:14:00Z"));
	else if (simulated != NULL && !cJSON_IsBool(simulated))
		rc = sweep_config_bad(&in, "simulated", _("true or false"));
	else if (!cJSON_IsObject(config))
		rc = sweep_config_bad(&in, "config", _("an object"));
	h->simulated = cJSON_IsTrue(simulated);
	if (rc == 0)
		rc = sweep_config_decode(&in, config, &h->config);
	if (rc == 0)
		rc = sweep_config_decode_machine(
		    &in, cJSON_GetObjectItemCaseSensitive(line, "machine"), &h->machine);
	if (rc == 0)
		rc = sweep_config_decode_project(
		    &in, cJSON_GetObjectItemCaseSensitive(line, "project"), &h->project);
	if (rc < 0) {
		journal_header_free(h);
		*err = in.err;
	}
	return rc;
}

void
journal_header_free(struct journal_header *h)
{
	sweep_config_free(&h->config);
	free(h->machine.host);
	free(h->machine.lanes);
	free(h->project.driver);
	free(h->project.root);
	free(h->project.commit);
	free(h->project.toolchain);
	free(h->project.origin);
	memset(h, 0, sizeof *h);
}

bool
journal_header_simulated(const cJSON *line)
{
	return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "simulated"));
}

char *
journal_simulated_refusal(const char *path)
{
	return xasprintf(_("%s: a plan's simulation (flakesweep plan -o), not measured runs: "
	                   "only view opens it"),
	                 path);
}
