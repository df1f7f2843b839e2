/* SPDX-License-Identifier: MIT */
/*
 * run-env.c: the runs' inherited environment, filtered and composed once
 * a sweep rather than once a run (a run's environment took a scan of
 * flakesweep's and a copy of each of its strings), and each run's block:
 * pointers to those strings and the run's own entries.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "engine/run-env.h"
#include "base/util.h"
#include "engine/cpu-shim.h"
#include "engine/options.h"
#include "engine/zone.h"

extern char **environ;

struct run_env {
	char **v;   /* the entries, util_strv */
	size_t n;   /* how many */
	size_t nin; /* the first nin came from flakesweep's environment */
};

struct run_env *
run_env_new(const struct options *o, bool canary)
{
	struct run_env *e = xcalloc(1, sizeof *e);
	size_t i;
	char *v;

	for (i = 0; environ[i] != NULL; i++) {
		if (canary && strncmp(environ[i], "FLAKESWEEP_CANARY_FAULT=", 24) == 0) {
			util_strv_add(&e->v, &e->n, environ[i]);
			continue;
		}
		if (strncmp(environ[i], "TMPDIR=", 7) == 0 ||
		    strncmp(environ[i], "FLAKESWEEP_", 11) == 0 ||
		    zone_replaces(environ[i], o->tz, o->locale) ||
		    (o->cpu_shim_path != NULL && (strncmp(environ[i], "LD_PRELOAD=", 11) == 0 ||
		                                  strncmp(environ[i], "ASAN_OPTIONS=", 13) == 0)))
			continue;
		util_strv_add(&e->v, &e->n, environ[i]);
	}
	e->nin = e->n;
	if (o->cpu_shim_path != NULL) {
		char *preload = cpu_shim_preload(getenv("LD_PRELOAD"), o->cpu_shim_path);
		char *asan = cpu_shim_asan_options(getenv("ASAN_OPTIONS"));

		v = xasprintf("LD_PRELOAD=%s", preload);
		util_strv_add(&e->v, &e->n, v);
		free(v);
		v = xasprintf("ASAN_OPTIONS=%s", asan);
		util_strv_add(&e->v, &e->n, v);
		free(v);
		free(preload);
		free(asan);
	}
	zone_run_env(o->tz, o->locale, &e->v, &e->n);
	return e;
}

void
run_env_free(struct run_env *e)
{
	if (e == NULL)
		return;
	util_strv_free(e->v);
	free(e);
}

/* Whether some entry of add has the name of entry. */
static bool
run_env_named(const char *entry, char *const *add, size_t nadd)
{
	size_t len = strcspn(entry, "="), i;

	for (i = 0; i < nadd; i++)
		if (strncmp(add[i], entry, len + 1) == 0)
			return true;
	return false;
}

char **
run_env_block(const struct run_env *e, char *const *add, size_t nadd)
{
	size_t bytes = 0, i, k = 0;
	char **env, *p;

	for (i = 0; i < nadd; i++)
		bytes += strlen(add[i]) + 1;
	env = xmalloc(sizeof *env * (e->n + nadd + 1) + bytes);
	p = (char *)(env + e->n + nadd + 1);
	for (i = 0; i < e->n; i++)
		if (i >= e->nin || !run_env_named(e->v[i], add, nadd))
			env[k++] = e->v[i];
	for (i = 0; i < nadd; i++) {
		size_t len = strlen(add[i]) + 1;

		memcpy(p, add[i], len);
		env[k++] = p;
		p += len;
	}
	env[k] = NULL;
	return env;
}
