/* SPDX-License-Identifier: MIT */
/*
 * results-json.c: results.json both ways. The writer lists every test that
 * ran, passed ones too, so a rate of zero has its denominator. The reader
 * parses once, checks each value where it is read and, on a bad one, finds
 * its line by walking the text along the path of keys and indexes it
 * followed (cJSON keeps no positions).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/driver.h"
#include "engine/noise.h"
#include "results/causes.h"
#include "results/report-keep.h"
#include "results/interference.h"
#include "results/results-json-check.h"
#include "results/results-json-durations.h"
#include "results/results-json.h"
#include "base/json.h"
#include "base/jsonw.h"
#include "base/sanitize.h"
#include "base/timefmt.h"
#include "base/util.h"

/* ---- Writing ---- */

/* The package's debris, each entry's path and the run after which it was
 * first seen, and the runs that started with debris there. */
static void
results_json_debris(struct jsonw *w, const struct results_pkg *p)
{
	size_t i;

	jsonw_array(w, "debris");
	for (i = 0; i < p->ndebris; i++) {
		jsonw_object(w, NULL);
		jsonw_str(w, "path", p->debris[i].path);
		jsonw_int(w, "run", p->debris[i].run);
		jsonw_end(w);
	}
	jsonw_end(w);
	jsonw_int(w, "runs_after_debris", p->runs_after_debris);
}

static void
results_json_failure(struct jsonw *w, const char *key, const struct results_failure *f)
{
	const char *p;

	jsonw_object(w, key);
	jsonw_str(w, "phase", results_phase_name(f->phase));
	jsonw_int(w, "cpu", f->cpu);
	jsonw_int(w, "load", f->load);
	jsonw_str(w, "seed", f->seed);
	jsonw_array(w, "lines");
	for (p = f->lines; p != NULL && *p != '\0';) {
		const char *nl = strchr(p, '\n');
		size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);

		jsonw_strn(w, NULL, p, n);
		p += n + (nl != NULL);
	}
	jsonw_end(w);
	if (f->reason != NULL)
		jsonw_str(w, "reason", f->reason);
	jsonw_str(w, "log", f->log);
	jsonw_int(w, "run", f->run);
	jsonw_end(w);
}

/* tests[].cores and tests[].core_concentration (man 5 flakesweep). */
static void
results_json_cores(struct jsonw *w, const struct results_test *t)
{
	const struct results_core *c;
	int64_t runs, bad;
	double p;
	int i;

	jsonw_array(w, "cores");
	for (i = 0; i < t->ncores; i++) {
		jsonw_object(w, NULL);
		jsonw_int(w, "core", t->cores[i].core);
		jsonw_int(w, "cpu", t->cores[i].cpu);
		jsonw_int(w, "runs", t->cores[i].runs);
		jsonw_int(w, "failures", t->cores[i].failures);
		jsonw_end(w);
	}
	jsonw_end(w);
	if (!results_core_concentration(t, &c, &runs, &bad, &p)) {
		jsonw_null(w, "core_concentration");
		return;
	}
	jsonw_object(w, "core_concentration");
	jsonw_int(w, "core", c->core);
	jsonw_int(w, "cpu", c->cpu);
	jsonw_int(w, "runs", c->runs);
	jsonw_int(w, "failures", c->failures);
	jsonw_int(w, "other_runs", runs - c->runs);
	jsonw_int(w, "other_failures", bad - c->failures);
	jsonw_num(w, "p", p);
	jsonw_end(w);
}

/* tests[].cascades (the tests that failed only after this one) and
 * tests[].cascade_of (the root, for a cascade). */
static void
results_json_cascade(struct jsonw *w, const struct report_derived *o, const struct results_test *t)
{
	size_t i;

	jsonw_array(w, "cascades");
	for (i = 0; i < o->ncascades; i++) {
		const struct results_test *c = o->cascades[i];

		if (c->pkg == t->pkg && strcmp(results_cascade_root(c), t->test) == 0)
			jsonw_str(w, NULL, c->test);
	}
	jsonw_end(w);
	jsonw_str(w, "cascade_of", results_cascade(t) ? results_cascade_root(t) : NULL);
}

/* "noise": the share of the cores' time other processes took, or null
 * when no run was measured (an old journal). */
static void
results_json_noise(struct jsonw *w, double other_ms, double core_ms)
{
	double share = noise_share(other_ms, core_ms);

	if (share < 0)
		jsonw_null(w, "noise");
	else
		jsonw_num(w, "noise", round(share * 1000) / 1000);
}

static void
results_json_cell(struct jsonw *w, const struct results_cell *c)
{
	double lo, hi;

	jsonw_object(w, NULL);
	jsonw_str(w, "phase", results_phase_name(c->phase));
	jsonw_int(w, "cpu", c->cpu);
	jsonw_int(w, "load", c->load);
	jsonw_int(w, "runs", c->runs);
	jsonw_int(w, "failures", c->failures);
	jsonw_int(w, "hangs", c->hangs);
	if (c->skipped > 0)
		jsonw_int(w, "skipped", c->skipped);
	results_wilson(c->failures + c->hangs, c->runs, &lo, &hi);
	jsonw_num(w, "rate_low", round(lo * 1e6) / 1e6);
	jsonw_num(w, "rate_high", round(hi * 1e6) / 1e6);
	results_json_noise(w, c->noise_ms, c->noise_core_ms);
	if (c->noisy_runs > 0) {
		jsonw_object(w, "noisy");
		jsonw_int(w, "runs", c->noisy_runs);
		jsonw_int(w, "failures", c->noisy_bad);
		jsonw_end(w);
	}
	if (c->overlapped_runs > 0) {
		jsonw_object(w, "overlapped");
		jsonw_int(w, "runs", c->overlapped_runs);
		jsonw_int(w, "failures", c->overlapped_bad);
		jsonw_end(w);
	}
	jsonw_end(w);
}

/* Writes a tree another module made and frees it; NULL writes nothing. */
static void
results_json_tree(struct jsonw *w, const char *key, cJSON *tree)
{
	if (tree != NULL)
		jsonw_cjson(w, key, tree);
	cJSON_Delete(tree);
}

/* tests[] item of t, left open: every member but "quarantine", whose
 * countdown changes with the clock. */
static void
results_json_test_open(struct jsonw *w, const struct results *r, const struct results_test *t,
                       const struct report_meta *m, const struct report_derived *o,
                       bool provisional)
{
	const struct results_pkg *p = &r->pkgs[t->pkg];
	const struct results_cell *worst;
	int i;

	jsonw_object(w, NULL);
	jsonw_str(w, "id", t->id);
	jsonw_str(w, "package", p->name);
	jsonw_str(w, "test", t->test);
	jsonw_str(w, "level", p->level);
	jsonw_str(w, "verdict", results_verdict_name(results_verdict(t)));
	jsonw_array(w, "cells");
	for (i = 0; i < t->ncells; i++)
		results_json_cell(w, &t->cells[i]);
	jsonw_end(w);
	if (t->first != NULL)
		results_json_failure(w, "first_failure", t->first);
	else
		jsonw_null(w, "first_failure");
	worst = results_worst_cell(t);
	if (worst != NULL && m->reproduce != NULL) {
		char *fs = NULL, *direct = NULL;

		m->reproduce(m->arg, t, worst, &fs, &direct);
		jsonw_object(w, "reproduce");
		jsonw_str(w, "flakesweep", fs != NULL ? fs : "");
		jsonw_str(w, "direct", direct != NULL ? direct : "");
		jsonw_end(w);
		free(fs);
		free(direct);
	} else {
		jsonw_null(w, "reproduce");
	}
	jsonw_bool(w, "quarantined",
	           m->quarantine != NULL && quarantine_has_test(m->quarantine, t->id));
	jsonw_bool(w, "order_dependent", results_order_dependent(t));
	jsonw_bool(w, "provisional", provisional);
	results_json_tree(w, "interference", interference_json(t));
	results_json_tree(w, "causes", causes_json(o->causes, (size_t)(t - r->tests)));
	results_json_cores(w, t);
	results_json_cascade(w, o, t);
	if (t->polluter != NULL) {
		jsonw_object(w, "polluter");
		jsonw_str(w, "test", t->polluter->test);
		jsonw_str(w, "seed", t->polluter->seed);
		jsonw_int(w, "runs", t->polluter->runs);
		jsonw_str(w, "reproduce", t->polluter->command);
		jsonw_end(w);
	}
	if (t->channels != NULL) {
		jsonw_array(w, "channels");
		for (i = 0; t->channels[i] != NULL; i++)
			jsonw_str(w, NULL, t->channels[i]);
		jsonw_end(w);
	}
}

/* The rest of t's item: its quarantine entries, judged at m->now_ms
 * (none when quarantined is false). */
static void
results_json_test_close(struct jsonw *w, const struct results_test *t, const struct report_meta *m,
                        bool quarantined)
{
	if (m->quarantine != NULL && quarantined)
		quarantine_test_write(w, "quarantine", m->quarantine, t->id, m->now_ms);
	jsonw_end(w);
}

/* tests[i]: the text the last rewrite kept when nothing it is made of
 * changed since (report_keep_derive), else written anew and kept. */
static void
results_json_test_at(struct jsonw *w, const struct results *r, size_t i,
                     const struct report_meta *m, const struct report_derived *o,
                     struct buf *scratch)
{
	const struct results_test *t = &r->tests[i];
	struct report_kept *e;
	struct jsonw one;

	if (m->cache == NULL) {
		results_json_test_open(w, r, t, m, o,
		                       strcmp(m->status, "complete") != 0 &&
		                           (m->provisional == NULL || m->provisional(m->arg, t)));
		results_json_test_close(w, t, m, true);
		return;
	}
	e = report_keep_at(m->cache, i);
	if (e->json == NULL) {
		buf_reset(scratch);
		jsonw_init_item(&one, scratch, w->depth);
		results_json_test_open(&one, r, t, m, o, report_keep_provisional(m->cache, i));
		e->json_len = scratch->len;
		e->json = xmalloc(e->json_len + 1);
		memcpy(e->json, scratch->data, e->json_len + 1);
	}
	jsonw_reopen(w, NULL, e->json, e->json_len);
	results_json_test_close(w, t, m, e->quarantined);
}

static void
results_json_pkg(struct jsonw *w, const struct results_pkg *p, const struct pkg *dp,
                 const struct levels *levels)
{
	jsonw_object(w, NULL);
	jsonw_str(w, "package", p->name);
	jsonw_str(w, "level", p->level);
	jsonw_str(w, "kind", driver_level_kind(levels, p->level));
	if (p->pinned + p->pin_failed > 0) {
		jsonw_object(w, "pinning");
		jsonw_str(w, "cpuset", p->cpuset != NULL ? p->cpuset : "");
		jsonw_int(w, "containers", p->pinned);
		jsonw_int(w, "failed", p->pin_failed);
		jsonw_int(w, "max_latency_ms", p->pin_max_ms);
		jsonw_end(w);
	}
	jsonw_object(w, "build");
	jsonw_bool(w, "ok", dp == NULL || dp->build_ok);
	jsonw_str(w, "output", dp != NULL && dp->build_output ? dp->build_output : "");
	jsonw_end(w);
	jsonw_int(w, "runs", p->runs);
	jsonw_int(w, "failures_outside_tests", p->failures_outside_tests);
	jsonw_int(w, "unreliable_runs", p->unreliable_runs);
	jsonw_int(w, "leaked_runs", p->leaked_runs);
	jsonw_int(w, "ms", p->ms);
	results_json_durations_write(w, &p->durations);
	if (p->ndebris > 0)
		results_json_debris(w, p);
	if (p->first_outside != NULL)
		results_json_failure(w, "first_failure_outside_tests", p->first_outside);
	if (dp != NULL && dp->toolchain != NULL)
		jsonw_str(w, "toolchain", dp->toolchain);
	jsonw_end(w);
}

/* "machine": as the journal's header has it, with its "noise" replaced by
 * the sweep's, last. */
static void
results_json_machine(struct jsonw *w, const cJSON *machine, const struct results *r)
{
	const cJSON *c;
	bool noise = false;

	jsonw_object(w, "machine");
	for (c = machine != NULL ? machine->child : NULL; c != NULL; c = c->next) {
		if (!noise && c->string != NULL && strcmp(c->string, "noise") == 0)
			noise = true;
		else
			jsonw_cjson(w, c->string, c);
	}
	results_json_noise(w, r->noise_ms, r->noise_core_ms);
	jsonw_end(w);
}

/* An object of the header's, or {} when it has none. */
static void
results_json_header_object(struct jsonw *w, const char *key, const cJSON *o)
{
	if (o != NULL) {
		jsonw_cjson(w, key, o);
		return;
	}
	jsonw_object(w, key);
	jsonw_end(w);
}

char *
results_json_text(const struct results *r, const struct report_meta *m)
{
	struct buf b;

	buf_init(&b);
	results_json_write(&b, NULL, r, m);
	return buf_steal(&b);
}

void
results_json_write(struct buf *out, struct jsonw_refs *refs, const struct results *r,
                   const struct report_meta *m)
{
	struct report_derived own;
	const struct report_derived *o = m->derived;
	struct levels *levels = NULL;
	struct levels_error lerr;
	struct jsonw w;
	struct buf scratch;
	char when[40];
	int64_t passed, flaky, failing, skip_flaky, skipped;
	size_t i;

	buf_reset(out);
	buf_init(&scratch);
	jsonw_init(&w, out);
	if (refs != NULL)
		refs->n = 0;
	w.refs = refs;
	jsonw_object(&w, NULL);
	jsonw_str(&w, "schema", RESULTS_JSON_SCHEMA);
	jsonw_str(&w, "status", m->status);
	timefmt_format_rfc3339(m->started_ms, when, sizeof when);
	jsonw_str(&w, "started", when);
	if (m->finished_ms > 0) {
		timefmt_format_rfc3339(m->finished_ms, when, sizeof when);
		jsonw_str(&w, "finished", when);
	} else {
		jsonw_null(&w, "finished");
	}
	results_json_machine(&w, m->machine, r);
	results_json_header_object(&w, "project", m->project);
	results_json_header_object(&w, "config", m->config);
	if (m->machines != NULL)
		jsonw_cjson(&w, "machines", m->machines);
	/* The header was checked when it was read: a level_config absent or
	 * refused here is the defaults. */
	levels_decode(cJSON_GetObjectItemCaseSensitive(m->config, "level_config"), &levels, &lerr);
	jsonw_array(&w, "packages");
	for (i = 0; i < r->npkgs; i++) {
		const struct pkg *dp = i < m->npkgs ? m->pkgs[i] : NULL;

		if (dp == NULL || !dp->empty)
			results_json_pkg(&w, &r->pkgs[i], dp, levels);
	}
	jsonw_end(&w);
	levels_free(levels);
	if (o == NULL) {
		report_derive(r, m, &own);
		o = &own;
	}
	/* Each entry's status is judged on the very results it joins (with
	 * m->cache, report_keep_derive judged them). */
	if (m->quarantine != NULL && m->cache == NULL)
		quarantine_evaluate(m->quarantine, r, NULL, QUARANTINE_DEFAULT_MIN_RUNS, m->now_ms);
	jsonw_array(&w, "tests");
	for (i = 0; i < r->ntests; i++)
		results_json_test_at(&w, r, i, m, o, &scratch);
	jsonw_end(&w);
	buf_free(&scratch);
	if (o == &own)
		report_derived_free(&own);
	if (m->cache != NULL)
		report_keep_counts(m->cache, &passed, &flaky, &failing);
	else
		results_counts(r, &passed, &flaky, &failing);
	jsonw_object(&w, "summary");
	jsonw_int(&w, "runs", r->runs);
	jsonw_int(&w, "tests", (int64_t)r->ntests);
	jsonw_int(&w, "passed", passed);
	jsonw_int(&w, "flaky", flaky);
	jsonw_int(&w, "failing", failing);
	results_skip_counts(r, &skip_flaky, &skipped);
	if (skip_flaky + skipped > 0) {
		jsonw_int(&w, "skip_flaky", skip_flaky);
		jsonw_int(&w, "skipped", skipped);
	}
	jsonw_int(&w, "failures", r->failures);
	jsonw_int(&w, "hangs", r->hangs);
	jsonw_end(&w);
	if (r->harness.on)
		results_json_tree(&w, "harness", harness_to_json(&r->harness));
	jsonw_end(&w);
	buf_addc(out, '\n');
}

cJSON *
results_to_json(const struct results *r, const struct report_meta *m)
{
	char *text = results_json_text(r, m);
	cJSON *doc = json_parse(text, strlen(text), NULL, false);

	if (doc == NULL)
		fatal("%s", _("out of memory"));
	free(text);
	return doc;
}

/* ---- Where a value is in the text ---- */

static const char *
results_json_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

/* Past the value at p (valid JSON). */
static const char *
results_json_skip(const char *p)
{
	int depth = 0;

	do {
		if (*p == '"') {
			for (p++; *p != '"' && *p != '\0'; p++) {
				if (*p == '\\' && p[1] != '\0')
					p++;
			}
		} else if (*p == '{' || *p == '[') {
			depth++;
		} else if (*p == '}' || *p == ']') {
			depth--;
		} else if (depth == 0) {
			while (*p != '\0' && strchr(",}] \t\r\n", *p) == NULL)
				p++;
			return p;
		}
		if (*p != '\0')
			p++;
	} while (depth > 0 && *p != '\0');
	return p;
}

/* The value of one step into the object or array at p, or NULL. */
static const char *
results_json_step_into(const char *p, const struct results_json_step *s)
{
	int i = 0;

	if (*p != (s->key != NULL ? '{' : '['))
		return NULL;
	for (p = results_json_ws(p + 1); *p != '\0' && *p != '}' && *p != ']';) {
		if (s->key != NULL) {
			const char *k = p + 1, *end = results_json_skip(p);
			size_t n = strlen(s->key);
			bool match = (size_t)(end - k) == n + 1 && strncmp(k, s->key, n) == 0;

			p = results_json_ws(results_json_ws(end) + 1); /* past ':' */
			if (match)
				return p;
		} else if (i++ == s->index) {
			return p;
		}
		p = results_json_ws(results_json_skip(p));
		if (*p == ',')
			p = results_json_ws(p + 1);
	}
	return NULL;
}

/* The 1-based line of the deepest step of the path that is found. */
static int
results_json_line(const struct results_json_in *in)
{
	const char *at = results_json_ws(in->text), *p;
	int i, line = 1;

	for (i = 0; i < in->depth && i < RESULTS_JSON_DEPTH; i++) {
		const char *next = results_json_step_into(at, &in->steps[i]);

		if (next == NULL)
			break;
		at = next;
	}
	for (p = in->text; p < at; p++)
		line += *p == '\n';
	return line;
}

int
results_json_fail(struct results_json_in *in, const char *key, const char *what)
{
	struct buf field;
	int i;

	if (key != NULL && in->depth < RESULTS_JSON_DEPTH)
		in->steps[in->depth++] = (struct results_json_step){key, 0};
	buf_init(&field);
	for (i = 0; i < in->depth && i < RESULTS_JSON_DEPTH; i++) {
		if (in->steps[i].key != NULL)
			buf_printf(&field, "%s%s", i > 0 ? "." : "", in->steps[i].key);
		else
			buf_printf(&field, "[%d]", in->steps[i].index);
	}
	if (in->err == NULL && field.len == 0)
		in->err = xasprintf("%s:%d: %s", in->path, results_json_line(in), what);
	else if (in->err == NULL)
		in->err = xasprintf(_("%s:%d: %s: %s"), in->path, results_json_line(in), field.data,
		                    what);
	buf_free(&field);
	if (key != NULL)
		in->depth--;
	return -EBADMSG;
}

void
results_json_push(struct results_json_in *in, const char *key, int index)
{
	if (in->depth < RESULTS_JSON_DEPTH)
		in->steps[in->depth] = (struct results_json_step){key, index};
	in->depth++;
}

void
results_json_pop(struct results_json_in *in)
{
	in->depth--;
}

/* ---- Reading values ---- */

/* A string field: *out borrows it, NULL when absent or null and optional. */
static int
results_json_str(struct results_json_in *in, const cJSON *obj, const char *key, bool required,
                 const char **out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);

	*out = NULL;
	if (cJSON_IsString(v)) {
		*out = v->valuestring;
		return 0;
	}
	if (!required && (v == NULL || cJSON_IsNull(v)))
		return 0;
	return results_json_fail(in, key, _("expected a string"));
}

static char *
results_json_dup(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

/* A whole number in [min, max]; 0 when absent and optional. */
int
results_json_int(struct results_json_in *in, const cJSON *obj, const char *key, bool required,
                 int64_t min, int64_t max, int64_t *out)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
	char *what;
	int rc;

	*out = 0;
	if (v == NULL && !required)
		return 0;
	if (cJSON_IsNumber(v) && v->valuedouble >= (double)min && v->valuedouble <= (double)max &&
	    v->valuedouble == floor(v->valuedouble)) {
		*out = (int64_t)v->valuedouble;
		return 0;
	}
	what = xasprintf(_("expected a whole number from %lld to %lld"), (long long)min,
	                 (long long)max);
	rc = results_json_fail(in, key, what);
	free(what);
	return rc;
}

/* "noise": a share from 0 to 1, or null or absent when not measured. It
 * comes back as other processes' time out of a core time of 1, which is
 * all noise_share() and the causes need. */
static int
results_json_noise_in(struct results_json_in *in, const cJSON *obj, double *other_ms,
                      double *core_ms)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, "noise");

	*other_ms = *core_ms = 0;
	if (v == NULL || cJSON_IsNull(v))
		return 0;
	if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 1)
		return results_json_fail(in, "noise", _("expected a share from 0 to 1, or null"));
	*other_ms = v->valuedouble;
	*core_ms = 1;
	return 0;
}

/* A cell's member key, {"runs", "failures"}: some of its runs (overlapped,
 * noisy) into *runs, their failures and hangs into *bad; absent is none. */
static int
results_json_runs_in(struct results_json_in *in, const cJSON *cell, const char *key,
                     const struct results_cell *x, int64_t *runs, int64_t *bad)
{
	const cJSON *o = cJSON_GetObjectItemCaseSensitive(cell, key);
	int64_t most;
	int rc;

	if (o == NULL)
		return 0;
	if (!cJSON_IsObject(o))
		return results_json_fail(in, key, _("expected an object"));
	results_json_push(in, key, 0);
	rc = results_json_int(in, o, "runs", true, 0, x->runs, runs);
	most = *runs < x->failures + x->hangs ? *runs : x->failures + x->hangs;
	if (rc == 0)
		rc = results_json_int(in, o, "failures", true, 0, most, bad);
	results_json_pop(in);
	return rc;
}

static int
results_json_phase(struct results_json_in *in, const cJSON *obj, enum results_phase *phase)
{
	const char *s;
	int rc = results_json_str(in, obj, "phase", true, &s);

	if (rc < 0)
		return rc;
	if (results_phase_parse(s) < 0)
		return results_json_fail(in, "phase",
		                         _("expected \"sweep\", \"confirm\" or \"alone\""));
	*phase = results_phase_parse(s);
	return 0;
}

/* phase, cpu and load of a cell or a failure. */
static int
results_json_pair(struct results_json_in *in, const cJSON *obj, enum results_phase *phase, int *cpu,
                  int *load)
{
	int64_t c, l;
	int rc = results_json_phase(in, obj, phase);

	if (rc == 0)
		rc = results_json_int(in, obj, "cpu", true, 1, 1 << 20, &c);
	if (rc == 0)
		rc = results_json_int(in, obj, "load", true, 1, 1 << 20, &l);
	*cpu = (int)c;
	*load = (int)l;
	return rc;
}

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
	int64_t runs = 0;
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
	results_json_pop(in);
	if (rc == 0)
		results_set_polluter(t, test, seed, command, runs);
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
		rc = results_json_read_channels(in, cJSON_GetObjectItemCaseSensitive(t, "channels"),
		                                x);
	if (rc == 0 && (rc = results_json_str(in, t, "cascade_of", false, &s)) == 0)
		mt->cascade_of = results_json_dup(s);
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
