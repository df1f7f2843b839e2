/* SPDX-License-Identifier: MIT */
/*
 * results-json.c: writes results.json. It lists every test that ran,
 * passed ones too, so a rate of zero has its denominator. The reader is
 * results-json-read.c's.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/driver.h"
#include "results/noise-share.h"
#include "results/causes.h"
#include "results/report-keep.h"
#include "results/interference.h"
#include "results/results-json-check.h"
#include "results/results-json-durations.h"
#include "results/results-json.h"
#include "base/confseq.h"
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
	if (c->allocation != RESULTS_ALLOC_NONE) {
		jsonw_str(w, "allocation", results_allocation_name(c->allocation));
		confseq_rate(c->failures + c->hangs, c->runs, CONFSEQ_ALPHA, &lo, &hi);
		jsonw_num(w, "rate_low_anytime", round(lo * 1e6) / 1e6);
		jsonw_num(w, "rate_high_anytime", round(hi * 1e6) / 1e6);
	}
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
	classify_write(w, r, o->causes, (size_t)(t - r->tests));
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
		jsonw_int(w, "search_runs", t->polluter->search_runs);
		jsonw_end(w);
		results_polluters_json(w, t->polluter);
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
	if (m->simulated)
		jsonw_bool(&w, "simulated", true);
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
