/* SPDX-License-Identifier: MIT */
/*
 * results-json-read.c: reads results.json back into a struct results and
 * its meta (results_load): packages, tests, cells, failures and the
 * header. It parses once and checks each value where it is read
 * (results-json-value.c), with the rules across values of
 * results-json-check.c.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/driver.h"
#include "results/results-json-durations.h"
#include "results/results-json-check.h"
#include "results/results-json-in.h"
#include "results/journal-header.h"
#include "results/results-json.h"
#include "base/json.h"
#include "base/sanitize.h"
#include "base/timefmt.h"
#include "base/util.h"

/* A first failure, or NULL when the field is null or absent. */
static int
results_json_read_failure(struct results_json_in *in, const cJSON *obj, const char *key,
                          struct results_failure **out)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(obj, key), *lines, *l, *seed;
	struct results_failure *x;
	const char *s;
	struct buf b;
	int rc;

	*out = NULL;
	if (f == NULL || cJSON_IsNull(f))
		return 0;
	if (!cJSON_IsObject(f))
		return results_json_fail(in, key, _("expected an object or null"));
	results_json_push(in, key, 0);
	x = xcalloc(1, sizeof *x);
	rc = results_json_pair(in, f, &x->phase, &x->cpu, &x->load);
	seed = cJSON_GetObjectItemCaseSensitive(f, "seed");
	if (rc == 0 && cJSON_IsNumber(seed) && fabs(seed->valuedouble) <= 9007199254740992.0)
		x->seed = xasprintf("%lld", (long long)seed->valuedouble);
	else if (rc == 0 && (rc = results_json_str(in, f, "seed", false, &s)) == 0)
		x->seed = results_json_dup(s);
	/* "lines" is an array of lines; one string with newlines is taken too. */
	lines = cJSON_GetObjectItemCaseSensitive(f, "lines");
	buf_init(&b);
	if (rc == 0 && cJSON_IsArray(lines)) {
		cJSON_ArrayForEach(l, lines)
		{
			if (!cJSON_IsString(l)) {
				rc = results_json_fail(in, "lines", _("expected strings"));
				break;
			}
			buf_printf(&b, "%s%s", b.len > 0 ? "\n" : "", l->valuestring);
		}
	} else if (rc == 0 && cJSON_IsString(lines)) {
		buf_adds(&b, lines->valuestring);
	} else if (rc == 0 && lines != NULL && !cJSON_IsNull(lines)) {
		rc = results_json_fail(in, "lines", _("expected an array of strings"));
	}
	x->lines = sanitize_text(b.data != NULL ? b.data : "", b.len);
	buf_free(&b);
	if (rc == 0 && (rc = results_json_str(in, f, "reason", false, &s)) == 0)
		x->reason = s != NULL ? sanitize_text(s, strlen(s)) : NULL;
	if (rc == 0 && (rc = results_json_str(in, f, "log", false, &s)) == 0)
		x->log = results_json_dup(s);
	if (rc == 0)
		rc = results_json_int(in, f, "run", false, 0, RESULTS_JSON_COUNT_MAX, &x->run);
	results_json_pop(in);
	if (rc < 0) {
		free(x->seed);
		free(x->lines);
		free(x->reason);
		free(x->log);
		free(x);
		return rc;
	}
	*out = x;
	return 0;
}

/* "debris": the entries runs left in the package's directory, as
 * results_json_debris writes them. */
static int
results_json_read_debris(struct results_json_in *in, const cJSON *p, struct results *r, int pkg)
{
	const cJSON *debris = cJSON_GetObjectItemCaseSensitive(p, "debris"), *d;
	int rc = 0, i = 0;

	if (debris == NULL)
		return 0;
	if (!cJSON_IsArray(debris))
		return results_json_fail(in, "debris", _("expected an array"));
	results_json_push(in, "debris", 0);
	cJSON_ArrayForEach(d, debris)
	{
		const char *path = NULL;
		int64_t run = 0;

		results_json_push(in, NULL, i++);
		if (!cJSON_IsObject(d))
			rc = results_json_fail(in, NULL, _("expected an object"));
		if (rc == 0)
			rc = results_json_str(in, d, "path", true, &path);
		if (rc == 0)
			rc = results_json_int(in, d, "run", true, 1, RESULTS_JSON_COUNT_MAX, &run);
		results_json_pop(in);
		if (rc < 0)
			break;
		results_add_debris(r, pkg, path, run);
	}
	results_json_pop(in);
	return rc;
}

static int
results_json_read_pkg(struct results_json_in *in, const cJSON *p, struct results *r,
                      struct results_meta_pkg *mp)
{
	const cJSON *build = cJSON_GetObjectItemCaseSensitive(p, "build"), *ok, *pin;
	const char *name, *level, *s;
	struct results_pkg *rp;
	int rc, i;

	if (!cJSON_IsObject(p))
		return results_json_fail(in, NULL, _("expected an object"));
	rc = results_json_str(in, p, "package", true, &name);
	if (rc == 0)
		rc = results_json_str(in, p, "level", true, &level);
	if (rc < 0)
		return rc;
	i = results_add_pkg(r, name, level);
	rp = &r->pkgs[i];
	rc = results_json_int(in, p, "runs", true, 0, RESULTS_JSON_COUNT_MAX, &rp->runs);
	if (rc == 0)
		rc = results_json_int(in, p, "failures_outside_tests", false, 0, rp->runs,
		                      &rp->failures_outside_tests);
	if (rc == 0)
		rc = results_json_int(in, p, "unreliable_runs", false, 0, rp->runs,
		                      &rp->unreliable_runs);
	if (rc == 0)
		rc = results_json_int(in, p, "leaked_runs", false, 0, rp->runs, &rp->leaked_runs);
	if (rc == 0)
		rc = results_json_int(in, p, "ms", false, 0, RESULTS_JSON_COUNT_MAX, &rp->ms);
	if (rc == 0)
		rc = results_json_durations_read(in, p, &rp->durations);
	if (rc == 0)
		rc = results_json_read_debris(in, p, r, i);
	if (rc == 0)
		rc = results_json_int(in, p, "runs_after_debris", false, 0, rp->runs,
		                      &rp->runs_after_debris);
	if (rc == 0)
		rc = results_json_read_failure(in, p, "first_failure_outside_tests",
		                               &rp->first_outside);
	mp->build_ok = true;
	if (rc == 0 && build != NULL) {
		ok = cJSON_GetObjectItemCaseSensitive(build, "ok");
		if (!cJSON_IsObject(build) || !cJSON_IsBool(ok))
			return results_json_fail(
			    in, "build", _("expected an object with \"ok\": true or false"));
		mp->build_ok = cJSON_IsTrue(ok);
		results_json_push(in, "build", 0);
		rc = results_json_str(in, build, "output", false, &s);
		mp->build_output = xstrdup(s != NULL ? s : "");
		results_json_pop(in);
	}
	if (rc == 0 && (rc = results_json_str(in, p, "toolchain", false, &s)) == 0)
		mp->toolchain = results_json_dup(s);
	if (rc == 0 && (pin = cJSON_GetObjectItemCaseSensitive(p, "pinning")) != NULL) {
		if (!cJSON_IsObject(pin))
			return results_json_fail(in, "pinning", _("expected an object"));
		results_json_push(in, "pinning", 0);
		rc = results_json_str(in, pin, "cpuset", true, &s);
		if (rc == 0)
			rc = results_json_int(in, pin, "containers", true, 0,
			                      RESULTS_JSON_COUNT_MAX, &rp->pinned);
		if (rc == 0)
			rc = results_json_int(in, pin, "failed", true, 0, RESULTS_JSON_COUNT_MAX,
			                      &rp->pin_failed);
		if (rc == 0)
			rc = results_json_int(in, pin, "max_latency_ms", true, INT32_MIN,
			                      RESULTS_JSON_COUNT_MAX, &rp->pin_max_ms);
		if (rc == 0)
			rp->cpuset = xstrdup(s);
		results_json_pop(in);
	}
	return rc;
}

/* The index of the package of this name and level, added when the packages
 * do not list it. */
static int
results_json_pkg_of(struct results *r, const char *name, const char *level)
{
	size_t i;

	for (i = 0; i < r->npkgs; i++) {
		if (strcmp(r->pkgs[i].name, name) == 0 && strcmp(r->pkgs[i].level, level) == 0)
			return (int)i;
	}
	return results_add_pkg(r, name, level);
}

/* cells[].allocation: absent is none. */
static int
results_json_allocation(struct results_json_in *in, const cJSON *c, enum results_allocation *out)
{
	const char *s;
	int rc = results_json_str(in, c, "allocation", false, &s), a;

	for (a = RESULTS_ALLOC_MINIMUM; rc == 0 && s != NULL; a++) {
		if (a > RESULTS_ALLOC_STOPPED)
			return results_json_fail(in, "allocation",
			                         _("expected minimum, adaptive or stopped-early"));
		if (strcmp(s, results_allocation_name((enum results_allocation)a)) == 0) {
			*out = (enum results_allocation)a;
			break;
		}
	}
	return rc;
}

static int
results_json_read_cells(struct results_json_in *in, const cJSON *cells, struct results_test *t,
                        struct results *r)
{
	const cJSON *c;
	int rc = 0;

	if (!cJSON_IsArray(cells))
		return results_json_fail(in, "cells", _("expected an array of cells"));
	t->cells = xcalloc((size_t)cJSON_GetArraySize(cells) + 1, sizeof *t->cells);
	results_json_push(in, "cells", 0);
	cJSON_ArrayForEach(c, cells)
	{
		struct results_cell *x = &t->cells[t->ncells];

		results_json_push(in, NULL, t->ncells);
		if (!cJSON_IsObject(c))
			rc = results_json_fail(in, NULL, _("expected an object"));
		if (rc == 0)
			rc = results_json_pair(in, c, &x->phase, &x->cpu, &x->load);
		if (rc == 0)
			rc = results_json_int(in, c, "runs", true, 0, RESULTS_JSON_COUNT_MAX,
			                      &x->runs);
		if (rc == 0)
			rc = results_json_int(in, c, "failures", true, 0, x->runs, &x->failures);
		if (rc == 0)
			rc = results_json_int(in, c, "hangs", true, 0, x->runs - x->failures,
			                      &x->hangs);
		if (rc == 0)
			rc = results_json_int(in, c, "skipped", false, 0, RESULTS_JSON_COUNT_MAX,
			                      &x->skipped);
		if (rc == 0)
			rc = results_json_allocation(in, c, &x->allocation);
		if (rc == 0)
			rc = results_json_noise_in(in, c, &x->noise_ms, &x->noise_core_ms);
		if (rc == 0)
			rc = results_json_runs_in(in, c, "noisy", x, &x->noisy_runs, &x->noisy_bad);
		if (rc == 0)
			rc = results_json_runs_in(in, c, "overlapped", x, &x->overlapped_runs,
			                          &x->overlapped_bad);
		results_json_pop(in);
		if (rc < 0)
			break;
		r->failures += x->failures;
		r->hangs += x->hangs;
		t->ncells++;
	}
	results_json_pop(in);
	return rc;
}

/* tests[].cores: the runs pinned to each core; absent is none. */
static int
results_json_read_cores(struct results_json_in *in, const cJSON *cores, struct results_test *t)
{
	const cJSON *c;
	int rc = 0;

	if (cores == NULL)
		return 0;
	if (!cJSON_IsArray(cores))
		return results_json_fail(in, "cores", _("expected an array of cores"));
	t->cores = xcalloc((size_t)cJSON_GetArraySize(cores) + 1, sizeof *t->cores);
	results_json_push(in, "cores", 0);
	cJSON_ArrayForEach(c, cores)
	{
		struct results_core *x = &t->cores[t->ncores];
		int64_t core, cpu;

		results_json_push(in, NULL, t->ncores);
		if (!cJSON_IsObject(c))
			rc = results_json_fail(in, NULL, _("expected an object"));
		if (rc == 0)
			rc = results_json_int(in, c, "core", true, 0, 1 << 20, &core);
		if (rc == 0)
			rc = results_json_int(in, c, "cpu", true, 1, 1 << 20, &cpu);
		if (rc == 0)
			rc = results_json_int(in, c, "runs", true, 0, RESULTS_JSON_COUNT_MAX,
			                      &x->runs);
		if (rc == 0)
			rc = results_json_int(in, c, "failures", true, 0, x->runs, &x->failures);
		results_json_pop(in);
		if (rc < 0)
			break;
		x->core = (int)core;
		x->cpu = (int)cpu;
		t->ncores++;
	}
	results_json_pop(in);
	return rc;
}

/* tests[].polluter: what the polluter search found; absent is none made. */
static int
results_json_read_polluter(struct results_json_in *in, const cJSON *o, struct results_test *t)
{
	const char *test = NULL, *seed = NULL, *command = NULL;
	int64_t runs = 0, search;
	int rc;

	if (o == NULL)
		return 0;
	if (!cJSON_IsObject(o))
		return results_json_fail(in, "polluter", _("expected an object"));
	results_json_push(in, "polluter", 0);
	rc = results_json_str(in, o, "test", false, &test);
	if (rc == 0)
		rc = results_json_str(in, o, "seed", true, &seed);
	if (rc == 0)
		rc = results_json_int(in, o, "runs", true, 0, RESULTS_JSON_COUNT_MAX, &runs);
	if (rc == 0)
		rc = results_json_str(in, o, "reproduce", false, &command);
	search = runs;
	if (rc == 0 && cJSON_GetObjectItemCaseSensitive(o, "search_runs") != NULL)
		rc = results_json_int(in, o, "search_runs", true, runs, RESULTS_JSON_COUNT_MAX,
		                      &search);
	results_json_pop(in);
	if (rc == 0) {
		results_set_polluter(t, test, seed, command, runs);
		t->polluter->search_runs = search;
	}
	return rc;
}

/* tests[].polluters: every polluter found, the first as in polluter; absent
 * in older files. */
static int
results_json_read_polluters(struct results_json_in *in, const cJSON *list, struct results_test *t)
{
	const char *test, *seed, *command;
	const cJSON *o;
	int i = 0, rc = 0;

	if (list == NULL)
		return 0;
	if (!cJSON_IsArray(list) || t->polluter == NULL)
		return results_json_fail(in, "polluters",
		                         _("expected an array of objects, beside a polluter"));
	results_json_push(in, "polluters", 0);
	cJSON_ArrayForEach(o, list)
	{
		results_json_push(in, NULL, i);
		rc = cJSON_IsObject(o) ? 0 : results_json_fail(in, NULL, _("expected an object"));
		if (rc == 0)
			rc = results_json_str(in, o, "test", true, &test);
		if (rc == 0)
			rc = results_json_str(in, o, "seed", true, &seed);
		if (rc == 0)
			rc = results_json_str(in, o, "reproduce", false, &command);
		results_json_pop(in);
		if (rc < 0)
			break;
		if (i++ > 0)
			results_add_polluter(t, test, seed, command);
	}
	results_json_pop(in);
	return rc;
}

/* tests[].channels: the ambient channels its runs read; absent is none. */
static int
results_json_read_channels(struct results_json_in *in, const cJSON *channels,
                           struct results_test *t)
{
	const cJSON *c;
	size_t n = 0;

	if (channels == NULL || cJSON_IsNull(channels))
		return 0;
	if (!cJSON_IsArray(channels))
		return results_json_fail(in, "channels", _("expected an array of strings"));
	t->channels = xcalloc(1, sizeof *t->channels);
	cJSON_ArrayForEach(c, channels)
	{
		if (!cJSON_IsString(c))
			return results_json_fail(in, "channels", _("expected an array of strings"));
		util_strv_add(&t->channels, &n, c->valuestring);
	}
	return 0;
}

/* A cascade read back: the recorded root becomes the one candidate, and
 * the sweep failures are what its cells say, so results_cascade() says
 * again what the file said. */
static int
results_json_cascades(struct results_json_in *in, struct results *r, const struct results_meta *m)
{
	size_t i, j;
	int k;

	for (i = 0; i < r->ntests; i++) {
		struct results_test *t = &r->tests[i];

		for (k = 0; k < t->ncells; k++) {
			if (t->cells[k].phase == RESULTS_SWEEP)
				t->sweep_bad += t->cells[k].failures + t->cells[k].hangs;
		}
		if (m->tests[i].cascade_of == NULL)
			continue;
		for (j = 0; j < r->ntests; j++) {
			if (r->tests[j].pkg == t->pkg &&
			    strcmp(r->tests[j].test, m->tests[i].cascade_of) == 0)
				break;
		}
		if (j == r->ntests) {
			results_json_push(in, "tests", 0);
			results_json_push(in, NULL, (int)i);
			k = results_json_fail(in, "cascade_of",
			                      _("expected a test of the same package"));
			results_json_pop(in);
			results_json_pop(in);
			return k;
		}
		t->candidates[0] = (long)j;
		t->ncandidates = 1;
	}
	return 0;
}

/* tests[].first_failure.lines unsanitised, for a reader that cleans each
 * line itself (read_failure has checked them). */
static char **
results_json_raw_lines(const cJSON *t)
{
	const cJSON *lines = cJSON_GetObjectItemCaseSensitive(
	                cJSON_GetObjectItemCaseSensitive(t, "first_failure"), "lines"),
	            *l;
	char **v = NULL;
	size_t n = 0;

	if (cJSON_IsArray(lines)) {
		cJSON_ArrayForEach(l, lines)
		{
			util_strv_add(&v, &n, l->valuestring);
		}
	} else if (cJSON_IsString(lines)) {
		const char *p = lines->valuestring;

		while (*p != '\0') {
			size_t len = strcspn(p, "\n");
			char *line = xstrndup(p, len);

			util_strv_add(&v, &n, line);
			free(line);
			p += len + (p[len] == '\n');
		}
	}
	return v;
}

static int
results_json_read_test(struct results_json_in *in, const cJSON *t, struct results *r,
                       struct results_meta_test *mt)
{
	const cJSON *rep = cJSON_GetObjectItemCaseSensitive(t, "reproduce");
	const cJSON *q = cJSON_GetObjectItemCaseSensitive(t, "quarantined");
	const cJSON *prov = cJSON_GetObjectItemCaseSensitive(t, "provisional");
	const char *id, *pkg, *name, *level, *s;
	struct results_test *x;
	int rc;

	if (!cJSON_IsObject(t))
		return results_json_fail(in, NULL, _("expected an object"));
	rc = results_json_str(in, t, "id", true, &id);
	if (rc == 0)
		rc = results_json_str(in, t, "package", true, &pkg);
	if (rc == 0)
		rc = results_json_str(in, t, "test", true, &name);
	if (rc == 0)
		rc = results_json_str(in, t, "level", true, &level);
	if (rc < 0)
		return rc;
	if (results_find(r, id) != NULL)
		return results_json_fail(in, "id", _("the same test is listed twice"));
	x = results_add_test(r, results_json_pkg_of(r, pkg, level), id, name);
	rc = results_json_read_cells(in, cJSON_GetObjectItemCaseSensitive(t, "cells"), x, r);
	if (rc == 0)
		rc = results_json_check_cells(in, x);
	if (rc == 0)
		rc = results_json_read_failure(in, t, "first_failure", &x->first);
	if (rc == 0)
		mt->first_lines = results_json_raw_lines(t);
	if (rc == 0 && cJSON_IsObject(rep)) {
		results_json_push(in, "reproduce", 0);
		rc = results_json_str(in, rep, "flakesweep", true, &s);
		mt->reproduce_flakesweep = results_json_dup(s);
		if (rc == 0)
			rc = results_json_str(in, rep, "direct", true, &s);
		mt->reproduce_direct = results_json_dup(s);
		results_json_pop(in);
	} else if (rc == 0 && rep != NULL && !cJSON_IsNull(rep)) {
		rc = results_json_fail(in, "reproduce", _("expected an object or null"));
	}
	if (rc == 0 && q != NULL && !cJSON_IsBool(q))
		rc = results_json_fail(in, "quarantined", _("expected true or false"));
	mt->quarantined = cJSON_IsTrue(q);
	if (rc == 0 && prov != NULL && !cJSON_IsBool(prov))
		rc = results_json_fail(in, "provisional", _("expected true or false"));
	mt->provisional = cJSON_IsTrue(prov);
	if (rc == 0)
		rc = results_json_read_cores(in, cJSON_GetObjectItemCaseSensitive(t, "cores"), x);
	if (rc == 0)
		rc = results_json_read_polluter(in, cJSON_GetObjectItemCaseSensitive(t, "polluter"),
		                                x);
	if (rc == 0)
		rc = results_json_read_polluters(
		    in, cJSON_GetObjectItemCaseSensitive(t, "polluters"), x);
	if (rc == 0)
		rc = results_json_read_channels(in, cJSON_GetObjectItemCaseSensitive(t, "channels"),
		                                x);
	if (rc == 0 && (rc = results_json_str(in, t, "cascade_of", false, &s)) == 0)
		mt->cascade_of = results_json_dup(s);
	if (rc == 0 && (rc = results_json_str(in, t, "class", false, &s)) == 0)
		mt->klass = classify_parse(s);
	if (rc == 0 && s != NULL && mt->klass == CLASSIFY_NONE)
		rc = results_json_fail(in, "class",
		                       _("expected a class (man 1 flakesweep) or null"));
	if (rc == 0 && (rc = results_json_str(in, t, "class_channel", false, &s)) == 0)
		mt->class_channel = results_json_dup(s);
	return rc;
}

/* Reads the top-level fields; meta is filled even when NULL was asked. */
static int
results_json_read_doc(struct results_json_in *in, const cJSON *root, struct results *r,
                      struct results_meta *m)
{
	static const char *const objects[] = {"machine", "project", "config"};
	const cJSON *machine, *project, *lanes, *v;
	const char *s;
	int64_t n;
	int rc, i;

	if (!cJSON_IsObject(root))
		return results_json_fail(in, NULL, _("expected a JSON object"));
	rc = results_json_str(in, root, "schema", true, &s);
	if (rc == 0 && strcmp(s, RESULTS_JSON_SCHEMA) != 0) {
		char *what = xasprintf(_("expected \"%s\""), RESULTS_JSON_SCHEMA);

		rc = results_json_fail(in, "schema", what);
		free(what);
	}
	if (rc == 0 && (rc = results_json_str(in, root, "status", false, &s)) == 0)
		m->status = results_json_dup(s);
	if (rc == 0 && (rc = results_json_str(in, root, "started", false, &s)) == 0 && s != NULL &&
	    timefmt_parse_time(s, &m->started_ms) < 0)
		rc = results_json_fail(in, "started",
		                       _("expected a time like 2026-11-30T02:14:00Z"));
	if (rc == 0 && (rc = results_json_str(in, root, "finished", false, &s)) == 0 && s != NULL &&
	    timefmt_parse_time(s, &m->finished_ms) < 0)
		rc = results_json_fail(in, "finished",
		                       _("expected a time like 2026-11-30T02:14:00Z"));
	if (rc < 0)
		return rc;
	machine = cJSON_GetObjectItemCaseSensitive(root, "machine");
	project = cJSON_GetObjectItemCaseSensitive(root, "project");
	for (i = 0; i < 3; i++) {
		v = cJSON_GetObjectItemCaseSensitive(root, objects[i]);
		if (v != NULL && !cJSON_IsObject(v))
			return results_json_fail(in, objects[i], _("expected an object"));
	}
	m->machine = machine != NULL ? cJSON_Duplicate(machine, 1) : NULL;
	m->project = project != NULL ? cJSON_Duplicate(project, 1) : NULL;
	v = cJSON_GetObjectItemCaseSensitive(root, "config");
	m->config = v != NULL ? cJSON_Duplicate(v, 1) : NULL;
	results_json_push(in, "project", 0);
	if ((rc = results_json_str(in, project, "driver", false, &s)) == 0)
		m->driver = results_json_dup(s);
	if (rc == 0 && (rc = results_json_str(in, project, "root", false, &s)) == 0)
		m->root = results_json_dup(s);
	if (rc == 0 && (rc = results_json_str(in, project, "commit", false, &s)) == 0)
		m->commit = results_json_dup(s);
	if (rc == 0 && (rc = results_json_str(in, project, "toolchain", false, &s)) == 0)
		m->toolchain = results_json_dup(s);
	results_json_pop(in);
	results_json_push(in, "machine", 0);
	if (rc == 0 && (rc = results_json_int(in, machine, "cores", false, 0, 1 << 20, &n)) == 0)
		m->cores = (int)n;
	if (rc == 0 && (rc = results_json_int(in, machine, "keep", false, 0, 1 << 20, &n)) == 0)
		m->keep = (int)n;
	lanes = cJSON_GetObjectItemCaseSensitive(machine, "lanes");
	if (rc == 0 && lanes != NULL && !cJSON_IsArray(lanes))
		rc = results_json_fail(in, "lanes", _("expected an array of lanes"));
	if (rc == 0)
		rc = results_json_noise_in(in, machine, &r->noise_ms, &r->noise_core_ms);
	m->nlanes = cJSON_GetArraySize(lanes);
	m->lane_width = cJSON_GetArraySize(cJSON_GetArrayItem(lanes, 0));
	results_json_pop(in);
	return rc;
}

static int
results_json_read(struct results_json_in *in, const cJSON *root, struct results *r,
                  struct results_meta *m)
{
	const cJSON *pkgs, *tests, *x;
	int rc = results_json_read_doc(in, root, r, m);
	size_t i = 0;

	if (rc < 0)
		return rc;
	pkgs = cJSON_GetObjectItemCaseSensitive(root, "packages");
	tests = cJSON_GetObjectItemCaseSensitive(root, "tests");
	if (pkgs != NULL && !cJSON_IsArray(pkgs))
		return results_json_fail(in, "packages", _("expected an array"));
	if (!cJSON_IsArray(tests))
		return results_json_fail(in, "tests", _("expected an array of tests"));
	/* Tests may name packages the list lacks: room for one each. */
	m->pkgs = xcalloc((size_t)(cJSON_GetArraySize(pkgs) + cJSON_GetArraySize(tests)) + 1,
	                  sizeof *m->pkgs);
	m->tests = xcalloc((size_t)cJSON_GetArraySize(tests) + 1, sizeof *m->tests);
	results_json_push(in, "packages", 0);
	cJSON_ArrayForEach(x, pkgs)
	{
		results_json_push(in, NULL, (int)i++);
		rc = results_json_read_pkg(in, x, r, &m->pkgs[r->npkgs]);
		results_json_pop(in);
		if (rc < 0)
			return rc;
		r->runs += r->pkgs[r->npkgs - 1].runs;
	}
	results_json_pop(in);
	results_json_push(in, "tests", 0);
	i = 0;
	cJSON_ArrayForEach(x, tests)
	{
		results_json_push(in, NULL, (int)i);
		rc = results_json_read_test(in, x, r, &m->tests[i++]);
		results_json_pop(in);
		if (rc < 0)
			return rc;
	}
	results_json_pop(in);
	rc = results_json_cascades(in, r, m);
	if (rc < 0)
		return rc;
	x = cJSON_GetObjectItemCaseSensitive(root, "harness");
	if (x != NULL) {
		const char *field;
		char *what;

		results_json_push(in, "harness", 0);
		rc = harness_from_json(&r->harness, x, &field, &what);
		if (rc < 0)
			results_json_fail(in, field, what);
		results_json_pop(in);
		free(what);
		if (rc < 0)
			return rc;
	}
	for (i = 0; i < r->npkgs; i++) {
		if (m->pkgs[i].build_output == NULL) {
			m->pkgs[i].build_ok = true;
			m->pkgs[i].build_output = xstrdup("");
		}
	}
	return 0;
}

int
results_load(const char *path, struct results **out, struct results_meta *meta, char **err)
{
	return results_load_flags(path, 0, out, meta, err);
}

int
results_load_flags(const char *path, unsigned flags, struct results **out,
                   struct results_meta *meta, char **err)
{
	struct results_json_in in = {.path = path};
	struct results_meta m;
	struct results *r = NULL;
	const char *end = NULL;
	char *text = NULL;
	cJSON *root = NULL;
	size_t len = 0;
	int rc;

	*out = NULL;
	*err = NULL;
	memset(&m, 0, sizeof m);
	rc = util_read_file(path, RESULTS_JSON_MAX, &text, &len);
	if (rc < 0) {
		*err = xasprintf(_("cannot read %s: %s"), path, strerror(-rc));
		return rc;
	}
	/* len + 1 takes in the NUL, so trailing garbage is refused. */
	root = json_parse(text, len + 1, &end, true);
	if (root == NULL) {
		const char *p, *bol = text;
		int line = 1;

		if (end == NULL || end < text || end > text + len)
			end = text + len;
		for (p = text; p < end; p++) {
			if (*p == '\n') {
				line++;
				bol = p + 1;
			}
		}
		*err = xasprintf(_("%s:%d:%d: invalid JSON"), path, line, (int)(end - bol) + 1);
		rc = -EBADMSG;
		goto out;
	}
	m.simulated = journal_header_simulated(root);
	if (m.simulated && !(flags & RESULTS_LOAD_SIMULATED)) {
		*err = journal_simulated_refusal(path);
		rc = -EPERM;
		goto out;
	}
	in.text = text;
	r = results_new();
	rc = results_json_read(&in, root, r, &m);
	m.npkgs = r->npkgs;
	m.ntests = r->ntests;
	if (rc < 0) {
		*err = in.err;
		results_free(r);
		results_meta_free(&m);
		goto out;
	}
	*out = r;
	if (meta != NULL)
		*meta = m;
	else
		results_meta_free(&m);
out:
	cJSON_Delete(root);
	free(text);
	return rc;
}

void
results_meta_free(struct results_meta *m)
{
	size_t i;

	if (m == NULL)
		return;
	for (i = 0; m->pkgs != NULL && i < m->npkgs; i++) {
		free(m->pkgs[i].build_output);
		free(m->pkgs[i].toolchain);
	}
	for (i = 0; m->tests != NULL && i < m->ntests; i++) {
		free(m->tests[i].reproduce_flakesweep);
		free(m->tests[i].reproduce_direct);
		free(m->tests[i].cascade_of);
		free(m->tests[i].class_channel);
		util_strv_free(m->tests[i].first_lines);
	}
	free(m->pkgs);
	free(m->tests);
	free(m->status);
	free(m->driver);
	free(m->root);
	free(m->commit);
	free(m->toolchain);
	cJSON_Delete(m->machine);
	cJSON_Delete(m->project);
	cJSON_Delete(m->config);
	memset(m, 0, sizeof *m);
}
