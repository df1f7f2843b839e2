/* SPDX-License-Identifier: MIT */
/*
 * journal-decode.c: the values of one journal line: a run line into a
 * journal_run and an outcome, a build line into a pkg, the header's
 * schema. Every value is checked against the rules the command line
 * applies, and a refusal names the line's kind and the field.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/journal.h"
#include "results/journal-int.h"
#include "base/util.h"

const char *
journal_str(const cJSON *obj, const char *key)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static bool
journal_num(const cJSON *obj, const char *key, double *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	if (!cJSON_IsNumber(v))
		return false;
	*out = v->valuedouble;
	return true;
}

int
journal_decode_int(const cJSON *line, const char *key, int64_t min, int64_t max, bool required,
                   int64_t *out, char **why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(line, key);

	/* Compared as doubles first: casting an out-of-range double to an
	 * integer is undefined. */
	if (v == NULL && !required)
		return 0;
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= (double)min) ||
	    !(v->valuedouble <= (double)max) || v->valuedouble != (double)(int64_t)v->valuedouble) {
		*why = xasprintf(_("%s line: %s: expected a whole number from %lld to %lld"),
		                 journal_line_type(line), key, (long long)min, (long long)max);
		return -EINVAL;
	}
	*out = (int64_t)v->valuedouble;
	return 0;
}

/* A run line's true or false member key: dflt when absent, refused when
 * anything but true or false. */
static int
journal_decode_bool(const cJSON *line, const char *key, bool dflt, bool *out, char **why)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(line, key);

	if (v != NULL && !cJSON_IsBool(v)) {
		*why = xasprintf(_("%s line: %s: expected true or false"), journal_line_type(line),
		                 key);
		return -EINVAL;
	}
	*out = v != NULL ? cJSON_IsTrue(v) : dflt;
	return 0;
}

char *
journal_schema_error(const cJSON *header)
{
	const char *schema = journal_str(header, "schema");

	if (schema != NULL && strcmp(schema, JOURNAL_SCHEMA) == 0)
		return NULL;
	if (schema == NULL)
		return xasprintf(_("schema: missing (expected %s)"), JOURNAL_SCHEMA);
	return xasprintf(_("schema: \"%s\" is not a journal this flakesweep reads (expected %s)"),
	                 schema, JOURNAL_SCHEMA);
}

const char *
journal_line_type(const cJSON *line)
{
	const char *t = journal_str(line, "type");

	return t != NULL ? t : "";
}

static char *
journal_dup(const cJSON *obj, const char *key)
{
	const char *s = journal_str(obj, key);

	return s != NULL ? xstrdup(s) : NULL;
}

static void
journal_add_names(struct outcome *o, const cJSON *line, const char *key, enum outcome_status status)
{
	const cJSON *lines = cJSON_GetObjectItemCaseSensitive(line, "lines"), *v;
	const cJSON *reasons = cJSON_GetObjectItemCaseSensitive(line, "reasons");

	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, key))
	{
		struct outcome_test *t;

		if (!cJSON_IsString(v))
			continue;
		t = outcome_add(o, xstrdup(v->valuestring), status,
		                journal_dup(lines, v->valuestring));
		t->reason = journal_dup(reasons, v->valuestring);
	}
}

/* Adds the tests of set s, passed or skipped, to o. */
static void
journal_set_outcome(const struct journal_set *s, struct outcome *o)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		outcome_add(o, xstrdup(s->order[i] + 1),
		            s->order[i][0] == 'P' ? OUTCOME_PASS : OUTCOME_SKIP, NULL);
}

void
journal_fast_outcome(struct journal_reader *reader, const struct journal_fast *l, struct outcome *o)
{
	journal_set_outcome(&reader->sets[(size_t)l->set], o);
}

int
journal_decode_run(struct journal_reader *reader, const cJSON *line, struct journal_run *jr,
                   struct outcome *o, char **why)
{
	const char *phase = journal_str(line, "phase");
	int64_t run = 0, pkg = 0, cpu = 0, load = 0, lane = 0, ms = 0, ex = 0, sig = 0, set = 0;
	const cJSON *v;

	memset(jr, 0, sizeof *jr);
	*why = NULL;
	/* The same bounds as the command line (--cpu, --load): anything else
	 * was not written by a sweep. */
	if (journal_decode_int(line, "run", 1, JOURNAL_NUM_MAX, true, &run, why) < 0 ||
	    journal_decode_int(line, "pkg", 0, JOURNAL_PKG_MAX, true, &pkg, why) < 0 ||
	    journal_decode_int(line, "cpu", 1, UTIL_LIST_MAX, true, &cpu, why) < 0 ||
	    journal_decode_int(line, "load", 1, UTIL_LIST_MAX, true, &load, why) < 0 ||
	    journal_decode_int(line, "lane", 0, UTIL_LIST_MAX, false, &lane, why) < 0 ||
	    journal_decode_int(line, "ms", 0, JOURNAL_NUM_MAX, false, &ms, why) < 0 ||
	    journal_decode_int(line, "exit", INT32_MIN, INT32_MAX, false, &ex, why) < 0 ||
	    journal_decode_int(line, "signal", 0, 255, false, &sig, why) < 0 ||
	    journal_decode_int(line, "set", 0, JOURNAL_NUM_MAX, false, &set, why) < 0 ||
	    journal_decode_int(line, "began", 1, JOURNAL_NUM_MAX, false, &jr->began, why) < 0 ||
	    journal_decode_int(line, "ended", jr->began > 0 ? jr->began : 1, JOURNAL_NUM_MAX, false,
	                       &jr->ended, why) < 0 ||
	    journal_decode_bool(line, "timed_out", false, &jr->exit.timed_out, why) < 0 ||
	    journal_decode_bool(line, "leaked", false, &jr->leaked, why) < 0 ||
	    journal_decode_bool(line, "overlapped", reader->overlapped, &jr->overlapped, why) < 0 ||
	    journal_decode_bool(line, "after_debris", false, &jr->after_debris, why) < 0)
		return -EINVAL;
	/* Lines since the sweep's phase went unsaid leave it out. */
	if (cJSON_GetObjectItemCaseSensitive(line, "phase") == NULL)
		phase = results_phase_name(RESULTS_SWEEP);
	if (phase == NULL || results_phase_parse(phase) < 0) {
		*why = xstrdup(_("run line: phase: expected \"sweep\", \"confirm\" or \"alone\""));
		return -EINVAL;
	}
	jr->run = run;
	jr->pkg = (int)pkg;
	jr->phase = results_phase_parse(phase);
	jr->cpu = (int)cpu;
	jr->load = (int)load;
	jr->lane = (int)lane;
	jr->ms = ms;
	jr->exit.status = (int)ex;
	jr->exit.signal = (int)sig;
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "debris"))
	{
		const char *path = journal_str(v, "path");
		double first;

		if (path == NULL || !journal_num(v, "run", &first) || first < 1 ||
		    first > JOURNAL_NUM_MAX) {
			*why = xstrdup(_("run line: debris: expected objects with \"path\" and "
			                 "\"run\""));
			return -EINVAL;
		}
		if (jr->ndebris < JOURNAL_DEBRIS_MAX) {
			jr->debris[jr->ndebris] = path;
			jr->debris_run[jr->ndebris++] = (int64_t)first;
		}
	}
	jr->has_noise =
	    journal_num(line, "noise", &jr->noise) && journal_num(line, "noise_ms", &jr->noise_ms);
	jr->log = journal_str(line, "log");
	jr->selected = journal_str(line, "test");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "cores"))
	{
		if (!cJSON_IsNumber(v) || v->valuedouble < 0)
			return -EINVAL;
		if (jr->ncores < JOURNAL_CORES_MAX)
			jr->cores[jr->ncores++] = v->valueint;
	}
	if (set > 0) {
		if ((size_t)set >= reader->nsets || reader->sets[(size_t)set].order == NULL) {
			*why = xasprintf(_("run line: set: no set line with id %lld before it"),
			                 (long long)set);
			return -EINVAL;
		}
		if (journal_str(line, "seed") != NULL)
			journal_reader_forget(reader, set);
		journal_set_outcome(&reader->sets[(size_t)set], o);
	}
	journal_add_names(o, line, "fail", OUTCOME_FAIL);
	journal_add_names(o, line, "hang", OUTCOME_HANG);
	o->seed = journal_dup(line, "seed");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "channels"))
	{
		struct outcome_test *t = v->string != NULL ? outcome_find(o, v->string) : NULL;
		const cJSON *c;
		size_t n = 0;

		cJSON_ArrayForEach(c, v)
		{
			if (t != NULL && cJSON_IsString(c))
				util_strv_add(&t->channels, &n, c->valuestring);
		}
	}
	if (journal_str(line, "package_failed") != NULL) {
		size_t n = 0;

		o->package_failed = true;
		o->package_reason = journal_dup(line, "package_failed");
		o->package_lines = journal_dup(line, "package_lines");
		cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "candidates"))
		{
			if (cJSON_IsString(v))
				util_strv_add(&o->candidates, &n, v->valuestring);
		}
	}
	if (journal_str(line, "unreliable") != NULL) {
		o->unreliable = true;
		o->unreliable_reason = journal_dup(line, "unreliable");
	}
	o->selection_failed =
	    cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "selection_failed"));
	return 0;
}

int
journal_decode_build(const cJSON *line, struct pkg **out, int *idx, char **why)
{
	const char *name = journal_str(line, "package"), *level = journal_str(line, "level");
	const char *dir = journal_str(line, "dir");
	struct pkg *p;
	int64_t n = 0;
	const cJSON *v;

	*why = NULL;
	if (journal_decode_int(line, "pkg", 0, JOURNAL_PKG_MAX, true, &n, why) < 0)
		return -EINVAL;
	if (name == NULL || level == NULL || dir == NULL) {
		*why = xasprintf(_("build line: %s: expected a string"), name == NULL    ? "package"
		                                                         : level == NULL ? "level"
		                                                                         : "dir");
		return -EINVAL;
	}
	p = xcalloc(1, sizeof *p);
	p->name = xstrdup(name);
	p->level = xstrdup(level);
	p->dir = xstrdup(dir);
	p->binary = journal_dup(line, "binary");
	p->build_ok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "ok"));
	p->empty = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "empty"));
	p->build_output = journal_dup(line, "output");
	p->toolchain = journal_dup(line, "toolchain");
	p->framing_marker = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(line, "framing_marker"));
	p->run_filter = journal_dup(line, "run_filter");
	cJSON_ArrayForEach(v, cJSON_GetObjectItemCaseSensitive(line, "tests"))
	{
		if (cJSON_IsString(v))
			util_strv_add(&p->tests, &p->ntests, v->valuestring);
	}
	*out = p;
	*idx = (int)n;
	return 0;
}
