/* SPDX-License-Identifier: MIT */
/*
 * driver.c: finds a driver by name and frees what drivers hand out. It
 * knows no framework; each lives in its own driver-NAME.c.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "drivers/driver.h"
#include "base/sanitize.h"
#include "base/util.h"

const struct driver *
driver_find(const char *name)
{
	static const struct driver *const all[] = {&driver_go, &driver_tap, &driver_pytest,
	                                           &driver_gtest, &driver_ctest};
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(all); i++) {
		if (strcmp(all[i]->name, name) == 0)
			return all[i];
	}
	return NULL;
}

const char *
driver_level_kind(const struct levels *lv, const char *level)
{
	const struct levels_level *l = levels_find(lv, level);

	return levels_kind_name(l != NULL ? l->kind : LEVELS_UNIT);
}

void
driver_free_pkg(struct pkg *p)
{
	free(p->name);
	free(p->level);
	free(p->dir);
	free(p->binary);
	free(p->build_output);
	util_strv_free(p->tests);
	free(p->run_filter);
	free(p->toolchain);
	free(p->driver_data);
	free(p);
}

void
driver_free_pkgs(struct pkg **pkgs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		driver_free_pkg(pkgs[i]);
	free(pkgs);
}

void
driver_free_project(struct project *proj)
{
	free(proj->root);
	free(proj->commit);
	free(proj->toolchain);
	free(proj->origin);
	util_strv_free(proj->warnings);
	memset(proj, 0, sizeof *proj);
}

char *
driver_reproduce_loop(const struct pkg *pkg, const struct driver_run *r, const int *cpus, int count,
                      const char *preload, const char *env, const char *command)
{
	struct buf b;
	char *q;
	int i;

	buf_init(&b);
	q = sanitize_shell_quote(pkg->dir);
	buf_printf(&b, "cd %s && for i in $(seq %d); do FLAKESWEEP_CPU=%d ", q, count, r->cpu);
	free(q);
	if (preload != NULL) {
		q = sanitize_shell_quote(preload);
		buf_printf(&b, "LD_PRELOAD=%s ", q);
		free(q);
	}
	if (r->test != NULL && r->select_env) {
		q = sanitize_shell_quote(r->test);
		buf_printf(&b, "FLAKESWEEP_TEST=%s ", q);
		free(q);
	}
	if (env != NULL)
		buf_printf(&b, "%s ", env);
	buf_printf(&b, "timeout %llds taskset -c ", (long long)(r->timeout_ms + 999) / 1000);
	for (i = 0; i < r->cpu; i++)
		buf_printf(&b, "%s%d", i > 0 ? "," : "", cpus[i]);
	buf_printf(&b, " %s; done", command);
	return buf_steal(&b);
}
