/* SPDX-License-Identifier: MIT */
/*
 * status.c: builds struct sweep_status for sweep_status() and
 * replay_status(): the lanes, their runs in flight with short names, and
 * the sentence that says why a lane holds a pair back.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "drivers/driver.h"
#include "engine/status.h"
#include "base/util.h"

static void
status_free_levels(struct sweep_status *st)
{
	size_t i;

	for (i = 0; i < st->nlevel_pkgs; i++) {
		free(st->level_pkgs[i].pkg);
		free(st->level_pkgs[i].level);
		free(st->level_pkgs[i].kind);
		free(st->level_pkgs[i].label);
		free(st->level_pkgs[i].cpuset);
	}
	free(st->level_pkgs);
	st->level_pkgs = NULL;
	st->nlevel_pkgs = 0;
	for (i = 0; i < st->npins; i++) {
		free(st->pins[i].container);
		free(st->pins[i].cpuset);
		free(st->pins[i].pkgs);
		free(st->pins[i].error);
	}
	free(st->pins);
	st->pins = NULL;
	st->npins = 0;
}

static char *
status_dup(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* Adds a package at a level that is not a unit level (copied strings). */
static struct status_level_pkg *
status_add_level_pkg(struct sweep_status *st, const char *pkg, const char *level, const char *kind,
                     const char *label, const char *cpuset)
{
	struct status_level_pkg *p;

	st->level_pkgs = xrealloc(st->level_pkgs, sizeof *st->level_pkgs * (st->nlevel_pkgs + 1));
	p = &st->level_pkgs[st->nlevel_pkgs++];
	memset(p, 0, sizeof *p);
	p->pkg = xstrdup(pkg);
	p->level = xstrdup(level);
	p->kind = xstrdup(kind);
	p->label = status_dup(label);
	p->cpuset = status_dup(cpuset);
	return p;
}

/* Adds a pin (copied strings). */
static void
status_add_pin(struct sweep_status *st, const struct results_pin *pin)
{
	struct results_pin *p;

	st->pins = xrealloc(st->pins, sizeof *st->pins * (st->npins + 1));
	p = &st->pins[st->npins++];
	p->container = xstrdup(pin->container);
	p->cpuset = xstrdup(pin->cpuset);
	p->pkgs = xstrdup(pin->pkgs);
	p->latency_ms = pin->latency_ms;
	p->error = status_dup(pin->error);
}

void
status_add_lease(struct sweep_status *st, const struct status_lease *lease)
{
	struct status_lease *l;

	st->leases = xrealloc(st->leases, sizeof *st->leases * (st->nleases + 1));
	l = &st->leases[st->nleases++];
	*l = *lease;
	l->name = xstrdup(lease->name);
	l->path = xstrdup(lease->path);
	l->host = xstrdup(lease->host);
	l->outdir = xstrdup(lease->outdir);
	l->started = xstrdup(lease->started);
}

void
status_levels(struct sweep_status *st, const struct results *r, const struct levels *lv)
{
	size_t i;

	status_free_levels(st);
	for (i = 0; i < r->npkgs; i++) {
		const struct results_pkg *rp = &r->pkgs[i];
		const struct levels_level *l = levels_find(lv, rp->level);
		struct status_level_pkg *p;

		if (l == NULL)
			continue;
		p = status_add_level_pkg(st, rp->name, rp->level, levels_kind_name(l->kind),
		                         l->label, rp->cpuset);
		p->pinned = rp->pinned;
		p->pin_failed = rp->pin_failed;
		p->pin_max_ms = rp->pin_max_ms;
	}
	for (i = 0; i < r->npins; i++)
		status_add_pin(st, &r->pins[i]);
	st->pinned = r->pinned;
	st->pin_failed = r->pin_failed;
}

void
status_free(struct sweep_status *st)
{
	int l;
	size_t i;

	for (l = 0; st->lanes != NULL && l < st->nlanes; l++) {
		struct status_lane *sl = &st->lanes[l];

		for (i = 0; i < sl->nruns; i++) {
			free(sl->runs[i].cores);
			free(sl->runs[i].pkg);
			free(sl->runs[i].test);
		}
		free(sl->runs);
		free(sl->cores);
		free(sl->core_runs);
		free(sl->held);
		free(sl->held_why);
		free(sl->environment);
	}
	free(st->lanes);
	st->lanes = NULL;
	st->nlanes = 0;
	for (i = 0; i < st->nbuild_failed; i++)
		free(st->build_failed[i]);
	free(st->build_failed);
	st->build_failed = NULL;
	st->nbuild_failed = 0;
	status_free_levels(st);
	for (i = 0; i < st->nleases; i++) {
		free(st->leases[i].name);
		free(st->leases[i].path);
		free(st->leases[i].host);
		free(st->leases[i].outdir);
		free(st->leases[i].started);
	}
	free(st->leases);
	st->leases = NULL;
	st->nleases = 0;
}

void
status_build_failed(struct sweep_status *st, struct pkg *const *pkgs, size_t npkgs)
{
	size_t i;

	for (i = 0; i < npkgs; i++) {
		const struct pkg *p = pkgs[i];

		if (p == NULL || p->build_ok || p->empty)
			continue;
		st->build_failed =
		    xrealloc(st->build_failed, sizeof *st->build_failed * (st->nbuild_failed + 1));
		st->build_failed[st->nbuild_failed++] = xasprintf("%s (%s)", p->name, p->level);
	}
}

void
status_copy(struct sweep_status *dst, const struct sweep_status *src)
{
	int l;
	size_t i;

	*dst = *src;
	dst->lanes = xcalloc((size_t)(src->nlanes > 0 ? src->nlanes : 1), sizeof *dst->lanes);
	dst->nlanes = src->nlanes;
	for (l = 0; l < src->nlanes; l++) {
		const struct status_lane *a = &src->lanes[l];
		struct status_lane *b = &dst->lanes[l];
		size_t n = (size_t)(a->ncores > 0 ? a->ncores : 1);

		b->ncores = a->ncores;
		b->load = a->load;
		b->cores = xcalloc(n, sizeof *b->cores);
		b->core_runs = xcalloc(n, sizeof *b->core_runs);
		if (a->ncores > 0) {
			memcpy(b->cores, a->cores, sizeof *b->cores * (size_t)a->ncores);
			memcpy(b->core_runs, a->core_runs,
			       sizeof *b->core_runs * (size_t)a->ncores);
		}
		b->held = a->held != NULL ? xstrdup(a->held) : NULL;
		b->held_why = a->held_why != NULL ? xstrdup(a->held_why) : NULL;
		b->environment = status_dup(a->environment);
		b->runs = xcalloc(a->nruns + 1, sizeof *b->runs);
		b->nruns = a->nruns;
		for (i = 0; i < a->nruns; i++) {
			b->runs[i] = a->runs[i];
			b->runs[i].cores = xstrdup(a->runs[i].cores);
			b->runs[i].pkg = xstrdup(a->runs[i].pkg);
			b->runs[i].test = a->runs[i].test != NULL ? xstrdup(a->runs[i].test) : NULL;
		}
	}
	dst->level_pkgs = NULL;
	dst->nlevel_pkgs = 0;
	for (i = 0; i < src->nlevel_pkgs; i++) {
		const struct status_level_pkg *a = &src->level_pkgs[i];
		struct status_level_pkg *b =
		    status_add_level_pkg(dst, a->pkg, a->level, a->kind, a->label, a->cpuset);

		b->pinned = a->pinned;
		b->pin_failed = a->pin_failed;
		b->pin_max_ms = a->pin_max_ms;
	}
	dst->pins = NULL;
	dst->npins = 0;
	for (i = 0; i < src->npins; i++)
		status_add_pin(dst, &src->pins[i]);
	dst->leases = NULL;
	dst->nleases = 0;
	for (i = 0; i < src->nleases; i++)
		status_add_lease(dst, &src->leases[i]);
	dst->build_failed = NULL;
	dst->nbuild_failed = 0;
	for (i = 0; i < src->nbuild_failed; i++)
		util_strv_add(&dst->build_failed, &dst->nbuild_failed, src->build_failed[i]);
}

void
status_keep(struct sweep_status *dst, int **ints, const struct sweep_status *src)
{
	size_t n = (size_t)(src->ncpus + src->nloads);

	status_free(dst);
	status_copy(dst, src);
	free(*ints);
	*ints = xcalloc(n + 1, sizeof **ints);
	if (src->ncpus > 0)
		memcpy(*ints, src->cpus, sizeof **ints * (size_t)src->ncpus);
	if (src->nloads > 0)
		memcpy(*ints + src->ncpus, src->loads, sizeof **ints * (size_t)src->nloads);
	dst->cpus = *ints;
	dst->loads = *ints + src->ncpus;
}

void
status_set_lanes(struct sweep_status *st, int nlanes, int width, const int *cores)
{
	int l;

	status_free(st);
	st->nlanes = nlanes;
	st->width = width;
	st->lanes = xcalloc((size_t)(nlanes > 0 ? nlanes : 1), sizeof *st->lanes);
	for (l = 0; l < nlanes; l++) {
		struct status_lane *sl = &st->lanes[l];

		sl->ncores = width;
		sl->cores = xcalloc((size_t)(width > 0 ? width : 1), sizeof *sl->cores);
		sl->core_runs = xcalloc((size_t)(width > 0 ? width : 1), sizeof *sl->core_runs);
		if (width > 0)
			memcpy(sl->cores, cores + l * width, sizeof *sl->cores * (size_t)width);
	}
}

char *
status_short_pkg(const char *pkg)
{
	const char *last = strrchr(pkg, '/'), *prev;
	int slashes = 0;
	const char *p;

	for (p = pkg; *p != '\0'; p++)
		slashes += *p == '/';
	if (last == NULL)
		return xstrdup(pkg);
	if (slashes < 2)
		return xstrdup(last + 1);
	for (prev = last - 1; prev > pkg && *prev != '/'; prev--)
		;
	return xstrdup(*prev == '/' ? prev + 1 : prev);
}

void
status_hold(struct sweep_status *st, int l, const char *pkg, const char *test, int cpu, int load)
{
	struct status_lane *sl = &st->lanes[l];
	char *name = pkg != NULL ? status_short_pkg(pkg) : xstrdup("?");
	int c, free_cores = 0;

	if (test != NULL)
		sl->held = xasprintf(_("%s %s cpu %d load %d"), name, test, cpu, load);
	else
		sl->held = xasprintf(_("%s cpu %d load %d"), name, cpu, load);
	free(name);
	for (c = 0; c < sl->ncores; c++)
		free_cores += sl->core_runs[c] < load;
	if (st->paused)
		sl->held_why = xstrdup(_("dispatching is paused"));
	else if (sl->load != 0 && sl->load != load)
		sl->held_why =
		    xasprintf(_("waits for the lane to empty: it runs at load %d"), sl->load);
	else
		sl->held_why =
		    xasprintf(_("waits for %d free cores, %d free now"), cpu, free_cores);
}

void
status_hold_alone(struct sweep_status *st, int l, bool alone)
{
	struct status_lane *sl = &st->lanes[l];

	if (st->paused)
		return;
	free(sl->held_why);
	sl->held_why = xstrdup(alone ? _("runs alone: waits for the other runs of its package "
	                                 "to end")
	                             : _("waits while a run of its package runs alone"));
}

static int
status_cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return x < y ? -1 : x > y;
}

/* "c4", "c8-c11" for consecutive ids, else "c1,c3": ids ascending. */
static char *
status_cores_name(const int *ids, int n)
{
	int *cpus = xcalloc((size_t)(n > 0 ? n : 1), sizeof *cpus);
	struct buf b;
	int i;
	bool consecutive = n > 1;

	if (n > 0)
		memcpy(cpus, ids, sizeof *cpus * (size_t)n);
	qsort(cpus, (size_t)n, sizeof *cpus, status_cmp_int);
	for (i = 1; i < n; i++)
		consecutive = consecutive && cpus[i] == cpus[i - 1] + 1;
	buf_init(&b);
	if (consecutive) {
		buf_printf(&b, "c%d-c%d", cpus[0], cpus[n - 1]);
	} else {
		for (i = 0; i < n; i++)
			buf_printf(&b, "%sc%d", i > 0 ? "," : "", cpus[i]);
	}
	free(cpus);
	return buf_steal(&b);
}

void
status_add_run(struct sweep_status *st, int l, int64_t id, const int *cpus, int cpu, int load,
               enum results_phase phase, const char *pkg, const char *test, int64_t started_ms)
{
	struct status_lane *sl;
	struct status_run *r;
	int i;

	if (l < 0 || l >= st->nlanes)
		return;
	sl = &st->lanes[l];
	sl->runs = xrealloc(sl->runs, sizeof *sl->runs * (sl->nruns + 1));
	r = &sl->runs[sl->nruns++];
	memset(r, 0, sizeof *r);
	r->id = id;
	r->cores = status_cores_name(cpus, cpu);
	r->first_core = cpu > 0 ? cpus[0] : 0;
	for (i = 1; i < cpu; i++) {
		if (cpus[i] < r->first_core)
			r->first_core = cpus[i];
	}
	r->pkg = pkg != NULL ? status_short_pkg(pkg) : xstrdup("?");
	r->test = test != NULL ? xstrdup(test) : NULL;
	r->cpu = cpu;
	r->load = load;
	r->phase = phase;
	r->started_ms = started_ms;
}
