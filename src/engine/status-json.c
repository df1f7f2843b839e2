/* SPDX-License-Identifier: MIT */
/*
 * status-json.c: struct sweep_status to the control socket's "status"
 * message and back (see status-json.h). Every number is checked against
 * its range on the way in, so a torn or hostile peer cannot size an
 * allocation or index a lane.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "engine/status-json.h"
#include "base/util.h"

#define STATUS_JSON_MAX_LANES 4096
#define STATUS_JSON_MAX_CORES 65536
#define STATUS_JSON_MAX_RUNS 65536
#define STATUS_JSON_NUM_MAX 9007199254740992LL
#define STATUS_JSON_MAX_PKGS 65536
#define STATUS_JSON_MAX_PINS 64
#define STATUS_JSON_MAX_LEASES 64

static cJSON *
status_json_ints(const int *v, int n)
{
	cJSON *a = cJSON_CreateArray();
	int i;

	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
	return a;
}

static cJSON *
status_json_run(const struct status_run *r)
{
	cJSON *j = cJSON_CreateObject();

	cJSON_AddNumberToObject(j, "id", (double)r->id);
	cJSON_AddStringToObject(j, "cores", r->cores);
	cJSON_AddStringToObject(j, "pkg", r->pkg);
	if (r->test != NULL)
		cJSON_AddStringToObject(j, "test", r->test);
	cJSON_AddNumberToObject(j, "cpu", r->cpu);
	cJSON_AddNumberToObject(j, "load", r->load);
	cJSON_AddStringToObject(j, "phase", r->phase == RESULTS_CONFIRM ? "confirm" : "sweep");
	cJSON_AddNumberToObject(j, "started_ms", (double)r->started_ms);
	return j;
}

static cJSON *
status_json_lane(const struct status_lane *sl)
{
	cJSON *j = cJSON_CreateObject(), *runs = cJSON_CreateArray();
	size_t i;

	cJSON_AddItemToObject(j, "cores", status_json_ints(sl->cores, sl->ncores));
	cJSON_AddItemToObject(j, "core_runs", status_json_ints(sl->core_runs, sl->ncores));
	cJSON_AddNumberToObject(j, "load", sl->load);
	if (sl->held != NULL) {
		cJSON_AddStringToObject(j, "held", sl->held);
		cJSON_AddStringToObject(j, "held_why", sl->held_why != NULL ? sl->held_why : "");
	}
	for (i = 0; i < sl->nruns; i++)
		cJSON_AddItemToArray(runs, status_json_run(&sl->runs[i]));
	cJSON_AddItemToObject(j, "runs", runs);
	if (sl->environment != NULL)
		cJSON_AddStringToObject(j, "environment", sl->environment);
	return j;
}

/* "level_pkgs" and "pins", when the sweep has packages at other levels
 * than unit ones. */
static void
status_json_levels(cJSON *j, const struct sweep_status *st)
{
	cJSON *a, *o, *pins;
	size_t i;

	if (st->nlevel_pkgs > 0) {
		a = cJSON_AddArrayToObject(j, "level_pkgs");
		for (i = 0; i < st->nlevel_pkgs; i++) {
			const struct status_level_pkg *p = &st->level_pkgs[i];

			o = cJSON_CreateObject();
			cJSON_AddStringToObject(o, "pkg", p->pkg);
			cJSON_AddStringToObject(o, "level", p->level);
			cJSON_AddStringToObject(o, "kind", p->kind);
			if (p->label != NULL)
				cJSON_AddStringToObject(o, "label", p->label);
			if (p->cpuset != NULL)
				cJSON_AddStringToObject(o, "cpuset", p->cpuset);
			cJSON_AddNumberToObject(o, "pinned", (double)p->pinned);
			cJSON_AddNumberToObject(o, "pin_failed", (double)p->pin_failed);
			cJSON_AddNumberToObject(o, "pin_max_ms", (double)p->pin_max_ms);
			cJSON_AddItemToArray(a, o);
		}
	}
	if (st->pinned + st->pin_failed == 0)
		return;
	pins = cJSON_AddObjectToObject(j, "pins");
	cJSON_AddNumberToObject(pins, "pinned", (double)st->pinned);
	cJSON_AddNumberToObject(pins, "failed", (double)st->pin_failed);
	a = cJSON_AddArrayToObject(pins, "last");
	for (i = 0; i < st->npins; i++) {
		const struct results_pin *p = &st->pins[i];

		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "container", p->container);
		cJSON_AddStringToObject(o, "cpuset", p->cpuset);
		cJSON_AddStringToObject(o, "pkgs", p->pkgs);
		cJSON_AddNumberToObject(o, "latency_ms", (double)p->latency_ms);
		if (p->error != NULL)
			cJSON_AddStringToObject(o, "error", p->error);
		cJSON_AddItemToArray(a, o);
	}
}

/* "leases", when the sweep holds an exclusive group's lease or waits
 * for one: each with its owner. */
static void
status_json_leases(cJSON *j, const struct sweep_status *st)
{
	cJSON *a, *o;
	size_t i;

	if (st->nleases == 0)
		return;
	a = cJSON_AddArrayToObject(j, "leases");
	for (i = 0; i < st->nleases; i++) {
		const struct status_lease *l = &st->leases[i];

		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "name", l->name);
		cJSON_AddStringToObject(o, "path", l->path);
		cJSON_AddStringToObject(o, "state", l->held ? "held" : "waiting");
		cJSON_AddStringToObject(o, "host", l->host);
		cJSON_AddNumberToObject(o, "pid", (double)l->pid);
		cJSON_AddStringToObject(o, "outdir", l->outdir);
		cJSON_AddStringToObject(o, "started", l->started);
		cJSON_AddNumberToObject(o, "started_ms", (double)l->started_ms);
		cJSON_AddNumberToObject(o, "age_s", (double)l->age_s);
		cJSON_AddItemToArray(a, o);
	}
}

static const char *const status_json_phases[] = {"discover", "build", "sweep", "confirm", "done"};

cJSON *
status_json_encode(const struct sweep_status *st, const char *end_status)
{
	cJSON *j = cJSON_CreateObject(), *lanes = cJSON_CreateArray();
	size_t i;
	int l;

	cJSON_AddStringToObject(j, "type", "status");
	cJSON_AddStringToObject(j, "phase", status_json_phases[st->phase]);
	cJSON_AddBoolToObject(j, "paused", st->paused);
	cJSON_AddBoolToObject(j, "finished", st->finished);
	if (end_status != NULL)
		cJSON_AddStringToObject(j, "end", end_status);
	cJSON_AddNumberToObject(j, "done", (double)st->done);
	cJSON_AddNumberToObject(j, "target", (double)st->target);
	cJSON_AddNumberToObject(j, "started_ms", (double)st->started_ms);
	cJSON_AddNumberToObject(j, "finished_ms", (double)st->finished_ms);
	if (st->deadline_ms > 0)
		cJSON_AddNumberToObject(j, "deadline_ms", (double)st->deadline_ms);
	cJSON_AddItemToObject(j, "cpus", status_json_ints(st->cpus, st->ncpus));
	cJSON_AddItemToObject(j, "loads", status_json_ints(st->loads, st->nloads));
	cJSON_AddNumberToObject(j, "count", st->count);
	cJSON_AddNumberToObject(j, "confirm", st->confirm);
	cJSON_AddNumberToObject(j, "machine_cores", st->machine_cores);
	cJSON_AddNumberToObject(j, "keep", st->keep);
	cJSON_AddNumberToObject(j, "width", st->width);
	if (st->nbuild_failed > 0) {
		cJSON *a = cJSON_AddArrayToObject(j, "build_failed");

		for (i = 0; i < st->nbuild_failed; i++)
			cJSON_AddItemToArray(a, cJSON_CreateString(st->build_failed[i]));
	}
	for (l = 0; l < st->nlanes; l++)
		cJSON_AddItemToArray(lanes, status_json_lane(&st->lanes[l]));
	cJSON_AddItemToObject(j, "lanes", lanes);
	status_json_levels(j, st);
	status_json_leases(j, st);
	return j;
}

/* ---- decoding ---- */

struct status_json_ctx {
	char *err;
};

static bool
status_json_bad(struct status_json_ctx *c, const char *what, const char *expected)
{
	if (c->err == NULL)
		c->err = xasprintf(_("status: %s: expected %s"), what, expected);
	return false;
}

static bool
status_json_num(struct status_json_ctx *c, const cJSON *o, const char *key, int64_t min,
                int64_t max, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
	char *expected;

	if (cJSON_IsNumber(v) && v->valuedouble >= (double)min && v->valuedouble <= (double)max &&
	    v->valuedouble == (double)(int64_t)v->valuedouble) {
		*out = (int64_t)v->valuedouble;
		return true;
	}
	expected = xasprintf(_("a whole number from %lld to %lld"), (long long)min, (long long)max);
	status_json_bad(c, key, expected);
	free(expected);
	return false;
}

static bool
status_json_int(struct status_json_ctx *c, const cJSON *o, const char *key, int max, int *out)
{
	int64_t v = 0;

	if (!status_json_num(c, o, key, 0, max, &v))
		return false;
	*out = (int)v;
	return true;
}

static bool
status_json_bool(struct status_json_ctx *c, const cJSON *o, const char *key, bool *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	if (!cJSON_IsBool(v))
		return status_json_bad(c, key, _("true or false"));
	*out = cJSON_IsTrue(v);
	return true;
}

/* A string member, copied; optional ones may be absent (NULL). */
static bool
status_json_str(struct status_json_ctx *c, const cJSON *o, const char *key, bool required,
                char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

	*out = NULL;
	if (v == NULL && !required)
		return true;
	if (!cJSON_IsString(v))
		return status_json_bad(c, key, _("a string"));
	*out = xstrdup(v->valuestring);
	return true;
}

/* An array of whole numbers from 0 to max; *n is its size, which must be
 * want when want >= 0. */
static bool
status_json_array(struct status_json_ctx *c, const cJSON *o, const char *key, int want, int max,
                  int *dst, int *n)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key), *v;
	int i = 0;

	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > STATUS_JSON_MAX_CORES ||
	    (want >= 0 && cJSON_GetArraySize(a) != want))
		return status_json_bad(c, key, _("an array of the lane's width"));
	cJSON_ArrayForEach(v, a)
	{
		if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > max ||
		    v->valuedouble != (double)(int)v->valuedouble)
			return status_json_bad(c, key, _("whole numbers"));
		if (dst != NULL)
			dst[i] = (int)v->valuedouble;
		i++;
	}
	if (n != NULL)
		*n = i;
	return true;
}

static bool
status_json_run_decode(struct status_json_ctx *c, const cJSON *j, struct status_run *r)
{
	int64_t id = 0, started = 0;
	char *phase = NULL;
	bool ok;

	ok = cJSON_IsObject(j) && status_json_num(c, j, "id", 0, STATUS_JSON_NUM_MAX, &id) &&
	     status_json_str(c, j, "cores", true, &r->cores) &&
	     status_json_str(c, j, "pkg", true, &r->pkg) &&
	     status_json_str(c, j, "test", false, &r->test) &&
	     status_json_int(c, j, "cpu", STATUS_JSON_MAX_CORES, &r->cpu) &&
	     status_json_int(c, j, "load", STATUS_JSON_MAX_CORES, &r->load) &&
	     status_json_str(c, j, "phase", true, &phase) &&
	     status_json_num(c, j, "started_ms", 0, STATUS_JSON_NUM_MAX, &started);
	if (!ok)
		status_json_bad(c, "runs", _("objects"));
	r->id = id;
	r->started_ms = started;
	r->phase = phase != NULL && strcmp(phase, "confirm") == 0 ? RESULTS_CONFIRM : RESULTS_SWEEP;
	free(phase);
	return ok;
}

static bool
status_json_lane_decode(struct status_json_ctx *c, const cJSON *j, struct status_lane *sl)
{
	const cJSON *runs, *v;

	if (!cJSON_IsObject(j))
		return status_json_bad(c, "lanes", _("objects"));
	if (!status_json_array(c, j, "cores", sl->ncores, STATUS_JSON_MAX_CORES, sl->cores, NULL) ||
	    !status_json_array(c, j, "core_runs", sl->ncores, STATUS_JSON_MAX_RUNS, sl->core_runs,
	                       NULL) ||
	    !status_json_int(c, j, "load", STATUS_JSON_MAX_CORES, &sl->load) ||
	    !status_json_str(c, j, "held", false, &sl->held) ||
	    !status_json_str(c, j, "held_why", sl->held != NULL, &sl->held_why) ||
	    !status_json_str(c, j, "environment", false, &sl->environment))
		return false;
	runs = cJSON_GetObjectItemCaseSensitive(j, "runs");
	if (!cJSON_IsArray(runs) || cJSON_GetArraySize(runs) > STATUS_JSON_MAX_RUNS)
		return status_json_bad(c, "runs", _("an array"));
	sl->runs = xcalloc((size_t)cJSON_GetArraySize(runs) + 1, sizeof *sl->runs);
	cJSON_ArrayForEach(v, runs)
	{
		if (!status_json_run_decode(c, v, &sl->runs[sl->nruns++]))
			return false;
	}
	return true;
}

static bool
status_json_level_pkgs_decode(struct status_json_ctx *c, const cJSON *j, struct sweep_status *st)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, "level_pkgs"), *v;

	if (a == NULL)
		return true;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > STATUS_JSON_MAX_PKGS)
		return status_json_bad(c, "level_pkgs", _("an array"));
	st->level_pkgs = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *st->level_pkgs);
	cJSON_ArrayForEach(v, a)
	{
		struct status_level_pkg *p = &st->level_pkgs[st->nlevel_pkgs++];

		if (!cJSON_IsObject(v))
			return status_json_bad(c, "level_pkgs", _("objects"));
		if (!status_json_str(c, v, "pkg", true, &p->pkg) ||
		    !status_json_str(c, v, "level", true, &p->level) ||
		    !status_json_str(c, v, "kind", true, &p->kind) ||
		    !status_json_str(c, v, "label", false, &p->label) ||
		    !status_json_str(c, v, "cpuset", false, &p->cpuset) ||
		    !status_json_num(c, v, "pinned", 0, STATUS_JSON_NUM_MAX, &p->pinned) ||
		    !status_json_num(c, v, "pin_failed", 0, STATUS_JSON_NUM_MAX, &p->pin_failed) ||
		    !status_json_num(c, v, "pin_max_ms", INT32_MIN, STATUS_JSON_NUM_MAX,
		                     &p->pin_max_ms))
			return false;
	}
	return true;
}

static bool
status_json_pins_decode(struct status_json_ctx *c, const cJSON *j, struct sweep_status *st)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(j, "pins"), *a, *v;

	if (o == NULL)
		return true;
	a = cJSON_GetObjectItemCaseSensitive(o, "last");
	if (!cJSON_IsObject(o) || !cJSON_IsArray(a) || cJSON_GetArraySize(a) > STATUS_JSON_MAX_PINS)
		return status_json_bad(c, "pins",
		                       _("an object with \"pinned\", \"failed\" and \"last\""));
	if (!status_json_num(c, o, "pinned", 0, STATUS_JSON_NUM_MAX, &st->pinned) ||
	    !status_json_num(c, o, "failed", 0, STATUS_JSON_NUM_MAX, &st->pin_failed))
		return false;
	st->pins = xcalloc((size_t)cJSON_GetArraySize(a) + 1, sizeof *st->pins);
	cJSON_ArrayForEach(v, a)
	{
		struct results_pin *p = &st->pins[st->npins++];

		if (!cJSON_IsObject(v))
			return status_json_bad(c, "pins", _("objects"));
		if (!status_json_str(c, v, "container", true, &p->container) ||
		    !status_json_str(c, v, "cpuset", true, &p->cpuset) ||
		    !status_json_str(c, v, "pkgs", true, &p->pkgs) ||
		    !status_json_num(c, v, "latency_ms", INT32_MIN, STATUS_JSON_NUM_MAX,
		                     &p->latency_ms) ||
		    !status_json_str(c, v, "error", false, &p->error))
			return false;
	}
	return true;
}

static bool
status_json_leases_decode(struct status_json_ctx *c, const cJSON *j, struct sweep_status *st)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, "leases"), *v;
	struct status_lease l;
	char *state = NULL;
	bool ok = true;

	if (a == NULL)
		return true;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > STATUS_JSON_MAX_LEASES)
		return status_json_bad(c, "leases", _("an array"));
	cJSON_ArrayForEach(v, a)
	{
		memset(&l, 0, sizeof l);
		ok = cJSON_IsObject(v) && status_json_str(c, v, "name", true, &l.name) &&
		     status_json_str(c, v, "path", true, &l.path) &&
		     status_json_str(c, v, "state", true, &state) &&
		     status_json_str(c, v, "host", true, &l.host) &&
		     status_json_num(c, v, "pid", 0, STATUS_JSON_NUM_MAX, &l.pid) &&
		     status_json_str(c, v, "outdir", true, &l.outdir) &&
		     status_json_str(c, v, "started", true, &l.started) &&
		     status_json_num(c, v, "started_ms", 0, STATUS_JSON_NUM_MAX, &l.started_ms) &&
		     status_json_num(c, v, "age_s", 0, STATUS_JSON_NUM_MAX, &l.age_s);
		if (ok && strcmp(state, "held") != 0 && strcmp(state, "waiting") != 0)
			ok = status_json_bad(c, "state", _("held or waiting"));
		l.held = ok && strcmp(state, "held") == 0;
		if (ok)
			status_add_lease(st, &l);
		free(state);
		free(l.name);
		free(l.path);
		free(l.host);
		free(l.outdir);
		free(l.started);
		if (!ok)
			return status_json_bad(c, "leases", _("objects"));
	}
	return true;
}

/* "build_failed", when packages did not build: their names and levels. */
static bool
status_json_build_failed_decode(struct status_json_ctx *c, const cJSON *j, struct sweep_status *st)
{
	const cJSON *a = cJSON_GetObjectItemCaseSensitive(j, "build_failed"), *v;

	if (a == NULL)
		return true;
	if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) > STATUS_JSON_MAX_PKGS)
		return status_json_bad(c, "build_failed", _("an array of strings"));
	cJSON_ArrayForEach(v, a)
	{
		if (!cJSON_IsString(v))
			return status_json_bad(c, "build_failed", _("an array of strings"));
		util_strv_add(&st->build_failed, &st->nbuild_failed, v->valuestring);
	}
	return true;
}

static int
status_json_phase(const char *name)
{
	size_t i;

	for (i = 0; i < UTIL_ARRAY_LEN(status_json_phases); i++)
		if (strcmp(name, status_json_phases[i]) == 0)
			return (int)i;
	return -1;
}

int
status_json_decode(const cJSON *j, struct sweep_status *st, int **ints, char **end_status,
                   char **err)
{
	struct status_json_ctx c = {NULL};
	const cJSON *lanes, *v;
	char *phase = NULL;
	int ncpus = 0, nloads = 0, width = 0, l = 0, *zeros;
	bool ok;

	status_free(st);
	memset(st, 0, sizeof *st);
	free(*ints);
	*ints = NULL;
	*end_status = NULL;
	ok = status_json_str(&c, j, "phase", true, &phase) &&
	     status_json_bool(&c, j, "paused", &st->paused) &&
	     status_json_bool(&c, j, "finished", &st->finished) &&
	     status_json_str(&c, j, "end", false, end_status) &&
	     status_json_num(&c, j, "done", 0, STATUS_JSON_NUM_MAX, &st->done) &&
	     status_json_num(&c, j, "target", 0, STATUS_JSON_NUM_MAX, &st->target) &&
	     status_json_num(&c, j, "started_ms", 0, STATUS_JSON_NUM_MAX, &st->started_ms) &&
	     status_json_num(&c, j, "finished_ms", 0, STATUS_JSON_NUM_MAX, &st->finished_ms) &&
	     (cJSON_GetObjectItemCaseSensitive(j, "deadline_ms") == NULL ||
	      status_json_num(&c, j, "deadline_ms", 0, STATUS_JSON_NUM_MAX, &st->deadline_ms)) &&
	     status_json_array(&c, j, "cpus", -1, STATUS_JSON_MAX_CORES, NULL, &ncpus) &&
	     status_json_array(&c, j, "loads", -1, STATUS_JSON_MAX_CORES, NULL, &nloads) &&
	     status_json_int(&c, j, "count", INT32_MAX, &st->count) &&
	     status_json_int(&c, j, "confirm", INT32_MAX, &st->confirm) &&
	     status_json_int(&c, j, "machine_cores", STATUS_JSON_MAX_CORES, &st->machine_cores) &&
	     status_json_int(&c, j, "keep", STATUS_JSON_MAX_CORES, &st->keep) &&
	     status_json_int(&c, j, "width", STATUS_JSON_MAX_CORES, &width);
	if (ok && status_json_phase(phase) < 0)
		ok = status_json_bad(&c, "phase", _("discover, build, sweep, confirm or done"));
	if (ok) {
		st->phase = (enum sweep_phase)status_json_phase(phase);
		*ints = xcalloc((size_t)(ncpus + nloads) + 1, sizeof **ints);
		status_json_array(&c, j, "cpus", -1, STATUS_JSON_MAX_CORES, *ints, NULL);
		status_json_array(&c, j, "loads", -1, STATUS_JSON_MAX_CORES, *ints + ncpus, NULL);
		st->cpus = *ints;
		st->ncpus = ncpus;
		st->loads = *ints + ncpus;
		st->nloads = nloads;
		lanes = cJSON_GetObjectItemCaseSensitive(j, "lanes");
		if (!cJSON_IsArray(lanes) || cJSON_GetArraySize(lanes) > STATUS_JSON_MAX_LANES ||
		    (size_t)cJSON_GetArraySize(lanes) * (size_t)width > STATUS_JSON_MAX_CORES)
			ok = status_json_bad(&c, "lanes", _("an array"));
	}
	if (ok) {
		zeros =
		    xcalloc((size_t)cJSON_GetArraySize(lanes) * (size_t)width + 1, sizeof *zeros);
		status_set_lanes(st, cJSON_GetArraySize(lanes), width, zeros);
		free(zeros);
		cJSON_ArrayForEach(v, lanes)
		{
			if (!status_json_lane_decode(&c, v, &st->lanes[l++])) {
				ok = false;
				break;
			}
		}
	}
	ok = ok && status_json_level_pkgs_decode(&c, j, st) && status_json_pins_decode(&c, j, st) &&
	     status_json_build_failed_decode(&c, j, st) && status_json_leases_decode(&c, j, st);
	free(phase);
	if (ok)
		return 0;
	*err = c.err;
	status_free(st);
	free(*end_status);
	*end_status = NULL;
	return -EINVAL;
}
