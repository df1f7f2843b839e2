/* SPDX-License-Identifier: MIT */
/*
 * view-detail.c: the selected test in full: verdict and totals, its
 * decision and quarantine entries, the CPU x load heatmaps of the sweep and
 * the confirm runs, the worst pair with its 95% interval, the first
 * failure's lines (sanitised, scrollable) and both reproduce commands.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/confseq.h"
#include "base/util.h"
#include "engine/noise.h"
#include "results/causes.h"
#include "view.h"

/* The cells measured while other processes took more than NOISE_NOISY of
 * their cores' time: their rates speak for the host as much as the test. */
static void
view_detail_noise(const struct results_test *t, struct doc *doc)
{
	bool any = false;
	int i;

	for (i = 0; i < t->ncells; i++) {
		const struct results_cell *cell = &t->cells[i];
		double share = noise_share(cell->noise_ms, cell->noise_core_ms);

		if (share <= NOISE_NOISY)
			continue;
		if (!any) {
			doc_line(doc, 2, false);
			doc_spanf(doc, DRAW_WARN, _("measured under host noise above %.0f%%:"),
			          100.0 * NOISE_NOISY);
			any = true;
		}
		doc_spanf(doc, DRAW_WARN, _(" %s cpu %d load %d (%.0f%%)"),
		          results_phase_label(cell->phase), cell->cpu, cell->load, 100.0 * share);
	}
}

/* The causes of its failures, one sentence each (causes.h). */
static void
view_detail_reasons(const struct model *m, const struct results_test *t, struct doc *doc)
{
	struct causes *causes = causes_new(m->results);
	struct buf b;
	const char *p;

	buf_init(&b);
	causes_text(&b, causes, (size_t)(t - m->results->tests));
	for (p = b.data; p != NULL && *p != '\0';) {
		const char *nl = strchr(p, '\n');
		size_t n = nl != NULL ? (size_t)(nl - p) : strlen(p);

		while (n > 0 && *p == ' ') {
			p++;
			n--;
		}
		doc_line(doc, 2, false);
		doc_spanf(doc, DRAW_WARN, "%.*s", (int)n, p);
		p += n + (nl != NULL);
	}
	buf_free(&b);
	causes_free(causes);
}

/* One polluter of an order-dependent test, with the command that runs it
 * and then the test. */
static void
view_detail_polluter(struct doc *doc, const char *test, const char *seed, const char *command)
{
	doc_line(doc, 2, false);
	doc_spanf(doc, DRAW_BOLD, _("after %s (seed %s):"), test, seed);
	if (command == NULL)
		return;
	doc_line_slide(doc, 2);
	doc_spanf(doc, DRAW_KEY, "  %s", command);
}

/* Every polluter its search found, each with its pair's command. */
static void
view_detail_polluters(const struct results_test *t, struct doc *doc)
{
	const struct results_polluter *p = t->polluter;
	size_t i;

	if (p == NULL || p->test == NULL)
		return;
	doc_line(doc, 0, true);
	view_detail_polluter(doc, p->test, p->seed, p->command);
	for (i = 0; i < p->nmore; i++)
		view_detail_polluter(doc, p->more[i].test, p->more[i].seed, p->more[i].command);
}

/* Where the failures come from: a core they concentrate on, the test a
 * cascade follows, the cascades that follow this test. */
static void
view_detail_causes(const struct model *m, const struct results_test *t, struct doc *doc)
{
	const struct results_core *core;
	int64_t runs, bad;
	double p;
	size_t i;

	if (results_core_concentration(t, &core, &runs, &bad, &p)) {
		doc_line(doc, 2, false);
		doc_spanf(doc, DRAW_WARN,
		          _("failures concentrate on core %d: at cpu %d, %lld of %lld runs there, "
		            "%lld of %lld elsewhere"),
		          core->core, core->cpu, (long long)core->failures, (long long)core->runs,
		          (long long)(bad - core->failures), (long long)(runs - core->runs));
	}
	view_detail_noise(t, doc);
	view_detail_reasons(m, t, doc);
	if (results_cascade(t)) {
		doc_line(doc, 2, false);
		doc_spanf(doc, DRAW_NORMAL,
		          _("cascade of %s: fails only after it failed in the same process, passes "
		            "alone"),
		          results_cascade_root(t));
	}
	for (i = 0; m->results != NULL && i < m->results->ntests; i++) {
		const struct results_test *o = &m->results->tests[i];

		if (o->pkg == t->pkg && results_cascade(o) &&
		    strcmp(results_cascade_root(o), t->test) == 0) {
			doc_line(doc, 2, false);
			doc_spanf(doc, DRAW_NORMAL,
			          _("cascade: %s fails only after this test failed"), o->test);
		}
	}
}

/* The level of its package when it is not a unit level: its kind and,
 * for a container level, where its containers were pinned. */
static void
view_detail_level(const struct model *m, const struct results_test *t, struct doc *doc)
{
	const struct status_level_pkg *lp;
	struct buf cores;

	if (m->results == NULL || t->pkg < 0 || (size_t)t->pkg >= m->results->npkgs ||
	    (lp = model_level_pkg(m, m->results->pkgs[t->pkg].name)) == NULL)
		return;
	doc_line(doc, 2, false);
	if (strcmp(lp->kind, "containers") != 0) {
		doc_spanf(doc, DRAW_NORMAL, _("level %s (%s)"), lp->level, lp->kind);
		return;
	}
	doc_spanf(doc, DRAW_NORMAL, _("level %s (containers labelled %s): "), lp->level,
	          lp->label != NULL ? lp->label : "");
	if (lp->pinned == 0) {
		doc_span(doc, DRAW_DIM, _("no container pinned yet"));
	} else {
		buf_init(&cores);
		view_cpuset(&cores, lp->cpuset != NULL ? lp->cpuset : "");
		doc_spanf(doc, DRAW_NORMAL,
		          ngettext("%lld container pinned to %s, slowest in %lld ms",
		                   "%lld containers pinned to %s, slowest in %lld ms",
		                   (unsigned long)lp->pinned),
		          (long long)lp->pinned, cores.data, (long long)lp->pin_max_ms);
		buf_free(&cores);
	}
	if (lp->pin_failed > 0)
		doc_spanf(doc, DRAW_BAD, _(", %lld not pinned"), (long long)lp->pin_failed);
}

static void
view_detail_build(const struct view_ctx *c, long sel, int width, struct doc *doc)
{
	const struct model *m = c->m;
	const struct model_test *mt = &m->tests[sel];
	const struct results_test *t = model_results_test(m, (size_t)sel);
	const struct results_cell *worst;
	const struct decision *dec;
	const struct quarantine_entry *e = NULL;
	char rate[16], lo_s[16], hi_s[16];

	doc_init(doc);
	if (t == NULL)
		return;
	doc_line(doc, 2, false);
	doc_span(doc, DRAW_BOLD, t->id);
	doc_line(doc, 2, false);
	doc_span(doc, mt->verdict == RESULTS_FAILING ? DRAW_BAD : DRAW_WARN,
	         mt->verdict == RESULTS_FAILING      ? _("failing")
	         : mt->verdict == RESULTS_CASCADE    ? _("cascade")
	         : mt->verdict == RESULTS_SKIP_FLAKY ? _("skip-flaky")
	                                             : _("flaky"));
	if (mt->verdict == RESULTS_SKIP_FLAKY)
		doc_spanf(doc, DRAW_NORMAL,
		          _(": skipped itself in %lld of %lld runs, passed in %lld (a skip that "
		            "depends on the run can hide its failures)"),
		          (long long)mt->skipped, (long long)(mt->skipped + mt->runs),
		          (long long)mt->runs);
	else
		doc_spanf(doc, DRAW_NORMAL,
		          ngettext(": %lld failed and %lld hung of %lld run",
		                   ": %lld failed and %lld hung of %lld runs",
		                   (unsigned long)mt->runs),
		          (long long)mt->failures, (long long)mt->hangs, (long long)mt->runs);
	if (mt->verdict == RESULTS_FAILING)
		doc_span(doc, DRAW_DIM,
		         _(" (every run failed at some pair: never posted as flaky)"));
	if (model_provisional(m, t))
		doc_span(doc, DRAW_DIM,
		         _(" (provisional: not every pair has had its planned runs)"));
	dec = decisions_find(m->decisions, m->ndecisions, t->id);
	if (dec != NULL) {
		size_t k;

		doc_line(doc, 2, false);
		doc_spanf(doc, DRAW_OK, _("decision: %s"), dec->decision ? dec->decision : "?");
		if (dec->channel != NULL)
			doc_spanf(doc, DRAW_NORMAL, " (%s)", dec->channel);
		if (dec->time != NULL)
			doc_spanf(doc, DRAW_DIM, _(" at %s"), dec->time);
		if (dec->reason != NULL)
			doc_spanf(doc, DRAW_NORMAL, ": %s", dec->reason);
		/* A URL stays whole on its own row, to copy. */
		if (dec->url != NULL) {
			doc_line_slide(doc, 2);
			doc_spanf(doc, DRAW_KEY, "  %s", dec->url);
		}
		for (k = dec->nhistory; k-- > 0;) {
			const struct decision *h = &dec->history[k];

			doc_line(doc, 4, false);
			doc_spanf(doc, DRAW_DIM, _("before: %s"), h->decision ? h->decision : "?");
			if (h->time != NULL)
				doc_spanf(doc, DRAW_DIM, _(" at %s"), h->time);
			if (h->reason != NULL)
				doc_spanf(doc, DRAW_DIM, ": %s", h->reason);
		}
	}
	while (m->quarantine != NULL &&
	       (e = quarantine_next_for_test(m->quarantine, t->id, e)) != NULL) {
		doc_line(doc, 2, false);
		doc_spanf(doc, DRAW_OK, _("quarantined (%s) until %s: %s"), e->channel, e->expires,
		          quarantine_status_name(e->status));
	}
	view_detail_level(m, t, doc);
	view_detail_causes(m, t, doc);
	doc_line(doc, 0, true);
	view_heatmap_table(c, doc, t, width, true);
	worst = results_worst_cell(t);
	if (worst != NULL) {
		double lo, hi;
		int64_t bad = worst->failures + worst->hangs;

		confseq_rate(bad, worst->runs, CONFSEQ_ALPHA, &lo, &hi);
		draw_percent((double)bad / (double)worst->runs, rate, sizeof rate);
		draw_percent(lo, lo_s, sizeof lo_s);
		draw_percent(hi, hi_s, sizeof hi_s);
		doc_line(doc, 2, false);
		doc_spanf(
		    doc, DRAW_NORMAL,
		    _("worst pair: %s cpu %d load %d: %lld of %lld runs, %s (95%% anytime %s-%s)"),
		    results_phase_label(worst->phase), worst->cpu, worst->load, (long long)bad,
		    (long long)worst->runs, rate, lo_s, hi_s);
	}
	if (t->first != NULL) {
		const struct results_failure *f = t->first;

		doc_line(doc, 0, true);
		doc_line(doc, 2, false);
		doc_spanf(doc, DRAW_BOLD, _("first failure (%s, cpu %d, load %d, run %lld%s%s):"),
		          results_phase_label(f->phase), f->cpu, f->load, (long long)f->run,
		          f->log != NULL ? ", " : "", f->log != NULL ? f->log : "");
		if (f->seed != NULL) {
			doc_line(doc, 2, false);
			doc_spanf(doc, DRAW_DIM, _("seed %s"), f->seed);
		}
		if (f->lines != NULL && *f->lines != '\0')
			doc_text(doc, DRAW_NORMAL, 2, f->lines);
		else
			doc_text(doc, DRAW_DIM, 2, _("(no output)"));
	}
	if (c->repro_flakesweep != NULL && *c->repro_flakesweep != '\0') {
		doc_line(doc, 0, true);
		doc_line(doc, 2, false);
		doc_span(doc, DRAW_BOLD, _("reproduce:"));
		doc_line_slide(doc, 2);
		doc_spanf(doc, DRAW_KEY, "  %s", c->repro_flakesweep);
	}
	if (c->repro_direct != NULL && *c->repro_direct != '\0') {
		doc_line(doc, 2, false);
		doc_span(doc, DRAW_BOLD, _("directly:"));
		doc_line_slide(doc, 2);
		doc_spanf(doc, DRAW_KEY, "  %s", c->repro_direct);
	}
	view_detail_polluters(t, doc);
}

void
view_detail_draw(struct view_ctx *c, const struct view_rect *r, bool focused)
{
	struct view_state *st = c->st;
	long sel = view_selected(c);
	struct doc doc, wrapped;
	char *title;
	int rows = r->h - 1, x = r->x, w = r->w, i;

	if (sel >= 0)
		title = xasprintf(_("%s (%zu of %zu)"), c->m->tests[sel].name, st->selected + 1,
		                  c->nvisible);
	else
		title = xstrdup(_("Detail"));
	view_title(c, r->y, x, w, title, focused);
	free(title);
	st->detail_rows = rows;
	if (rows <= 0)
		return;
	if (sel < 0) {
		doc_init(&doc);
		doc_line(&doc, 0, false);
		doc_span(&doc, DRAW_DIM, _("select a flaky test to see its heatmaps here"));
	} else {
		view_detail_build(c, sel, w - 1, &doc);
	}
	doc.left = st->detail_left;
	doc_wrap(&doc, c->d, w - 1, &wrapped);
	st->detail_more_right = wrapped.slid_right;
	st->detail_lines = wrapped.nlines;
	if (st->detail_top + (size_t)rows > wrapped.nlines)
		st->detail_top = wrapped.nlines > (size_t)rows ? wrapped.nlines - (size_t)rows : 0;
	/* A margin of one column, then the text. */
	for (i = 0; i < rows; i++)
		draw_fill(c->d, r->y + 1 + i, x, 1, ' ', DRAW_NORMAL);
	doc_draw(&wrapped, c->d, r->y + 1, x + 1, rows, w - 1, st->detail_top);
	doc_free(&wrapped);
	doc_free(&doc);
}
