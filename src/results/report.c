/* SPDX-License-Identifier: MIT */
/*
 * report.c: renders results as report.txt, sorted worst first, and writes
 * it with results.json (results-json.c). It never changes the results.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "results/noise-share.h"
#include "results/causes.h"
#include "results/classify.h"
#include "results/interference.h"
#include "results/report-keep.h"
#include "results/report-writer.h"
#include "results/report.h"
#include "results/results-json.h"
#include "base/sanitize.h"
#include "base/util.h"

static int
report_cmp_tests(const void *a, const void *b)
{
	const struct results_test *x = *(const struct results_test *const *)a;
	const struct results_test *y = *(const struct results_test *const *)b;
	int64_t xr, xf, xh, yr, yf, yh;

	results_test_totals(x, &xr, &xf, &xh);
	results_test_totals(y, &yr, &yf, &yh);
	if (xf + xh != yf + yh)
		return xf + xh > yf + yh ? -1 : 1;
	return strcmp(x->id, y->id);
}

/* The per-core counts of a test whose failures concentrate on one core. */
static void
report_text_cores(struct buf *b, const struct results_test *t)
{
	const struct results_core *c;
	int64_t runs, bad;
	double p;
	int i;

	if (!results_core_concentration(t, &c, &runs, &bad, &p))
		return;
	buf_printf(b,
	           _("  failures concentrate on core %d: at cpu %d, %lld of %lld runs pinned to it "
	             "failed, %lld of %lld runs on other cores (Fisher exact p=%.2g)\n"),
	           c->core, c->cpu, (long long)c->failures, (long long)c->runs,
	           (long long)(bad - c->failures), (long long)(runs - c->runs), p);
	buf_printf(b, _("  per core at cpu %d (failed/runs):"), c->cpu);
	for (i = 0; i < t->ncores; i++)
		if (t->cores[i].cpu == c->cpu)
			buf_printf(b, " %d:%lld/%lld", t->cores[i].core,
			           (long long)t->cores[i].failures, (long long)t->cores[i].runs);
	buf_addc(b, '\n');
}

/* Says when t's cells at different loads (same phase and cpu) include a
 * noisy one: the load comparison then measures the host as much as the
 * test. */
static void
report_text_noise(struct buf *b, const struct results_test *t)
{
	int i, j;

	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *c = &t->cells[i];

		for (j = 0; j < t->ncells; j++) {
			const struct results_cell *d = &t->cells[j];

			if (d->phase != c->phase || d->cpu != c->cpu || d->load == c->load ||
			    (noise_share(c->noise_ms, c->noise_core_ms) <= NOISE_NOISY &&
			     noise_share(d->noise_ms, d->noise_core_ms) <= NOISE_NOISY))
				continue;
			buf_printf(b,
			           _("  the comparison of loads at cpu %d rests on cells measured "
			             "under host noise above %.0f%%: their rates say as much about "
			             "the host as about the test\n"),
			           c->cpu, 100.0 * NOISE_NOISY);
			return;
		}
	}
}

/* A merge: which shard ran where, and that each confirmed its own. */
static void
report_text_shards(struct buf *b, const cJSON *machines)
{
	const cJSON *part, *shard, *v;
	bool have[513] = {false};
	int count = 0, held = 0, i;
	const char *sep = "";

	if (machines == NULL)
		return;
	cJSON_ArrayForEach(part, machines)
	{
		shard = cJSON_GetObjectItemCaseSensitive(part, "shard");
		v = cJSON_GetObjectItemCaseSensitive(shard, "index");
		count = cJSON_GetObjectItemCaseSensitive(shard, "count")->valueint;
		if (cJSON_IsNumber(v) && v->valueint >= 1 && v->valueint <= 512 &&
		    !have[v->valueint]) {
			have[v->valueint] = true;
			held++;
		}
	}
	if (held < count && count <= 512) {
		buf_printf(b,
		           ngettext("merged from %d of %d shard; missing: ",
		                    "merged from %d of %d shards; missing: ", (unsigned long)count),
		           held, count);
		for (i = 1; i <= count; i++) {
			if (!have[i]) {
				buf_printf(b, "%s%d/%d", sep, i, count);
				sep = ", ";
			}
		}
		buf_printf(b, "\n%s",
		           _("each shard confirmed the failures of its own packages:\n"));
	} else {
		buf_printf(
		    b,
		    _("merged from %d shards; each confirmed the failures of its own packages:\n"),
		    cJSON_GetArraySize(machines));
	}
	cJSON_ArrayForEach(part, machines)
	{
		shard = cJSON_GetObjectItemCaseSensitive(part, "shard");
		v = cJSON_GetObjectItemCaseSensitive(part, "host");
		buf_printf(b, _("  shard %d/%d on %s (%s): %s\n"),
		           cJSON_GetObjectItemCaseSensitive(shard, "index")->valueint,
		           cJSON_GetObjectItemCaseSensitive(shard, "count")->valueint,
		           cJSON_IsString(v) ? v->valuestring : "?",
		           cJSON_IsString(cJSON_GetObjectItemCaseSensitive(part, "dir"))
		               ? cJSON_GetObjectItemCaseSensitive(part, "dir")->valuestring
		               : "?",
		           cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(part, "complete"))
		               ? _("complete")
		               : _("interrupted"));
	}
}

/* The tests that failed only after t in the same process: listed under
 * t, not as flaky tests of their own. */
static void
report_text_cascades(struct buf *b, const struct results_test *const *cascades, size_t n,
                     const struct results_test *t)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const struct results_test *c = cascades[i];
		int64_t alone = 0;
		int k;

		if (c->pkg != t->pkg || strcmp(results_cascade_root(c), t->test) != 0)
			continue;
		for (k = 0; k < c->ncells; k++)
			if (c->cells[k].phase != RESULTS_SWEEP)
				alone += c->cells[k].runs;
		buf_printf(b,
		           _("  cascade: %s failed %lld times, each time after this test had "
		             "failed in the same process; alone it passed all %lld runs\n"),
		           c->test, (long long)c->sweep_bad, (long long)alone);
	}
}

/* The entries runs left in the package's shared directory, which later
 * runs (and later sweeps) start with, and the option that avoids them. */
static void
report_debris(struct buf *b, const struct results_pkg *p)
{
	size_t i, shown = p->ndebris < 5 ? p->ndebris : 5;

	if (p->runs_after_debris > 0)
		buf_printf(b,
		           _("\n%s (%s): %lld of %lld runs started with debris earlier runs left "
		             "in the package's directory: "),
		           p->name, p->level, (long long)p->runs_after_debris, (long long)p->runs);
	else
		buf_printf(b, _("\n%s (%s): runs left debris in the package's directory: "),
		           p->name, p->level);
	for (i = 0; i < shown; i++)
		buf_printf(b, _("%s%s (first after run %lld)"), i > 0 ? ", " : "",
		           p->debris[i].path, (long long)p->debris[i].run);
	if (p->ndebris > shown)
		buf_printf(b, _(" and %zu more"), p->ndebris - shown);
	buf_adds(b, _("; try --private-workdir\n"));
}

/* The runs whose time limit a budget clipped to the time it had left. */
static void
report_text_clipped(struct buf *b, const cJSON *config)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(config, "clipped_limits");
	long long n = cJSON_IsNumber(v) ? (long long)v->valuedouble : 0;

	if (n <= 0)
		return;
	buf_printf(b,
	           ngettext("%lld run had its time limit clipped to the time the budget "
	                    "had left",
	                    "%lld runs had their time limit clipped to the time the budget "
	                    "had left",
	                    (unsigned long)n),
	           n);
	buf_addc(b, '\n');
}

/* What the polluter search found for t, with the command for each pair. */
static void
report_text_polluter(struct buf *b, const struct results_test *t)
{
	const struct results_polluter *p = t->polluter;
	size_t i;

	if (p == NULL)
		return;
	if (p->test == NULL) {
		buf_printf(b,
		           _("  no single test breaks it: %lld runs under seed %s found no "
		             "polluter\n"),
		           (long long)p->runs, p->seed);
		return;
	}
	buf_printf(b,
	           _("  %s fails after %s: under seed %s the pair fails, found in %lld runs; "
	             "reproduce with: %s\n"),
	           t->test, p->test, p->seed, (long long)p->runs,
	           p->command != NULL ? p->command : "");
	for (i = 0; i < p->nmore; i++)
		buf_printf(b,
		           _("  %s fails after %s: under seed %s the pair fails; reproduce with: "
		             "%s\n"),
		           t->test, p->more[i].test, p->more[i].seed,
		           p->more[i].command != NULL ? p->more[i].command : "");
	if (p->nmore > 0)
		buf_printf(b, _("  %zu polluters found in %lld runs\n"), p->nmore + 1,
		           (long long)p->search_runs);
}

/* Cells by phase, cpu and load, whatever order their runs finished in,
 * so every driver's report reads the same. */
static int
report_cmp_cells(const void *a, const void *b)
{
	const struct results_cell *x = *(const struct results_cell *const *)a;
	const struct results_cell *y = *(const struct results_cell *const *)b;

	if (x->phase != y->phase)
		return x->phase < y->phase ? -1 : 1;
	if (x->cpu != y->cpu)
		return x->cpu < y->cpu ? -1 : 1;
	return x->load < y->load ? -1 : x->load > y->load;
}

/* The tests of list that skipped themselves in some runs, then those that
 * skipped every run, one line each with their counts. */
static void
report_text_skips(struct buf *b, const struct results_test *const *list, size_t n)
{
	static const enum results_verdict wants[] = {RESULTS_SKIP_FLAKY, RESULTS_SKIPPED};
	enum results_verdict want;
	int64_t runs, failures, hangs, skipped;
	bool header;
	size_t i, k;

	for (k = 0; k < sizeof wants / sizeof *wants; k++) {
		want = wants[k];
		header = false;
		for (i = 0; i < n; i++) {
			if (results_verdict(list[i]) != want)
				continue;
			if (!header)
				buf_printf(
				    b, "\n== %s ==\n",
				    want == RESULTS_SKIP_FLAKY
				        ? _("Skip-flaky tests (skipped themselves in some runs, "
				            "passed in the others)")
				        : _("Skipped tests (skipped themselves in every run)"));
			header = true;
			results_test_totals(list[i], &runs, &failures, &hangs);
			skipped = results_test_skipped(list[i]);
			if (want == RESULTS_SKIPPED)
				buf_printf(b, _("%s  [skipped]  skipped in %lld of %lld runs\n"),
				           list[i]->id, (long long)skipped, (long long)skipped);
			else
				buf_printf(
				    b,
				    _("%s  [skip-flaky]  skipped in %lld of %lld runs, passed "
				      "in %lld\n"),
				    list[i]->id, (long long)skipped, (long long)(skipped + runs),
				    (long long)runs);
		}
	}
}

static void
report_text_test(struct buf *b, const struct results *r, const struct results_test *t,
                 const struct report_meta *m, const struct causes *causes,
                 const struct results_test *const *cascades, size_t ncascades)
{
	const struct results_cell *worst = results_worst_cell(t);
	const struct results_cell **cells = xcalloc((size_t)t->ncells + 1, sizeof *cells);
	int i;

	char channel[CLASSIFY_CHANNEL_MAX];
	enum classify_class k = classify_test(r, causes, (size_t)(t - r->tests), channel);

	buf_printf(b, "\n%s  [%s%s%s]%s\n", t->id, results_verdict_name(results_verdict(t)),
	           k != CLASSIFY_NONE ? ", " : "", k != CLASSIFY_NONE ? classify_name(k) : "",
	           m->quarantine != NULL && quarantine_has_test(m->quarantine, t->id)
	               ? _("  (quarantined)")
	               : "");
	buf_printf(b, "  %-8s %4s %5s %10s %8s %6s  %s\n", _("phase"), _("cpu"), _("load"),
	           _("failures"), _("runs"), _("hangs"),
	           /* xgettext:no-c-format */
	           _("rate (95% CI, fixed-sample)"));
	for (i = 0; i < t->ncells; i++)
		cells[i] = &t->cells[i];
	qsort(cells, (size_t)t->ncells, sizeof *cells, report_cmp_cells);
	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *c = cells[i];
		double lo, hi;

		results_wilson(c->failures + c->hangs, c->runs, &lo, &hi);
		buf_printf(b, "  %-8s %4d %5d %10lld %8lld %6lld  ", results_phase_name(c->phase),
		           c->cpu, c->load, (long long)c->failures, (long long)c->runs,
		           (long long)c->hangs);
		/* A clean cell carries the Wilson upper bound, never above 100%
		 * (the rule of three, 3/n, says nothing at small n). */
		if (c->failures + c->hangs == 0)
			buf_printf(b, _("< %.2f%% (0 in %lld)"), 100.0 * (hi < 1 ? hi : 1),
			           (long long)c->runs);
		else
			buf_printf(b, "%.2f%% (%.2f%%-%.2f%%)",
			           100.0 * (double)(c->failures + c->hangs) / (double)c->runs,
			           100.0 * lo, 100.0 * hi);
		if (noise_share(c->noise_ms, c->noise_core_ms) > NOISE_NOISY)
			buf_printf(b, _("  noisy: %.0f%%"),
			           100.0 * noise_share(c->noise_ms, c->noise_core_ms));
		buf_addc(b, '\n');
	}
	free(cells);
	report_text_noise(b, t);
	causes_text(b, causes, (size_t)(t - r->tests));
	if (t->channels != NULL) {
		buf_printf(b, "%s", _("  ambient channels read:"));
		for (i = 0; t->channels[i] != NULL; i++)
			buf_printf(b, " %s", t->channels[i]);
		buf_printf(b, "\n");
	}
	if (t->first != NULL) {
		const char *p = t->first->lines;
		int shown = 0;

		buf_printf(b, _("  first failure (%s, cpu %d, load %d%s%s):\n"),
		           results_phase_name(t->first->phase), t->first->cpu, t->first->load,
		           t->first->seed ? _(", seed ") : "",
		           t->first->seed ? t->first->seed : "");
		if (t->first->reason != NULL)
			buf_printf(b, "    %s\n", t->first->reason);
		while (p != NULL && *p != '\0' && shown < 20) {
			const char *nl = strchr(p, '\n');
			size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);

			buf_printf(b, "    | %.*s\n", (int)n, p);
			p += n + (nl != NULL);
			shown++;
		}
		if (p != NULL && *p != '\0')
			buf_printf(b, "    | %s\n", _("(more in the log)"));
		if (t->first->log != NULL)
			buf_printf(b, _("  log: %s\n"), t->first->log);
	}
	report_text_cores(b, t);
	interference_text(b, t);
	report_text_cascades(b, cascades, ncascades, t);
	if (worst != NULL && m->reproduce != NULL) {
		char *fs = NULL, *direct = NULL;

		m->reproduce(m->arg, t, worst, &fs, &direct);
		if (results_order_dependent(t))
			buf_printf(
			    b,
			    _("  order-dependent: it failed only in shuffled runs of the whole "
			      "package and never alone; replay the seed on the whole package\n"));
		report_text_polluter(b, t);
		buf_printf(b, _("  reproduce: %s\n"), fs != NULL ? fs : "");
		buf_printf(b, _("  directly:  %s\n"), direct != NULL ? direct : "");
		free(fs);
		free(direct);
	}
}

/* Appends raw, cleaned, to out and empties raw. Test ids, package names,
 * build output and reproduce commands come from the project and its tests:
 * every text is cleaned. Cleaning pieces that each end in a newline gives
 * the bytes cleaning them together would (sanitize_text carries nothing
 * past a newline), so a test's section is cleaned once, when written. */
static void
report_clean(struct buf *out, struct buf *raw)
{
	char *clean = sanitize_text(raw->data != NULL ? raw->data : "", raw->len);

	buf_adds(out, clean);
	free(clean);
	buf_reset(raw);
}

/* Test t's section: the one the last rewrite kept when nothing it is made
 * of changed since (report_keep_derive), else written anew and kept. */
static void
report_text_section(struct buf *out, struct buf *raw, const struct results *r,
                    const struct results_test *t, const struct report_meta *m,
                    const struct report_derived *d)
{
	struct report_kept *e;

	if (m->cache == NULL) {
		report_text_test(raw, r, t, m, d->causes, d->cascades, d->ncascades);
		report_clean(out, raw);
		return;
	}
	e = report_keep_at(m->cache, (size_t)(t - r->tests));
	if (e->text == NULL) {
		report_text_test(raw, r, t, m, d->causes, d->cascades, d->ncascades);
		e->text = sanitize_text(raw->data, raw->len);
		e->text_len = strlen(e->text);
		buf_reset(raw);
	}
	buf_add(out, e->text, e->text_len);
}

char *
report_text(const struct results *r, const struct report_meta *m)
{
	struct buf b, out;
	const struct results_test **list;
	struct report_derived own;
	const struct report_derived *d = m->derived;
	int64_t passed, flaky, failing, skip_flaky, skipped;
	char *text;
	size_t i, n = 0, bad = 0;
	int section;

	buf_init(&b);
	buf_init(&out);
	if (d == NULL) {
		report_derive(r, m, &own);
		d = &own;
	}
	if (m->cache != NULL)
		report_keep_counts(m->cache, &passed, &flaky, &failing);
	else
		results_counts(r, &passed, &flaky, &failing);
	text = harness_reasons_text(&r->harness, "  ");
	if (text != NULL)
		buf_printf(&b,
		           _("HARNESS NOT CLEAN: flakesweep's own canaries misbehaved, so nothing "
		             "below can be trusted:\n%s\n"),
		           text);
	free(text);
	buf_printf(&b, _("flakesweep report (%s)\n"), m->status);
	buf_printf(&b, ngettext("%lld run, ", "%lld runs, ", (unsigned long)r->runs),
	           (long long)r->runs);
	buf_printf(&b, ngettext("%zu test: ", "%zu tests: ", (unsigned long)r->ntests), r->ntests);
	buf_printf(&b, _("%lld passed, %lld flaky, %lld failing; "), (long long)passed,
	           (long long)flaky, (long long)failing);
	results_skip_counts(r, &skip_flaky, &skipped);
	if (skip_flaky + skipped > 0)
		buf_printf(&b, _("%lld skip-flaky, %lld skipped; "), (long long)skip_flaky,
		           (long long)skipped);
	buf_printf(&b, ngettext("%lld failure, ", "%lld failures, ", (unsigned long)r->failures),
	           (long long)r->failures);
	buf_printf(&b, ngettext("%lld hang\n", "%lld hangs\n", (unsigned long)r->hangs),
	           (long long)r->hangs);
	if (noise_share(r->noise_ms, r->noise_core_ms) > NOISE_NOISY)
		buf_printf(&b,
		           _("host noise: other processes took %.0f%% of the lanes' cores while "
		             "runs were on them (above %.0f%%); cells marked noisy were measured "
		             "on a busy host\n"),
		           100.0 * noise_share(r->noise_ms, r->noise_core_ms), 100.0 * NOISE_NOISY);
	if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(m->config, "adaptive")))
		buf_printf(
		    &b, "%s",
		    _("runs were allocated adaptively (--adaptive): the fixed-sample "
		      "intervals and the causes' tests below assume runs fixed in advance and "
		      "are not valid for the sweep's cells; results.json's rate_low_anytime "
		      "and rate_high_anytime are\n"));
	report_text_clipped(&b, m->config);
	report_text_shards(&b, m->machines);
	for (i = 0; i < m->npkgs && i < r->npkgs; i++) {
		const struct pkg *dp = m->pkgs[i];

		if (dp != NULL && !dp->build_ok && !dp->empty)
			buf_printf(&b, _("\nBUILD FAILED %s (%s):\n%s\n"), dp->name, dp->level,
			           dp->build_output ? dp->build_output : "");
	}
	for (i = 0; i < r->npkgs; i++) {
		const struct results_pkg *p = &r->pkgs[i];

		if (p->failures_outside_tests > 0) {
			buf_printf(&b, _("\n%s (%s): %lld of %lld runs failed outside any test\n"),
			           p->name, p->level, (long long)p->failures_outside_tests,
			           (long long)p->runs);
			if (p->first_outside != NULL)
				buf_printf(&b, "  %s\n", p->first_outside->lines);
		}
		if (p->leaked_runs > 0)
			buf_printf(
			    &b,
			    _("\n%s (%s): %lld runs left processes behind; flakesweep killed "
			      "them\n"),
			    p->name, p->level, (long long)p->leaked_runs);
		if (p->ndebris > 0)
			report_debris(&b, p);
		if (p->unreliable_runs > 0)
			buf_printf(&b,
			           _("\n%s (%s): %lld runs had contradictory results and were "
			             "not counted\n"),
			           p->name, p->level, (long long)p->unreliable_runs);
	}
	report_clean(&out, &b);
	list = xcalloc(r->ntests ? r->ntests : 1, sizeof *list);
	for (i = 0; i < r->ntests; i++) {
		if ((m->cache != NULL ? report_keep_at(m->cache, i)->verdict
		                      : results_verdict(&r->tests[i])) != RESULTS_PASSED)
			list[n++] = &r->tests[i];
	}
	qsort(list, n, sizeof *list, report_cmp_tests);
	for (section = 0; section < 2; section++) {
		enum results_verdict want = section == 0 ? RESULTS_FLAKY : RESULTS_FAILING;
		bool header = false;

		for (i = 0; i < n; i++) {
			if (results_verdict(list[i]) != want)
				continue;
			bad++;
			if (!header) {
				buf_printf(
				    &b, "\n== %s ==\n",
				    section == 0
				        ? _("Flaky tests")
				        : _("Failing tests (failed every run at some pair)"));
				header = true;
				report_clean(&out, &b);
			}
			report_text_section(&out, &b, r, list[i], m, d);
		}
	}
	report_text_skips(&b, list, n);
	/* Runs that reached no test prove nothing passed. */
	if (bad == 0)
		buf_printf(&b, "\n%s\n",
		           r->ntests > 0 ? _("No test failed or hung.") : _("No test ran."));
	report_clean(&out, &b);
	free(list);
	if (d == &own)
		report_derived_free(&own);
	buf_free(&b);
	return buf_steal(&out);
}

void
report_derive(const struct results *r, const struct report_meta *m, struct report_derived *d)
{
	if (m->cache != NULL) {
		report_keep_derive(m->cache, r, m, d);
		return;
	}
	d->causes = causes_new(r);
	d->cascades = results_cascades(r, &d->ncascades);
}

void
report_derived_free(struct report_derived *d)
{
	causes_free(d->causes);
	free(d->cascades);
}

int
report_write(const char *dir, const struct results *r, const struct report_meta *m, char **err)
{
	struct report_derived d;
	struct report_meta both = *m;
	struct buf own, *json = m->cache != NULL ? report_keep_json_buf(m->cache) : &own;
	struct report_writer *writer = m->cache != NULL ? report_keep_writer(m->cache) : NULL;
	bool running = strcmp(m->status, "running") == 0;
	struct jsonw_refs *refs;
	char *text, *path = xasprintf("%s/results.json", dir);
	/* A rewrite while running needs no fsync: the journal it is made of
	 * is not synced either (an operating system crash loses both alike),
	 * and --resume makes both files again from the journal. The last
	 * one is what stays: it is synced. */
	int (*write)(const char *, const char *, size_t) =
	    running ? util_write_file_replace : util_write_file_atomic;
	int rc = 0;

	*err = NULL;
	/* The files handed over last time are written before json is
	 * touched; an error of theirs is reported now, unless this write is
	 * the last, which is all that counts. */
	if (writer != NULL) {
		rc = report_writer_wait(writer, err);
		if (!running) {
			free(*err);
			*err = NULL;
			rc = 0;
		}
	}
	buf_init(&own);
	report_derive(r, m, &d);
	both.derived = &d;
	/* The writer thread puts the kept tests' texts in as it writes:
	 * the loop does not copy them. */
	refs = writer != NULL && running ? report_keep_json_refs(m->cache) : NULL;
	results_json_write(json, refs, r, &both);
	text = report_text(r, &both);
	report_derived_free(&d);
	if (refs != NULL) {
		report_writer_put(writer, dir, json, refs, text);
		free(path);
		return rc;
	}
	rc = write(path, json->data, json->len);
	if (rc == 0) {
		free(path);
		path = xasprintf("%s/report.txt", dir);
		rc = write(path, text, strlen(text));
	}
	if (rc < 0)
		*err = xasprintf("%s: %s", path, strerror(-rc));
	free(path);
	buf_free(&own);
	free(text);
	return rc;
}

int
report_exit_status(const struct results *r, const struct report_meta *m)
{
	size_t i;

	/* The harness failed its own canaries: no verdict stands. */
	if (!harness_clean(&r->harness))
		return 2;
	if (r->failures > 0 || r->hangs > 0)
		return 1;
	for (i = 0; i < r->npkgs; i++) {
		if (r->pkgs[i].failures_outside_tests > 0)
			return 1;
	}
	for (i = 0; i < m->npkgs; i++) {
		if (!m->pkgs[i]->build_ok && !m->pkgs[i]->empty)
			return 1;
	}
	/* A test that skipped itself in some runs may hide failures there. */
	for (i = 0; i < r->ntests; i++) {
		if (results_verdict(&r->tests[i]) == RESULTS_SKIP_FLAKY)
			return 1;
	}
	return 0;
}
